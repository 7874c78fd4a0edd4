import * as z from 'zod/mini';

/** The first message per field of a form that does not pass its schema. */
export type FieldErrors = Partial<Record<string, string>>;

export function checkForm<T>(schema: z.ZodMiniType<T>, values: unknown): { data: T; errors: null } | { data: null; errors: FieldErrors } {
  const result = schema.safeParse(values);
  if (result.success) return { data: result.data, errors: null };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return { data: null, errors };
}
