import type { RecordGroup, RecordGroupReport } from '@bimi/contracts/monitors';
import type { Check } from '@bimi/contracts/tools';
import { scoreChecks } from '@bimi/email-auth/checks';

/**
 * How much each record group counts within a protection band (they add up to 100). DMARC weighs
 * most: without enforcement no mailbox shows a logo and the domain can be spoofed; the certificate
 * next, as Gmail and Apple Mail need it for the logo.
 */
export const HEALTH_WEIGHTS: Record<RecordGroup, number> = { dmarc: 25, spf: 15, dkim: 15, bimi: 15, logo: 10, certificate: 15, mx: 5 };

/**
 * The health score is an ordering first (@bimi/email-auth README, "Health score"): the protection a
 * domain has picks its band, and everything else (SPF, DKIM, MX, warnings, hygiene, a host we could
 * not reach) moves the score within that band only. Higher bands never overlap lower ones.
 */
export const PROTECTION_BANDS = {
  /** No DMARC record receivers apply (none, several, or one they ignore). */
  'no-dmarc': [0, 24],
  /** DMARC at p=none (or a record applied as p=none): reports only. */
  monitoring: [25, 49],
  /** DMARC at enforcement (quarantine or reject), without a complete BIMI setup. */
  enforced: [50, 79],
  /** DMARC at enforcement as BIMI requires, a valid BIMI record, its logo and its mark certificate. */
  'bimi-complete': [80, 100],
} as const;
export type Protection = keyof typeof PROTECTION_BANDS;

type Groups = ReadonlyMap<RecordGroup, readonly Check[]> | Partial<Record<RecordGroup, readonly Check[]>>;

function checksOf(groups: Groups, group: RecordGroup): readonly Check[] {
  return (groups instanceof Map ? groups.get(group) : (groups as Partial<Record<RecordGroup, readonly Check[]>>)[group]) ?? [];
}

const has = (checks: readonly Check[], id: string, statuses?: readonly string[]) => checks.some((check) => check.id === id && (!statuses || statuses.includes(check.status)));
const wrong = (checks: readonly Check[]) => checks.some((check) => check.status === 'fail' || check.status === 'absent');

/**
 * The protection a domain has, from the tools' own checks (the same ids the DMARC and BIMI tools
 * answer with). A group we could not reach (`unreachable`) is not wrong: it neither earns nor loses
 * a band, as long as what we could read says the record is there (the BIMI record's l= and a=).
 */
export function protectionOf(groups: Groups): Protection {
  const dmarc = checksOf(groups, 'dmarc');
  // An invalid sp= makes receivers apply the record as p=none with a valid rua=, or ignore it (RFC 7489 §6.6.3).
  const applied = has(dmarc, 'dmarc.record.found') && !has(dmarc, 'dmarc.record.multiple');
  const downgraded = has(dmarc, 'dmarc.sp.invalid');
  const enforced = applied && !downgraded && (has(dmarc, 'dmarc.policy.reject') || has(dmarc, 'dmarc.policy.quarantine'));
  const monitoring =
    applied &&
    ((downgraded && has(dmarc, 'dmarc.rua.valid')) || has(dmarc, 'dmarc.policy.none') || has(dmarc, 'dmarc.policy.missing', ['warn']) || has(dmarc, 'dmarc.policy.invalid', ['warn']));
  if (!enforced) return monitoring ? 'monitoring' : 'no-dmarc';
  const bimi = checksOf(groups, 'bimi');
  const logo = checksOf(groups, 'logo');
  const certificate = checksOf(groups, 'certificate');
  const complete =
    has(dmarc, 'dmarc.bimi.ready', ['pass']) &&
    has(bimi, 'bimi.record.found') &&
    !wrong(bimi) &&
    (has(logo, 'bimi.l.valid', ['pass']) || has(logo, 'bimi.l.from-evidence')) &&
    !wrong(logo) &&
    has(certificate, 'bimi.a.valid', ['pass']) &&
    !wrong(certificate);
  return complete ? 'bimi-complete' : 'enforced';
}

/**
 * The health score, 0–100: the band of the domain's protection (`protectionOf`), and within it the
 * weighted mean of the groups' scores (`scoreChecks`, the tools' score: 100 less 25 per fail or
 * absent record and 10 per warning, in the band of the worst status, hygiene at most 10 points
 * within its band; 0 for a group with no checks), mapped onto the band. So a better-protected
 * domain always scores higher, and hygiene, warnings or an unreachable host never move a domain
 * out of its band.
 */
export function healthScore(groups: Groups): number {
  let total = 0;
  for (const [group, weight] of Object.entries(HEALTH_WEIGHTS) as [RecordGroup, number][]) {
    const checks = checksOf(groups, group);
    total += weight * (checks.length === 0 ? 0 : scoreChecks(checks));
  }
  const [low, high] = PROTECTION_BANDS[protectionOf(groups)];
  return Math.round(low + ((high - low) * total) / 100 / 100);
}

/**
 * A group a run could not read: its lookups were unreachable (a DNS timeout, a host down) and
 * nothing of it was read. It has no news: what the last run that read it found stands for it.
 */
export function unread(group: Pick<RecordGroupReport, 'status' | 'records'>): boolean {
  return group.status === 'unreachable' && group.records.length === 0;
}

type Run = { groups: readonly RecordGroupReport[] };

/** The group as the newest of `runs` (newest first) that read it found it; undefined when none did. */
export function lastRead(runs: readonly Run[], group: RecordGroup): RecordGroupReport | undefined {
  for (const run of runs) {
    const report = run.groups.find((candidate) => candidate.group === group);
    if (report && !unread(report)) return report;
  }
  return undefined;
}

/**
 * A monitor run's health score: `healthScore` of its groups, where a group it could not read
 * (`unread`) counts with the findings of the last run that read it (`before`: the runs before,
 * newest first). A DMARC lookup lost three times would otherwise put the domain in the no-DMARC
 * band (92 → 12) and mail a score drop that is not one (issue 32: what we could not reach is never
 * what is wrong).
 */
export function healthWithLastKnown(before: readonly Run[], groups: readonly RecordGroupReport[]): number {
  return healthScore(new Map(groups.map((report) => [report.group, ((unread(report) && lastRead(before, report.group)) || report).checks])));
}
