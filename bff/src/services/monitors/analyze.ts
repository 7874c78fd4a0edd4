import {
  MAILBOX_PROVIDER_LABELS,
  RECORD_GROUP_LABELS,
  RECORD_GROUPS,
  type CertificateCard,
  type LogoReport,
  type MonitorIssue,
  type MonitorSnapshot,
  type ProviderDisplay,
  type RecordGroup,
  type RecordGroupReport,
} from '@bimi/contracts/monitors';
import { summarize, type BimiDetails, type Check, type DnsRecord, type ToolFindings } from '@bimi/contracts/tools';
import { absent, isHygiene, unreachable } from '@bimi/email-auth/checks';
import { inspectDkim } from '@bimi/email-auth/dkim';
import { lookup } from '@bimi/email-auth/dns';
import { inspectDmarc } from '@bimi/email-auth/dmarc';
import { inspectSpf } from '@bimi/email-auth/spf';
import { mxFinding } from '@bimi/email-auth/mx';
import type { ToolIo } from '../tools/ports';
import { bimiTool } from '../tools/bimi-check';
import type { UntrustedFiles } from '../untrusted-files/untrusted-files';
import { healthScore } from './health';
import { iso } from '../../lib/iso';

/** A finished run before it is compared with the one before (the engine adds `changes`). */
export type Analysis = Omit<MonitorSnapshot, 'changes'>;

/**
 * Which group a check belongs to, by the id the record logic gave it: the BIMI record's l= checks
 * (`bimi.l.*`) and the logo's fetch and SVG checks are the logo's; its a= checks (`bimi.a.*`) and
 * the certificate's fetch and validation are the certificate's. The checks are the BIMI tool's own
 * (same ids, statuses and texts): a fact the tool judges is judged once.
 */
export function groupOf(checkId: string): RecordGroup {
  if (checkId.startsWith('svg.') || checkId.startsWith('bimi.logo') || checkId.startsWith('bimi.l.')) return 'logo';
  if (checkId.startsWith('vmc.') || checkId.startsWith('bimi.certificate') || checkId.startsWith('bimi.a.')) return 'certificate';
  const prefix = checkId.split('.')[0] as RecordGroup;
  return (RECORD_GROUPS as readonly string[]).includes(prefix) ? prefix : 'bimi';
}

// Issue 17's statuses: a missing record ranks with a fail. Issue 32: what we could not reach is
// never what is wrong: it is said as "could not check", and it blocks nothing we know of.
/** Findings that keep the logo from showing: a failed check, a record that is absent. */
const BLOCKING: ReadonlySet<string> = new Set(['fail', 'absent']);
const blocks = (status: string | undefined) => status !== undefined && BLOCKING.has(status);

const STATUS_RANK = { fail: 0, absent: 0, warn: 1, unreachable: 2, info: 3, pass: 4 } as const;
const MAX_TOP_ISSUES = 5;
const MAX_HYGIENE_ISSUES = 3;

/**
 * The checks worth fixing: the real findings first, worst first (fails, then warnings; the heavier
 * group first within each), at most five; then the hygiene findings (isHygiene: reporting, record
 * style), at most three, which the page lists under a heading of their own. Hygiene never comes
 * before a real finding, and is never the worst issue of a monitor.
 */
export function topIssues(groups: readonly RecordGroupReport[]): MonitorIssue[] {
  const order = new Map(RECORD_GROUPS.map((group, index) => [group, index]));
  const issues = groups
    .flatMap((report) =>
      report.checks
        .filter((check) => (check.status === 'fail' || check.status === 'absent' || check.status === 'warn') && check.fix)
        .map((check): MonitorIssue => ({ checkId: check.id, group: report.group, status: check.status, title: check.title, detail: check.detail, fix: check.fix as string })),
    )
    .sort((a, b) => STATUS_RANK[a.status] - STATUS_RANK[b.status] || (order.get(a.group) ?? 0) - (order.get(b.group) ?? 0));
  const real = issues.filter((issue) => !isHygiene({ id: issue.checkId })).slice(0, MAX_TOP_ISSUES);
  const hygiene = issues.filter((issue) => isHygiene({ id: issue.checkId })).slice(0, MAX_HYGIENE_ISSUES);
  return [...real, ...hygiene];
}

/** The MX group: the records tool's words (mxFinding), the records as the monitors always listed them. */
async function mxFindings(domain: string, io: ToolIo): Promise<{ records: DnsRecord[]; checks: Check[] }> {
  const result = await lookup(() => io.dns.resolveMx(domain));
  const hosts = result.status === 'found' ? [...result.value].sort((a, b) => a.priority - b.priority) : [];
  const records = hosts.map((host) => ({ name: domain, type: 'MX', value: `${host.priority} ${host.exchange}` }));
  return { records, checks: [mxFinding('mx.records', domain, result)] };
}

const DAY = 24 * 60 * 60 * 1000;

function certificateCard(read: BimiDetails['certificate'], evidence: string | undefined, checks: readonly Check[], now: number): CertificateCard {
  const status = checks.length > 0 ? summarize(checks) : 'absent';
  if (!read || !('fingerprint' in read)) {
    // Named in a= but not read (its host could not be reached, or the file is not a certificate): present all the same.
    const reason = checks.find((check) => blocks(check.status)) ?? checks.find((check) => check.status === 'unreachable');
    return {
      present: Boolean(read?.url ?? evidence),
      url: read?.url ?? evidence ?? null,
      kind: null,
      markType: null,
      subject: null,
      issuer: null,
      validFrom: null,
      validTo: null,
      daysLeft: null,
      logoHashMatches: null,
      status,
      summary: reason ? `${reason.title}: ${reason.detail}` : 'No mark certificate is published, so Gmail and Apple Mail show no logo.',
    };
  }
  const validTo = read.validTo ?? null;
  const daysLeft = validTo ? Math.floor((Date.parse(validTo) - now) / DAY) : null;
  const match = checks.find((check) => check.id === 'vmc.logo-match');
  const summary =
    daysLeft === null
      ? 'The certificate has no end date we could read.'
      : daysLeft < 0
        ? `Expired on ${validTo?.slice(0, 10)}.`
        : `Valid until ${validTo?.slice(0, 10)} (${daysLeft} days left).`;
  return {
    present: true,
    url: read.url,
    kind: read.certificateType ?? null,
    markType: read.markType ?? null,
    subject: read.organization ?? read.commonName ?? null,
    issuer: read.issuerOrganization ?? read.issuer ?? null,
    validFrom: read.validFrom ?? null,
    validTo,
    daysLeft,
    logoHashMatches: match ? match.status === 'pass' : null,
    status,
    summary,
  };
}

function logoReport(domain: string, { logo, record }: BimiDetails, checks: readonly Check[]): LogoReport {
  const initial = (domain[0] ?? '?').toUpperCase();
  const failed = checks.find((check) => blocks(check.status)) ?? checks.find((check) => check.status === 'unreachable');
  if (logo?.dataUrl && !failed) return { dataUrl: logo.dataUrl, reason: null, url: logo.url, initial };
  const url = logo?.url ?? record?.logos[0] ?? null;
  const reason = failed ? `${failed.title}: ${failed.detail}` : 'No BIMI record with a logo is published, so mailboxes show the first letter of the sender instead.';
  return { dataUrl: null, reason, url: url || null, initial };
}

/** Whether the BIMI record itself could not be looked up (the BIMI check's finding): nothing is known of the logo and certificate then. */
const bimiLookupFailed = (checks: readonly Check[]) => checks.some((check) => check.id === 'bimi.lookup.error');

/**
 * Which mailboxes would show the logo, and why not. All three need DMARC at enforcement, a BIMI
 * record and a valid SVG Tiny PS logo; Gmail and Apple Mail also need a valid mark certificate
 * (VMC, or CMC) whose logo is the published one; Yahoo shows logos of senders with good reputation
 * without a certificate.
 */
function providerDisplay(groups: ReadonlyMap<RecordGroup, RecordGroupReport>, dmarcReady: boolean, certificate: CertificateCard): ProviderDisplay[] {
  const common: string[] = [];
  const dmarcUnknown = [...(groups.get('dmarc')?.checks ?? []), ...(groups.get('bimi')?.checks ?? [])].some((check) => check.id === 'dmarc.lookup.error' || check.id === 'bimi.dmarc.error');
  if (dmarcUnknown) common.push('We could not check DMARC, so we cannot tell yet whether it is at enforcement. We try again on the next check.');
  else if (!dmarcReady) common.push('DMARC is not at enforcement (p=quarantine or p=reject for the domain and its subdomains, pct=100).');
  const bimiUnknown = bimiLookupFailed(groups.get('bimi')?.checks ?? []);
  if (bimiUnknown) common.push('We could not look up the BIMI record, so we cannot tell yet whether a logo is published. We try again on the next check.');
  else if (blocks(groups.get('bimi')?.status)) common.push('The BIMI record is missing or not usable.');
  if (blocks(groups.get('logo')?.status)) common.push('The logo is missing or not valid SVG Tiny PS.');
  else if (groups.get('logo')?.status === 'unreachable' && !bimiUnknown)
    common.push('We could not reach the logo’s host, so we cannot tell yet whether the logo is valid. We try again on the next check.');
  const needsCertificate: string[] = [];
  if (certificate.status === 'unreachable') needsCertificate.push('We could not check the mark certificate, so we cannot tell yet whether it is valid. We try again on the next check.');
  else if (!certificate.present) needsCertificate.push('No mark certificate (VMC or CMC) is published in the BIMI record.');
  else if (blocks(certificate.status)) needsCertificate.push(`The mark certificate is not valid: ${certificate.summary}`);
  if (certificate.logoHashMatches === false) needsCertificate.push('The logo in the certificate is not the published logo.');
  return (['gmail', 'apple', 'yahoo'] as const).map((provider) => {
    const reasons = provider === 'yahoo' ? common : [...common, ...needsCertificate];
    return { provider, label: MAILBOX_PROVIDER_LABELS[provider], showsLogo: reasons.length === 0, reasons: [...new Set(reasons)] };
  });
}

/**
 * One monitor run: the records the tools read (@bimi/email-auth's inspections and the BIMI check of
 * services/tools, which fetches the logo and certificate and reads them in the untrusted-files
 * workers), grouped as the monitor page shows them, with the health score, the top issues, the
 * logo, the certificate card and what each mailbox provider would show. Never throws for what DNS
 * or the network answer: failures are checks.
 */
export async function analyzeDomain(domain: string, io: ToolIo, files: UntrustedFiles, now: number): Promise<Analysis> {
  const [dmarc, spf, dkim, bimi, mx] = await Promise.all([
    inspectDmarc(domain, io.dns),
    inspectSpf(domain, io.dns),
    inspectDkim(domain, {}, io.dns),
    bimiTool(domain, undefined, io, files),
    mxFindings(domain, io),
  ]);
  const byGroup = new Map<RecordGroup, { records: DnsRecord[]; checks: Check[] }>(RECORD_GROUPS.map((group) => [group, { records: [], checks: [] }]));
  const add = (group: RecordGroup, findings: Pick<ToolFindings, 'records' | 'checks'>) => {
    const entry = byGroup.get(group) as { records: DnsRecord[]; checks: Check[] };
    entry.records.push(...findings.records);
    entry.checks.push(...findings.checks);
  };
  add('dmarc', dmarc);
  add('spf', spf);
  add('dkim', dkim);
  add('mx', mx);
  add('bimi', { records: bimi.records, checks: [] });
  for (const check of bimi.checks) add(groupOf(check.id), { records: [], checks: [check] });
  const bimiRecord = bimi.details.record;
  // The BIMI tool says once that the one host of l= and a= could not be reached; the certificate
  // group, which has no answer of its own then, carries that same finding.
  const hostDown = bimi.checks.find((check) => check.id === 'bimi.logo.fetch' && check.status === 'unreachable');
  if (hostDown && bimiRecord?.evidence && !bimi.checks.some((check) => check.id === 'bimi.certificate.fetch' || check.id.startsWith('vmc.'))) {
    add('certificate', { records: [], checks: [{ ...hostDown, id: 'monitor.certificate.fetch', title: 'The certificate could not be reached' }] });
  }
  // A BIMI lookup that failed tells nothing of the logo and the certificate: they could not be
  // checked (as the BIMI checker says), never absent.
  if (!bimiRecord && bimiLookupFailed(bimi.checks)) {
    const fix = "Nothing to do unless it lasts: check that the domain's name servers answer.";
    const notChecked = (what: string) => `The BIMI record could not be looked up, so the ${what} could not be checked. We try again on the next check.`;
    if (byGroup.get('logo')?.checks.length === 0) add('logo', { records: [], checks: [unreachable('monitor.logo.unknown', 'Logo not checked', notChecked('logo'), fix)] });
    if (byGroup.get('certificate')?.checks.length === 0) {
      add('certificate', { records: [], checks: [unreachable('monitor.certificate.unknown', 'Mark certificate not checked', notChecked('mark certificate'), fix)] });
    }
  } else if (!bimiRecord || bimiRecord.declined) {
    // Without a usable BIMI record the logo and the certificate are absent: said in those groups too.
    const why = bimiRecord ? 'The BIMI record declines to show a logo (l= and a= are empty)' : 'There is no BIMI record';
    if (byGroup.get('logo')?.checks.length === 0) {
      add('logo', {
        records: [],
        checks: [
          absent('monitor.logo.none', 'No logo published', `${why}, so no logo is published.`, "Publish your logo as SVG Tiny PS over https and name it in the BIMI record's l= tag."),
        ],
      });
    }
    if (byGroup.get('certificate')?.checks.length === 0) {
      add('certificate', {
        records: [],
        checks: [
          absent(
            'monitor.certificate.none',
            'No mark certificate',
            `${why}, so no mark certificate is published and Gmail and Apple Mail show no logo.`,
            "Get a VMC or CMC for your logo and publish its PEM file in the BIMI record's a= tag.",
          ),
        ],
      });
    }
  }

  const groups: RecordGroupReport[] = RECORD_GROUPS.map((group) => {
    const { records, checks } = byGroup.get(group) as { records: DnsRecord[]; checks: Check[] };
    // The group's status is the verdict's rule: the worst of its checks, hygiene apart (listed under its own heading).
    const core = checks.filter((check) => !isHygiene(check));
    return { group, label: RECORD_GROUP_LABELS[group], status: summarize(core.length > 0 ? core : checks), records: records.map(({ name, type, value }) => ({ name, type, value })), checks };
  });
  const reports = new Map(groups.map((report) => [report.group, report]));
  const certificate = certificateCard(bimi.details.certificate, bimiRecord?.evidence || undefined, reports.get('certificate')?.checks ?? [], now);
  return {
    checkedAt: iso(now),
    healthScore: healthScore(new Map(groups.map((report) => [report.group, report.checks]))),
    groups,
    logo: logoReport(domain, bimi.details, reports.get('logo')?.checks ?? []),
    certificate,
    providers: providerDisplay(reports, bimi.details.dmarcReady, certificate),
    topIssues: topIssues(groups),
    dkimSelectors: dkim.details.selectors.filter((selector) => selector.status === 'found').map((selector) => selector.selector),
  };
}
