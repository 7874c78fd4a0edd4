import type { Check, DnsRecord } from './types';
import { absent, fail, info, pass, scoreChecks, txtRecord, unreachable, warn, type Inspection } from './checks';
import { describeLookupError, domainExists, lookupTxt, withTxtCache, type DnsResolver } from './dns';
import { checkBimiReadiness, parseDmarc, versionCheck, type DmarcPolicy, type DmarcRecord } from './dmarc-record';
import { organizationalDomain, validateDomain } from './domain';
import { asText } from './input';
import { listWords, parseTagList, quote } from './tag-list';

/**
 * Looking up a domain's DMARC policy (RFC 7489 §6.6.3): the record at `_dmarc.<domain>` or its
 * organizational domain's (Public Suffix List), and the report authorization records (§7.1).
 * The record text itself (parse, checks, builder, BIMI readiness) is in dmarc-record.ts, which
 * the page loads without the Public Suffix List.
 */

// mfe-tools reads the record functions from here; they live in dmarc-record.ts.
export { buildDmarcRecord, checkBimiReadiness, parseDmarc } from './dmarc-record';

/** What RFC 9989's DNS tree walk (§4.10) finds for a domain, beside RFC 7489's answer. */
export interface DmarcTreeWalk {
  /** The `_dmarc.` names asked, in order: the domain, then at most four ancestors. */
  queried: string[];
  /** Where the policy record that applies was found: the first one up the tree. */
  recordDomain?: string;
  /** The organizational domain by the walk: psd=n, one below psd=y, else the highest record found. */
  organizationalDomain: string;
  /** The policy applied to mail from the domain, after t=y; absent without a record. */
  policy?: DmarcPolicy;
  /** Which tag gave it: p at the domain itself, sp (or np for a name that does not exist) above it. */
  policyTag?: 'p' | 'sp' | 'np';
  /** t=y: the published policy is applied one level softer. */
  testing: boolean;
}

/** One question RFC 7489 and RFC 9989 answer differently for this domain. */
export interface DmarcDifference {
  aspect: 'organizational domain' | 'policy record' | 'policy';
  rfc7489: string;
  rfc9989: string;
}

export interface DmarcDetails {
  domain: string;
  organizationalDomain?: string;
  /** Where the record that applies was found: the domain itself or its organizational domain. */
  recordDomain?: string;
  /** True when the domain has no record and the organizational domain's applies. */
  inherited: boolean;
  record: DmarcRecord | null;
  /** The policy receivers apply to mail from `domain` by RFC 7489 (sp= when inherited, p=none for a record without a valid p= but with rua=). */
  policy?: DmarcPolicy;
  bimiReady: boolean;
  /** RFC 9989's answer (DNS tree walk, np, t, psd), when the lookups succeeded. */
  rfc9989?: DmarcTreeWalk;
  /** Where the two RFCs answer differently; empty when they agree. */
  differences?: DmarcDifference[];
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
export async function inspectDmarc(domain: string, resolver: DnsResolver): Promise<Inspection<DmarcDetails>> {
  const dns = withTxtCache(resolver);
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
    return emptyInspection(name, [
      unreachable('dmarc.lookup.error', 'DMARC lookup failed', describeLookupError(`_dmarc.${name}`, found), "Try again; if it keeps failing, check that the domain's name servers answer."),
    ]);
  }
  let texts = found.status === 'found' ? found.value.map((strings) => strings.join('')) : [];
  for (const text of texts) records.push(txtRecord(`_dmarc.${name}`, [text]));
  let dmarcTexts = dmarcRecordsAt(texts);
  const others = texts.filter((text) => !dmarcTexts.includes(text));
  for (const text of others) {
    checks.push(
      /^\s*v\s*=\s*dmarc1/i.test(text) || /(^|;)\s*p\s*=/i.test(text)
        ? versionCheck(text, parseTagList(text).tags[0])
        : info('dmarc.record.other', 'Other TXT record ignored', `${quote(text)} at _dmarc.${name} is not a DMARC record; receivers ignore it.`),
    );
  }

  let inherited = false;
  if (dmarcTexts.length === 0 && orgDomain !== name) {
    const fallback = await lookupTxt(dns, `_dmarc.${orgDomain}`);
    if (fallback.status === 'error') {
      return emptyInspection(
        name,
        [
          ...checks,
          unreachable(
            'dmarc.lookup.error',
            'DMARC lookup failed',
            describeLookupError(`_dmarc.${orgDomain}`, fallback),
            "Try again; if it keeps failing, check that the domain's name servers answer.",
          ),
        ],
        records,
      );
    }
    texts = fallback.status === 'found' ? fallback.value.map((strings) => strings.join('')) : [];
    dmarcTexts = dmarcRecordsAt(texts);
    if (dmarcTexts.length > 0) {
      inherited = true;
      recordDomain = orgDomain;
      for (const text of dmarcTexts) records.push(txtRecord(`_dmarc.${orgDomain}`, [text]));
      checks.push(
        info(
          'dmarc.record.inherited',
          'Policy inherited from the organizational domain',
          `${name} has no DMARC record of its own, so receivers apply the record of ${orgDomain} (its sp= policy) (RFC 7489 §6.6.3).`,
        ),
      );
    }
  }

  if (dmarcTexts.length === 0) {
    checks.push(
      absent(
        'dmarc.record.missing',
        'No DMARC record',
        `There is no DMARC record at _dmarc.${name}${orgDomain !== name ? ` nor at _dmarc.${orgDomain}` : ''}: anyone can send mail as ${name} and receivers will not know to reject it.`,
        `Publish a TXT record at _dmarc.${name}: v=DMARC1; p=none; rua=mailto:dmarc-reports@${name} — then tighten p= once reports look clean.`,
      ),
    );
    const details: DmarcDetails = { domain: name, organizationalDomain: orgDomain, inherited: false, record: null, bimiReady: false };
    await addRfc9989(details, checks, dns);
    return { ...emptyInspection(name, checks, records), details };
  }
  if (dmarcTexts.length > 1) {
    checks.push(
      fail(
        'dmarc.record.multiple',
        'Several DMARC records',
        `_dmarc.${recordDomain} has ${dmarcTexts.length} DMARC records; receivers then apply none of them (RFC 7489 §6.6.3).`,
        'Merge them into one TXT record and delete the others.',
      ),
    );
    return { ...emptyInspection(name, checks, records), details: { domain: name, organizationalDomain: orgDomain, recordDomain, inherited, record: null, bimiReady: false } };
  }

  const parsed = parseDmarc(dmarcTexts[0] ?? '');
  const record = parsed.record;
  checks.unshift(pass('dmarc.record.found', 'DMARC record found', `One DMARC record at _dmarc.${recordDomain}.`));
  const authorization = await reportAuthorizationChecks(recordDomain, record, dns);
  checks.push(...withoutUnauthorizedAddresses(parsed.checks, record, authorization.refused));
  checks.push(...authorization.checks);

  // RFC 7489 §6.6.3: a record without a valid p= (or with an invalid sp=) counts as p=none when rua= has a valid address.
  const fallback = record.fallback?.rfc7489 === 'none' ? 'none' : undefined;
  const policy = record.fallback ? fallback : inherited ? (record.sp ?? record.p) : record.p;
  const readiness = checkBimiReadiness(record, { forSubdomain: inherited });
  checks.push(
    readiness.ready
      ? pass('dmarc.bimi.ready', 'Ready for BIMI', 'The policy is enforced on all mail, as BIMI requires.')
      : info(
          'dmarc.bimi.not-ready',
          'Not ready for BIMI',
          `BIMI logos need an enforced DMARC policy: ${readiness.checks
            .filter((check) => check.status !== 'pass')
            .map((check) => check.detail)
            .join(' ')}`,
          'Reach p=quarantine or p=reject with pct=100 (and no sp=none) before publishing a BIMI record.',
        ),
  );

  const details: DmarcDetails = { domain: name, organizationalDomain: orgDomain, recordDomain, inherited, record, policy, bimiReady: readiness.ready };
  await addRfc9989(details, checks, dns);
  const ceiling = policy === 'reject' ? 100 : policy === 'quarantine' ? 90 : policy === 'none' ? 50 : 30;
  return { records, checks, score: scoreChecks(checks, ceiling), details };
}

/** RFC 9989's answer beside RFC 7489's, and a check saying whether they differ. */
async function addRfc9989(details: DmarcDetails, checks: Check[], dns: DnsResolver) {
  const walk = await treeWalk(details.domain, dns);
  if (!walk) return;
  details.rfc9989 = walk;
  details.differences = compareRfcs(details, walk);
  // Without a record anywhere both simply find none: nothing to add to "No DMARC record".
  if (details.differences.length > 0 || details.record) checks.push(differencesCheck(details.differences));
}

const SOFTER: Record<DmarcPolicy, DmarcPolicy> = { reject: 'quarantine', quarantine: 'none', none: 'none' };

/**
 * RFC 9989 §4.10: the `_dmarc` record of the domain, then of its ancestors: a domain of five or
 * more labels jumps to its last four, then one label is removed at a time down to the top-level
 * domain, so at most five names are asked. The first record found is the policy record; the
 * organizational domain is where psd=n is found, one label below psd=y, or else the highest
 * name with a record. Returns undefined when a lookup fails (the comparison is then left out).
 */
async function treeWalk(domain: string, dns: DnsResolver): Promise<DmarcTreeWalk | undefined> {
  const labels = domain.split('.');
  const targets = [domain];
  let rest = labels.length >= 5 ? labels.slice(-4) : labels.slice(1);
  while (rest.length > 0) {
    targets.push(rest.join('.'));
    rest = rest.slice(1);
  }
  const found: { name: string; record: DmarcRecord }[] = [];
  for (const target of targets) {
    const answer = await lookupTxt(dns, `_dmarc.${target}`);
    if (answer.status === 'error') return undefined;
    const texts = answer.status === 'found' ? dmarcRecordsAt(answer.value.map((strings) => strings.join(''))) : [];
    // Several records at one name are all discarded (§4.10 step 2).
    if (texts.length === 1) found.push({ name: target, record: parseDmarc(texts[0] ?? '').record });
  }
  const queried = targets.map((target) => `_dmarc.${target}`);
  let organizationalDomain = found.length > 0 ? (found[found.length - 1] as { name: string }).name : domain;
  for (const entry of found) {
    if (entry.record.psd === 'n') {
      organizationalDomain = entry.name;
      break;
    }
    if (entry.record.psd === 'y') {
      const depth = entry.name.split('.').length + 1;
      organizationalDomain = depth <= labels.length ? labels.slice(-depth).join('.') : domain;
      break;
    }
  }
  const first = found[0];
  if (!first) return { queried, organizationalDomain, testing: false };
  const own = first.name === domain;
  let policyTag: 'p' | 'sp' | 'np' = 'p';
  let published: DmarcPolicy = first.record.p ?? 'none';
  if (!own) {
    // np= applies to names that do not exist at all (NXDOMAIN); sp= to other subdomains.
    if (first.record.np && !(await domainExists(domain, dns))) {
      policyTag = 'np';
      published = first.record.np;
    } else if (first.record.sp) {
      policyTag = 'sp';
      published = first.record.sp;
    }
  }
  // A record without a valid p= (or with an invalid sp=) is applied as p=none (RFC 9989).
  if (first.record.fallback) published = 'none';
  const policy = first.record.testing ? SOFTER[published] : published;
  return { queried, recordDomain: first.name, organizationalDomain, policy, policyTag, testing: first.record.testing };
}

function compareRfcs(details: DmarcDetails, walk: DmarcTreeWalk): DmarcDifference[] {
  const differences: DmarcDifference[] = [];
  const org7489 = details.organizationalDomain ?? details.domain;
  if (org7489 !== walk.organizationalDomain) {
    differences.push({ aspect: 'organizational domain', rfc7489: `${org7489} (Public Suffix List)`, rfc9989: `${walk.organizationalDomain} (DNS tree walk)` });
  }
  const where = (name: string | undefined) => (name ? `_dmarc.${name}` : 'none found');
  if ((details.record ? details.recordDomain : undefined) !== walk.recordDomain) {
    differences.push({ aspect: 'policy record', rfc7489: where(details.record ? details.recordDomain : undefined), rfc9989: where(walk.recordDomain) });
  }
  const pct = details.record && details.record.pct < 100 && details.policy && details.policy !== 'none' ? ` on ${details.record.pct}% of failing mail` : '';
  const said7489 = details.policy ? `${details.policy}${pct}` : details.record ? 'no policy (record ignored)' : 'no policy';
  const said9989 = walk.policy ? `${walk.policy}${walk.testing ? ' (t=y: one level softer)' : ''}` : 'no policy';
  if (said7489 !== said9989) differences.push({ aspect: 'policy', rfc7489: said7489, rfc9989: said9989 });
  return differences;
}

function differencesCheck(differences: DmarcDifference[]): Check {
  if (differences.length === 0) {
    return info(
      'dmarc.rfc.agree',
      'RFC 7489 and RFC 9989 agree',
      'Receivers that follow the original DMARC (RFC 7489) and those that follow RFC 9989 find the same record and apply the same policy.',
    );
  }
  return info(
    'dmarc.rfc.differ',
    'RFC 7489 and RFC 9989 answer differently',
    `${differences.map((difference) => `${difference.aspect}: ${difference.rfc7489} by RFC 7489, ${difference.rfc9989} by RFC 9989`).join('; ')}. Receivers are moving to RFC 9989.`,
    'Make both agree: publish the record at the domain itself, give it a valid p=, and use t=y instead of pct.',
  );
}

/**
 * "Reports go to X" only names the addresses reports can reach: an address at a domain that has not
 * authorized them (`dmarc.*.unauthorized`, which says receivers will not send them there) is left out,
 * and the pass is dropped when no address is left, so the answer never says both.
 */
function withoutUnauthorizedAddresses(checks: readonly Check[], record: DmarcRecord, refused: ReadonlySet<string>): Check[] {
  if (refused.size === 0) return [...checks];
  return checks.flatMap((check) => {
    const tag = /^dmarc\.(rua|ruf)\.valid$/.exec(check.id)?.[1] as 'rua' | 'ruf' | undefined;
    if (!tag) return [check];
    const reachable = record[tag].filter((uri) => uri.valid && !(uri.domain && refused.has(uri.domain)));
    if (reachable.length === 0) return [];
    const kind = tag === 'rua' ? 'Aggregate' : 'Failure';
    return [{ ...check, detail: `${kind} reports go to ${listWords(reachable.map((uri) => uri.address ?? uri.uri))}.` }];
  });
}

/**
 * External report domains whose authorization one inspection looks up: a lookup each, so a record
 * naming hundreds (about 200 fit in a 4 KB answer) made as many DNS queries on one anonymous
 * request. Real records name one to three.
 */
export const REPORT_DOMAINS_CHECKED = 10;

/**
 * RFC 7489 §7.1: reports for example.com may go to a mailbox at another organizational domain
 * only if that domain publishes `example.com._report._dmarc.<its domain>` starting v=DMARC1.
 */
async function reportAuthorizationChecks(policyDomain: string, record: DmarcRecord, dns: DnsResolver): Promise<{ checks: Check[]; refused: Set<string> }> {
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
  const refused = new Set<string>();
  const unchecked = targets.size - REPORT_DOMAINS_CHECKED;
  const results = await Promise.all(
    [...targets].slice(0, REPORT_DOMAINS_CHECKED).map(async ([reportDomain, tags]) => {
      const name = `${policyDomain}._report._dmarc.${reportDomain}`;
      const answer = await lookupTxt(dns, name);
      const tagWords = tags.join(' and ');
      const id = tags[0] ?? 'rua';
      if (answer.status === 'error') {
        return unreachable(
          `dmarc.${id}.authorization-error`,
          'Report authorization could not be checked',
          `${describeLookupError(name, answer)} Reports to ${reportDomain} (${tagWords}) need it.`,
          'Try again in a minute.',
        );
      }
      const authorized = answer.status === 'found' && answer.value.some((strings) => /^v\s*=\s*DMARC1\b/.test(strings.join('').trim()));
      if (!authorized) refused.add(reportDomain);
      return authorized
        ? pass(`dmarc.${id}.authorized`, 'External report address authorized', `${reportDomain} accepts reports for ${policyDomain} (${name}).`)
        : warn(
            `dmarc.${id}.unauthorized`,
            'External report address not authorized',
            `Reports (${tagWords}) go to ${reportDomain}, another domain, which does not publish ${name}: receivers will not send them there (RFC 7489 §7.1).`,
            `Ask the owner of ${reportDomain} (your report service) to publish a TXT record "v=DMARC1" at ${name}, or send reports to an address at ${policyOrg}.`,
          );
    }),
  );
  if (unchecked > 0) {
    results.push(
      info(
        'dmarc.report-domains.unchecked',
        'Some report addresses not checked',
        `Reports go to ${targets.size} other domains; the authorization of the first ${REPORT_DOMAINS_CHECKED} was checked, not that of the other ${unchecked}.`,
      ),
    );
  }
  return { checks: results, refused };
}
