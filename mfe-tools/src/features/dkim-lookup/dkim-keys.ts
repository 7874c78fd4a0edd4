import * as z from 'zod/mini';

/**
 * The keys a DKIM answer found, from its `details` (DkimDetails of @bimi/email-auth/dkim):
 * one entry per selector with a record, and the selectors tried.
 */
const DkimKey = z.union([
  z.object({ ok: z.literal(true), type: z.string(), bits: z.number() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
const DkimSelectorResult = z.object({
  selector: z.string(),
  status: z.string(),
  record: z.optional(z.object({ keyType: z.optional(z.string()), publicKey: z.optional(z.string()), key: z.optional(DkimKey) })),
  score: z.optional(z.number()),
});
const DkimDetails = z.object({ tried: z.array(z.string()), selectors: z.array(DkimSelectorResult) });

export interface DkimKeySummary {
  selector: string;
  /** "RSA · 2048-bit", "revoked (empty p=)", or why the key cannot be read. */
  summary: string;
  usable: boolean;
}

export function dkimKeysFrom(details: Record<string, unknown> | undefined): { keys: DkimKeySummary[]; tried: string[] } {
  const parsed = DkimDetails.safeParse(details);
  if (!parsed.success) return { keys: [], tried: [] };
  const keys = parsed.data.selectors.flatMap((result): DkimKeySummary[] => {
    if (result.status !== 'found' || !result.record) return [];
    const { key, publicKey, keyType } = result.record;
    if (publicKey === '') return [{ selector: result.selector, summary: 'Revoked (empty p=)', usable: false }];
    if (key?.ok) return [{ selector: result.selector, summary: `${key.type.toUpperCase()} · ${key.bits}-bit`, usable: true }];
    return [{ selector: result.selector, summary: key && !key.ok ? key.error : `${(keyType ?? 'rsa').toUpperCase()} key that could not be read`, usable: false }];
  });
  return { keys, tried: parsed.data.tried };
}
