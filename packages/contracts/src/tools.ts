import * as z from 'zod/mini';

/**
 * The email-authentication tools' API (issue 5): every checker answers GET /api/tools/<tool>
 * with the same shape, `{query, records, checks, score?}`, plus tool-specific details.
 * The record logic that produces the checks lives in @bimi/email-auth; the bff does the I/O.
 */

export const CHECK_STATUSES = ['pass', 'warn', 'fail', 'info'] as const;
export const CheckStatus = z.enum(CHECK_STATUSES);
export type CheckStatus = z.infer<typeof CheckStatus>;

/** One finding, explained in plain words; `fix` says what to change when it is not a pass. */
export const Check = z.object({
  /** Stable identifier, e.g. `dmarc.policy.none`, `spf.lookups.limit`; tests and the UI key on it. */
  id: z.string(),
  status: CheckStatus,
  title: z.string(),
  detail: z.string(),
  fix: z.optional(z.string()),
});
export type Check = z.infer<typeof Check>;

/** A DNS record as published: the owner name, type and the value (TXT strings joined). */
export const DnsRecord = z.object({
  name: z.string(),
  type: z.string(),
  value: z.string(),
  ttl: z.optional(z.number()),
});
export type DnsRecord = z.infer<typeof DnsRecord>;

export const TOOL_NAMES = ['dmarc', 'spf', 'dkim', 'bimi', 'vmc', 'txt', 'cname', 'records'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** What every tool endpoint answers. `details` carries what one tool adds (logo, certificate, SPF tree…). */
export const ToolAnswer = z.object({
  query: z.record(z.string(), z.string()),
  records: z.array(DnsRecord),
  checks: z.array(Check),
  /** 0–100, where the tool grades a whole setup (DMARC, SPF, BIMI, VMC). */
  score: z.optional(z.number()),
  details: z.optional(z.record(z.string(), z.unknown())),
});
export type ToolAnswer = z.infer<typeof ToolAnswer>;

/** The verdict a checker shows on top: the worst status among its checks. */
export function summarize(checks: readonly Check[]): CheckStatus {
  if (checks.some((check) => check.status === 'fail')) return 'fail';
  if (checks.some((check) => check.status === 'warn')) return 'warn';
  if (checks.some((check) => check.status === 'pass')) return 'pass';
  return 'info';
}
