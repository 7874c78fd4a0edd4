import type { Check, CheckStatus, DnsRecord } from './types';

/** What every inspect function answers; the bff adds `query` to make it a ToolAnswer. */
export interface Inspection<Details> {
  records: DnsRecord[];
  checks: Check[];
  /** 0–100, see `scoreChecks`. */
  score: number;
  details: Details;
}

export function pass(id: string, title: string, detail: string): Check {
  return { id, status: 'pass', title, detail };
}

/** Worth knowing, counts nothing against the score; `fix` when there is something to do about it. */
export function info(id: string, title: string, detail: string, fix?: string): Check {
  return fix === undefined ? { id, status: 'info', title, detail } : { id, status: 'info', title, detail, fix };
}

/** A finding that is not a pass always says, in plain words, what to change. */
export function warn(id: string, title: string, detail: string, fix: string): Check {
  return { id, status: 'warn', title, detail, fix };
}

export function fail(id: string, title: string, detail: string, fix: string): Check {
  return { id, status: 'fail', title, detail, fix };
}

/** Points one check of each status takes off the score of 100. */
export const SCORE_PENALTY: Record<CheckStatus, number> = { pass: 0, info: 0, warn: 10, fail: 25 };

/**
 * The score of one inspection, 0–100: start at 100, take off 25 per failed check and 10 per
 * warning, never below 0, and never above `ceiling` (each protocol sets a ceiling for setups that
 * cannot be good whatever else is right, e.g. DMARC p=none caps at 50, no record at all scores 0).
 */
export function scoreChecks(checks: readonly Check[], ceiling = 100): number {
  const penalty = checks.reduce((sum, check) => sum + SCORE_PENALTY[check.status], 0);
  return Math.max(0, Math.min(ceiling, 100 - penalty));
}

/** A TXT record as shown: its strings joined as receivers join them (RFC 7208 §3.3, RFC 6376 §3.6.2.2). */
export function txtRecord(name: string, strings: readonly string[]): DnsRecord {
  return { name, type: 'TXT', value: strings.join('') };
}
