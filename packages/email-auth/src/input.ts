import * as z from 'zod/mini';

/** Text from an untyped caller: anything that is not a string reads as empty (never calls toString). */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * Validates a builder's input at the boundary with its zod/mini schema; a wrong shape becomes
 * plain-words errors instead of a throw deeper in.
 */
export function readInput<Schema extends z.ZodMiniType>(schema: Schema, input: unknown): { ok: true; data: z.infer<Schema> } | { ok: false; errors: string[] } {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, data: parsed.data };
  return {
    ok: false,
    errors: parsed.error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message)),
  };
}
