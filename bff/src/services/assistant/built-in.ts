import { MONITOR_PATHS, RECORD_GROUP_LABELS, type MonitorSnapshot, type RecordGroup } from '@bimi/contracts/monitors';
import { buildDmarcRecord } from '@bimi/email-auth/dmarc-record';

const GROUP_WORDS: [RegExp, RecordGroup][] = [
  [/\bdmarc\b/i, 'dmarc'],
  [/\bspf\b/i, 'spf'],
  [/\bdkim\b/i, 'dkim'],
  [/\b(vmc|cmc|certificate|cert)\b/i, 'certificate'],
  [/\b(svg|tiny ?ps)\b/i, 'logo'],
  [/\bbimi\b/i, 'bimi'],
  [/\b(mx|mail servers?)\b/i, 'mx'],
];

/** The DMARC record to publish when the policy is not at enforcement, from the generator. */
function dmarcToPublish(domain: string, snapshot: MonitorSnapshot): string | null {
  const dmarc = snapshot.groups.find((group) => group.group === 'dmarc');
  if (!dmarc || dmarc.status === 'pass') return null;
  const built = buildDmarcRecord({ domain, p: 'quarantine', adkim: 'r', aspf: 'r' });
  return built.errors.length === 0 ? `${built.name} TXT "${built.record}"` : null;
}

/**
 * The assistant that runs when no model is configured: it answers from the domain's own checks —
 * which mailboxes show the logo and why not, the issues in order with their fixes, the records to
 * publish (from @bimi/email-auth's generators) — focused on the record the question names.
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
  const issues = focus ? (snapshot.groups.find((group) => group.group === focus)?.checks.filter((check) => check.status !== 'pass' && check.status !== 'info') ?? []) : snapshot.topIssues;
  if (focus) {
    const group = snapshot.groups.find((item) => item.group === focus);
    lines.push(`${RECORD_GROUP_LABELS[focus]} of ${domain}: ${group?.status ?? 'not checked'}.`);
    for (const record of group?.records ?? []) lines.push(`Published: ${record.name} ${record.type} "${record.value.length > 120 ? `${record.value.slice(0, 120)}…` : record.value}"`);
  }
  if (issues.length === 0) lines.push(focus ? 'Nothing to fix there.' : 'Nothing to fix: keep the records as they are.');
  else {
    lines.push(aboutLogo || !focus ? 'Fix these first:' : 'To fix:');
    issues.forEach((issue, index) => lines.push(`${index + 1}. ${issue.title}: ${issue.fix ?? issue.detail}`));
  }
  const dmarc = (!focus || focus === 'dmarc') && dmarcToPublish(domain, snapshot);
  if (dmarc) lines.push(`A DMARC record at enforcement to publish (add rua= with your report address): ${dmarc}`);
  if (!focus && snapshot.providers.some((provider) => !provider.showsLogo)) {
    lines.push('Once these are fixed, Gmail and Apple Mail show the logo with a valid mark certificate, and Yahoo with DMARC at enforcement, the BIMI record and the logo.');
  }
  return lines.join('\n');
}
