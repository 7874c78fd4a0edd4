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

/** The record is wrong. */
export function fail(id: string, title: string, detail: string, fix: string): Check {
  return { id, status: 'fail', title, detail, fix };
}

/** There is no record where one is needed: nothing is wrong in it, nothing is there. */
export function absent(id: string, title: string, detail: string, fix: string): Check {
  return { id, status: 'absent', title, detail, fix };
}

/** We could not resolve or fetch it, so we cannot say whether it is right; the fix is to try again. */
export function unreachable(id: string, title: string, detail: string, fix: string): Check {
  return { id, status: 'unreachable', title, detail, fix };
}

/**
 * Hygiene findings: reporting (where DMARC reports go, and whether they can go there) and record
 * style (obsolete or unknown tags). They are shown in a band of their own and take at most
 * HYGIENE_MAX_PENALTY points, within the band the answer is in: they never turn a protected domain red.
 */
export function isHygiene(check: Pick<Check, 'id'>): boolean {
  return /^dmarc\.(rua|ruf|fo)\./.test(check.id) || /\.obsolete$/.test(check.id) || /^dmarc\.(syntax\.unknown|rfc\.)/.test(check.id);
}

/**
 * Hygiene is never red: a hygiene finding that would be a `fail` (reports to an address that is
 * not mailto:, or to a domain that has not authorized them) is a `warn`, so no list shows a red
 * "Fail" for what the answer calls hygiene that does not change it.
 */
export function hygieneAsWarnings(checks: readonly Check[]): Check[] {
  return checks.map((check) => (isHygiene(check) && check.status === 'fail' ? { ...check, status: 'warn' } : check));
}

/** Points one check of each status takes off the score of 100 (hygiene findings excepted). */
export const SCORE_PENALTY: Record<CheckStatus, number> = { pass: 0, info: 0, unreachable: 0, warn: 10, fail: 25, absent: 25 };
/** Points one hygiene warning or failure takes off, and the most all of them take. */
export const HYGIENE_PENALTY = 5;
export const HYGIENE_MAX_PENALTY = 10;

/** Worst first: what a set of checks adds up to. */
export const STATUS_SEVERITY: Record<CheckStatus, number> = { fail: 0, absent: 1, unreachable: 2, warn: 3, pass: 4, info: 5 };

/** The worst status among the checks (`info` when there is nothing graded). */
export function worstStatus(checks: readonly Pick<Check, 'status'>[]): CheckStatus {
  let worst: CheckStatus = 'info';
  for (const check of checks) if (STATUS_SEVERITY[check.status] < STATUS_SEVERITY[worst]) worst = check.status;
  return worst;
}

/**
 * The score band of each answer: a failing or missing setup scores 0–49, one that works with
 * warnings 50–89, one that passes 90–100. The headline and the score come from the same band.
 */
export const SCORE_BANDS = { fail: [0, 49], warn: [50, 89], pass: [90, 100] } as const;
export type ScoreBand = keyof typeof SCORE_BANDS;

/** The band a status belongs to (`unreachable` answers have no score; their band is `warn`'s ceiling). */
export function bandOf(status: CheckStatus): ScoreBand {
  if (status === 'fail' || status === 'absent') return 'fail';
  if (status === 'warn' || status === 'unreachable') return 'warn';
  return 'pass';
}

function bandOfScore(score: number): ScoreBand {
  return score < 50 ? 'fail' : score < 90 ? 'warn' : 'pass';
}

/**
 * The score of one inspection, 0–100 (the formula in the README, "Scores"):
 * 1. base = 100 − 25 per `fail` or `absent` − 10 per `warn` among the checks that are not hygiene,
 *    at least 0 and at most `ceiling` (each protocol sets one for setups that cannot be good
 *    whatever else is right, e.g. DMARC p=none caps at 50, no record at all scores 0);
 * 2. the band is the worse of the checks' band (worst status) and the base's band;
 * 3. score = base − 5 per hygiene warning or failure (at most 10), kept inside the band.
 * So a fail in what the question asks never scores above a pass, and hygiene never changes the band.
 */
export function scoreChecks(checks: readonly Check[], ceiling = 100): number {
  const core = checks.filter((check) => !isHygiene(check));
  const hygiene = checks.filter((check) => isHygiene(check) && (check.status === 'warn' || check.status === 'fail'));
  const penalty = core.reduce((sum, check) => sum + SCORE_PENALTY[check.status], 0);
  const base = Math.max(0, Math.min(ceiling, 100 - penalty));
  const bands: ScoreBand[] = [bandOf(worstStatus(core)), bandOfScore(base)];
  const band = bands.includes('fail') ? 'fail' : bands.includes('warn') ? 'warn' : 'pass';
  const [low, high] = SCORE_BANDS[band];
  const score = base - Math.min(HYGIENE_MAX_PENALTY, HYGIENE_PENALTY * hygiene.length);
  return Math.max(low, Math.min(high, score));
}

/** A TXT record as shown: its strings joined as receivers join them (RFC 7208 §3.3, RFC 6376 §3.6.2.2). */
export function txtRecord(name: string, strings: readonly string[]): DnsRecord {
  return { name, type: 'TXT', value: strings.join('') };
}
