import { MONITOR_PATHS, RECORD_GROUP_LABELS, type MonitorIssue, type MonitorSnapshot, type RecordGroup } from '@bimi/contracts/monitors';
import { isHygiene } from '@bimi/email-auth/checks';
import { parseDmarc } from '@bimi/email-auth/dmarc-record';
import { currentDmarcRecords, dmarcAdvice } from './advice';

const GROUP_WORDS: [RegExp, RecordGroup][] = [
  [/\bdmarc\b/i, 'dmarc'],
  [/\bspf\b/i, 'spf'],
  [/\bdkim\b/i, 'dkim'],
  [/\b(vmc|cmc|certificate|cert)\b/i, 'certificate'],
  [/\b(svg|tiny ?ps)\b/i, 'logo'],
  [/\bbimi\b/i, 'bimi'],
  [/\b(mx|mail servers?)\b/i, 'mx'],
];

/**
 * The DMARC part of an answer, from `dmarcAdvice` (the domain's own record and verdicts): the
 * record to publish with every change said, or that the current record already protects the domain.
 */
function dmarcLines(domain: string, snapshot: MonitorSnapshot): string[] {
  const advice = dmarcAdvice(domain, snapshot);
  if (advice && advice.changes.length === 0) {
    return [`A first DMARC record to publish (p=none only collects reports; put your own report address in rua=, then move to p=quarantine): ${advice.name} TXT "${advice.record}"`];
  }
  if (advice) return [`The DMARC record to publish, every other tag of yours kept as it is: ${advice.name} TXT "${advice.record}"`, `What changes: ${advice.changes.join('; ')}.`];
  const current = currentDmarcRecords(snapshot);
  const policy = current.length === 1 ? parseDmarc(current[0]!.value).record.p : undefined;
  if (policy === 'reject' || policy === 'quarantine') return [`Your DMARC record is at p=${policy}, which BIMI accepts: keep it as it is.`];
  return [];
}

const numbered = (issues: readonly Pick<MonitorIssue, 'title' | 'fix' | 'detail'>[]) => issues.map((issue, index) => `${index + 1}. ${issue.title}: ${issue.fix ?? issue.detail}`);

/**
 * The assistant that runs when no model is configured: it answers from the domain's own checks —
 * which mailboxes show the logo and why not, the issues in order with their fixes (real findings
 * first, hygiene apart), the DMARC record to publish (`dmarcAdvice`: never weaker than the current
 * one, every current tag kept or its change said) — focused on the record the question names.
 */
export function builtInAnswer(domain: string, snapshot: MonitorSnapshot | null, question: string): string {
  if (!snapshot) return `${domain} has not been checked yet. Run a check from the monitor page (${MONITOR_PATHS.page(domain)}) and ask again.`;
  const lines: string[] = [];
  const focus = GROUP_WORDS.find(([pattern]) => pattern.test(question))?.[1];
  const aboutLogo = !focus && /logo|show|display|gmail|apple|yahoo|inbox|avatar/i.test(question);
  if (!focus) {
    const showing = snapshot.providers.filter((provider) => provider.showsLogo).map((provider) => provider.label);
    lines.push(
      showing.length === snapshot.providers.length
        ? `Your logo should show in ${showing.join(', ')}: every requirement we check is met (health score ${snapshot.healthScore}/100).`
        : `Health score ${snapshot.healthScore}/100. ${showing.length ? `Your logo would show in ${showing.join(', ')}.` : 'Your logo would not show in Gmail, Apple Mail or Yahoo yet.'}`,
    );
    for (const provider of snapshot.providers.filter((item) => !item.showsLogo)) lines.push(`- ${provider.label}: ${provider.reasons.join(' ')}`);
  }
  const group = focus ? snapshot.groups.find((item) => item.group === focus) : undefined;
  const checks = focus ? (group?.checks ?? []) : [];
  const issues: Pick<MonitorIssue, 'checkId' | 'title' | 'fix' | 'detail'>[] = focus
    ? checks
        .filter((check) => check.status === 'fail' || check.status === 'absent' || check.status === 'warn')
        .map((check) => ({ checkId: check.id, title: check.title, detail: check.detail, fix: check.fix ?? check.detail }))
    : snapshot.topIssues;
  const real = issues.filter((issue) => !isHygiene({ id: issue.checkId }));
  const hygiene = issues.filter((issue) => isHygiene({ id: issue.checkId }));
  if (focus) {
    lines.push(`${RECORD_GROUP_LABELS[focus]} of ${domain}: ${group?.status ?? 'not checked'}.`);
    for (const record of group?.records ?? []) lines.push(`Published: ${record.name} ${record.type} "${record.value.length > 120 ? `${record.value.slice(0, 120)}…` : record.value}"`);
    for (const check of checks.filter((item) => item.status === 'unreachable')) lines.push(`Could not check: ${check.title}. ${check.detail} We try again on the next check.`);
  }
  if (real.length === 0) lines.push(focus ? 'Nothing to fix there.' : 'Nothing to fix: keep the records as they are.');
  else {
    lines.push(aboutLogo || !focus ? 'Fix these first:' : 'To fix:');
    lines.push(...numbered(real));
  }
  if (hygiene.length > 0) {
    lines.push('Hygiene (reporting and record style; it does not change whether your logo shows):');
    lines.push(...numbered(hygiene));
  }
  if (!focus || focus === 'dmarc') lines.push(...dmarcLines(domain, snapshot));
  if (!focus && snapshot.providers.some((provider) => !provider.showsLogo)) {
    lines.push('Once these are fixed, Gmail and Apple Mail show the logo with a valid mark certificate, and Yahoo with DMARC at enforcement, the BIMI record and the logo.');
  }
  return lines.join('\n');
}
