import type { Check, DnsRecord } from './types';
import { fail, info, pass, scoreChecks, txtRecord, warn, type Inspection } from './checks';
import { describeLookupError, lookupTxt, type DnsResolver } from './dns';
import { checkBimiReadiness, parseDmarc, versionCheck, type DmarcPolicy, type DmarcRecord } from './dmarc-record';
import { organizationalDomain, validateDomain } from './domain';
import { asText } from './input';
import { parseTagList, quote } from './tag-list';

/**
 * Looking up a domain's DMARC policy (RFC 7489 §6.6.3): the record at `_dmarc.<domain>` or its
 * organizational domain's (Public Suffix List), and the report authorization records (§7.1).
 * The record text itself (parse, checks, builder, BIMI readiness) is in dmarc-record.ts, which
 * the page loads without the Public Suffix List.
 */

// mfe-tools reads the record functions from here; they live in dmarc-record.ts.
export { buildDmarcRecord, checkBimiReadiness, parseDmarc } from './dmarc-record';

export interface DmarcDetails {
  domain: string;
  organizationalDomain?: string;
  /** Where the record that applies was found: the domain itself or its organizational domain. */
  recordDomain?: string;
  /** True when the domain has no record and the organizational domain's applies. */
  inherited: boolean;
  record: DmarcRecord | null;
  /** The policy receivers apply to mail from `domain` (sp= when inherited). */
  policy?: DmarcPolicy;
  bimiReady: boolean;
}

function emptyInspection(domain: string, checks: Check[], records: DnsRecord[] = []): Inspection<DmarcDetails> {
  return { records, checks, score: 0, details: { domain, inherited: false, record: null, bimiReady: false } };
}

/** DMARC records among the TXT records at one name (those starting with v=DMARC1). */
function dmarcRecordsAt(texts: string[]): string[] {
  return texts.filter((text) => parseDmarc(text).isDmarc);
}

/**
 * Looks up and checks the DMARC policy of `domain`: the record at _dmarc.<domain> or, failing
 * that, at the organizational domain; report address authorization (RFC 7489 §7.1); BIMI
 * readiness. Never throws.
 *
 * Score: `scoreChecks` under a ceiling set by the policy that applies: 0 without a usable record,
 * 30 without a valid p=, 50 for none, 90 for quarantine, 100 for reject.
 */
export async function inspectDmarc(domain: string, dns: DnsResolver): Promise<Inspection<DmarcDetails>> {
  const valid = validateDomain(domain);
  if (!valid.ok) {
    return emptyInspection(asText(domain), [fail('dmarc.domain.invalid', 'Not a domain name', valid.error, 'Enter the domain you send mail from, e.g. example.com.')]);
  }
  const name = valid.domain;
  const orgDomain = organizationalDomain(name);
  const checks: Check[] = [];
  const records: DnsRecord[] = [];

  let recordDomain = name;
  const found = await lookupTxt(dns, `_dmarc.${name}`);
  if (found.status === 'error') {
    return emptyInspection(name, [fail('dmarc.lookup.error', 'DMARC lookup failed', describeLookupError(`_dmarc.${name}`, found), 'Try again; if it keeps failing, check that the domain\'s name servers answer.')]);
  }
  let texts = found.status === 'found' ? found.value.map((strings) => strings.join('')) : [];
  for (const text of texts) records.push(txtRecord(`_dmarc.${name}`, [text]));
  let dmarcTexts = dmarcRecordsAt(texts);
  const others = texts.filter((text) => !dmarcTexts.includes(text));
  for (const text of others) {
    checks.push(/^\s*v\s*=\s*dmarc1/i.test(text) || /(^|;)\s*p\s*=/i.test(text)
      ? versionCheck(text, parseTagList(text).tags[0])
      : info('dmarc.record.other', 'Other TXT record ignored', `${quote(text)} at _dmarc.${name} is not a DMARC record; receivers ignore it.`));
  }

  let inherited = false;
  if (dmarcTexts.length === 0 && orgDomain !== name) {
    const fallback = await lookupTxt(dns, `_dmarc.${orgDomain}`);
    if (fallback.status === 'error') {
      return emptyInspection(name, [...checks, fail('dmarc.lookup.error', 'DMARC lookup failed', describeLookupError(`_dmarc.${orgDomain}`, fallback), 'Try again; if it keeps failing, check that the domain\'s name servers answer.')], records);
    }
    texts = fallback.status === 'found' ? fallback.value.map((strings) => strings.join('')) : [];
    dmarcTexts = dmarcRecordsAt(texts);
    if (dmarcTexts.length > 0) {
      inherited = true;
      recordDomain = orgDomain;
      for (const text of dmarcTexts) records.push(txtRecord(`_dmarc.${orgDomain}`, [text]));
      checks.push(info('dmarc.record.inherited', 'Policy inherited from the organizational domain',
        `${name} has no DMARC record of its own, so receivers apply the record of ${orgDomain} (its sp= policy) (RFC 7489 §6.6.3).`));
    }
  }

  if (dmarcTexts.length === 0) {
    checks.push(fail('dmarc.record.missing', 'No DMARC record',
      `There is no DMARC record at _dmarc.${name}${orgDomain !== name ? ` nor at _dmarc.${orgDomain}` : ''}: anyone can send mail as ${name} and receivers will not know to reject it.`,
      `Publish a TXT record at _dmarc.${name}: v=DMARC1; p=none; rua=mailto:dmarc-reports@${name} — then tighten p= once reports look clean.`));
    return { ...emptyInspection(name, checks, records), details: { domain: name, organizationalDomain: orgDomain, inherited: false, record: null, bimiReady: false } };
  }
  if (dmarcTexts.length > 1) {
    checks.push(fail('dmarc.record.multiple', 'Several DMARC records',
      `_dmarc.${recordDomain} has ${dmarcTexts.length} DMARC records; receivers then apply none of them (RFC 7489 §6.6.3).`,
      'Merge them into one TXT record and delete the others.'));
    return { ...emptyInspection(name, checks, records), details: { domain: name, organizationalDomain: orgDomain, recordDomain, inherited, record: null, bimiReady: false } };
  }

  const parsed = parseDmarc(dmarcTexts[0] ?? '');
  const record = parsed.record;
  checks.unshift(pass('dmarc.record.found', 'DMARC record found', `One DMARC record at _dmarc.${recordDomain}.`));
  checks.push(...parsed.checks);
  checks.push(...(await reportAuthorizationChecks(recordDomain, record, dns)));

  const policy = inherited ? (record.sp ?? record.p) : record.p;
  const readiness = checkBimiReadiness(record, { forSubdomain: inherited });
  checks.push(readiness.ready
    ? pass('dmarc.bimi.ready', 'Ready for BIMI', 'The policy is enforced on all mail, as BIMI requires.')
    : info('dmarc.bimi.not-ready', 'Not ready for BIMI',
      `BIMI logos need an enforced DMARC policy: ${readiness.checks.filter((check) => check.status !== 'pass').map((check) => check.detail).join(' ')}`,
      'Reach p=quarantine or p=reject with pct=100 (and no sp=none) before publishing a BIMI record.'));

  const ceiling = policy === 'reject' ? 100 : policy === 'quarantine' ? 90 : policy === 'none' ? 50 : 30;
  return {
    records,
    checks,
    score: scoreChecks(checks, ceiling),
    details: { domain: name, organizationalDomain: orgDomain, recordDomain, inherited, record, policy, bimiReady: readiness.ready },
  };
}

/**
 * RFC 7489 §7.1: reports for example.com may go to a mailbox at another organizational domain
 * only if that domain publishes `example.com._report._dmarc.<its domain>` starting v=DMARC1.
 */
async function reportAuthorizationChecks(policyDomain: string, record: DmarcRecord, dns: DnsResolver): Promise<Check[]> {
  const policyOrg = organizationalDomain(policyDomain);
  const targets = new Map<string, ('rua' | 'ruf')[]>();
  for (const tag of ['rua', 'ruf'] as const) {
    for (const uri of record[tag]) {
      if (!uri.domain || organizationalDomain(uri.domain) === policyOrg) continue;
      const tags = targets.get(uri.domain) ?? [];
      if (!tags.includes(tag)) tags.push(tag);
      targets.set(uri.domain, tags);
    }
  }
  const results = await Promise.all([...targets].map(async ([reportDomain, tags]) => {
    const name = `${policyDomain}._report._dmarc.${reportDomain}`;
    const answer = await lookupTxt(dns, name);
    const tagWords = tags.join(' and ');
    const id = tags[0] ?? 'rua';
    if (answer.status === 'error') {
      return warn(`dmarc.${id}.authorization-error`, 'Report authorization could not be checked',
        `${describeLookupError(name, answer)} Reports to ${reportDomain} (${tagWords}) need it.`, 'Check again later.');
    }
    const authorized = answer.status === 'found' && answer.value.some((strings) => /^v\s*=\s*DMARC1\b/.test(strings.join('').trim()));
    return authorized
      ? pass(`dmarc.${id}.authorized`, 'External report address authorized', `${reportDomain} accepts reports for ${policyDomain} (${name}).`)
      : fail(`dmarc.${id}.unauthorized`, 'External report address not authorized',
        `Reports (${tagWords}) go to ${reportDomain}, another domain, which does not publish ${name}: receivers will not send them there (RFC 7489 §7.1).`,
        `Ask the owner of ${reportDomain} (your report service) to publish a TXT record "v=DMARC1" at ${name}, or send reports to an address at ${policyOrg}.`);
  }));
  return results;
}
