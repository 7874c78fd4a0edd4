import * as z from 'zod/mini';

/**
 * A finding of the email-authentication tools and the monitors (issue 5), apart from
 * `tools.ts` so that a page that reads monitors does not build every tool's answer schema.
 */

/**
 * `fail`: the record is wrong; `absent`: there is none; `unreachable`: it could not be fetched or
 * resolved (say so, retryable); `warn`, `pass`; `info`: graded nothing.
 */
export const CHECK_STATUSES = ['pass', 'warn', 'fail', 'info', 'unreachable', 'absent'] as const;
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
