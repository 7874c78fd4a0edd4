import type { RecordGroup } from '@bimi/contracts/monitors';
import type { Check } from '@bimi/contracts/tools';
import { scoreChecks } from '@bimi/email-auth/checks';

/**
 * How much each record group counts in the health score (they add up to 100). DMARC weighs most:
 * without enforcement no mailbox shows a logo and the domain can be spoofed; the certificate next,
 * as Gmail and Apple Mail need it for the logo.
 */
export const HEALTH_WEIGHTS: Record<RecordGroup, number> = { dmarc: 25, spf: 15, dkim: 15, bimi: 15, logo: 10, certificate: 15, mx: 5 };

/** The most a group with a failed check scores. */
export const FAILED_GROUP_CEILING = 40;

/**
 * The health score, 0–100, from the checks' statuses alone: each group scores as the tools score
 * checks (@bimi/email-auth's verdict model, `scoreChecks`: 100 less 25 per fail or absent record and
 * 10 per warning, in the band of the worst status, hygiene findings apart; see its README "Scores"),
 * at most FAILED_GROUP_CEILING when one of its checks fails or its record is absent,
 * 0 with no checks at all; the score is the weighted mean of the groups, rounded. One small function on purpose: when @bimi/email-auth gets one verdict model
 * (issue 17) this is the one place to move onto it.
 */
export function healthScore(groups: ReadonlyMap<RecordGroup, readonly Check[]> | Partial<Record<RecordGroup, readonly Check[]>>): number {
  const checksOf = (group: RecordGroup): readonly Check[] => (groups instanceof Map ? groups.get(group) : (groups as Partial<Record<RecordGroup, readonly Check[]>>)[group]) ?? [];
  let total = 0;
  for (const [group, weight] of Object.entries(HEALTH_WEIGHTS) as [RecordGroup, number][]) {
    const checks = checksOf(group);
    total += weight * (checks.length === 0 ? 0 : scoreChecks(checks, checks.some((check) => check.status === 'fail' || check.status === 'absent') ? FAILED_GROUP_CEILING : 100));
  }
  return Math.round(total / 100);
}
