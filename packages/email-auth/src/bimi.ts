import type { Check, DnsRecord } from './types';
import { absent, fail, info, pass, scoreChecks, txtRecord, unreachable, type Inspection } from './checks';
import { parseBimi, DEFAULT_BIMI_SELECTOR, type BimiRecord } from './bimi-record';
import { inspectDmarc, type DmarcDetails } from './dmarc';
import { checkBimiReadiness } from './dmarc-record';
import { describeLookupError, lookupTxt, type DnsResolver } from './dns';
import { isSelector, organizationalDomain, validateDomain } from './domain';
import { asText } from './input';
import { quote } from './tag-list';

/**
 * Looking up a domain's BIMI record and its DMARC prerequisites. The record text itself (parse,
 * checks, builder) is in bimi-record.ts, which the page loads without the Public Suffix List.
 */

// mfe-tools reads the record functions from here; they live in bimi-record.ts.
export { buildBimiRecord, parseBimi } from './bimi-record';

export interface BimiDetails {
  domain: string;
  selector: string;
  /** Where the record that applies was found: the domain or its organizational domain. */
  recordDomain?: string;
  inherited: boolean;
  record: BimiRecord | null;
  /** The DMARC inspection BIMI depends on. */
  dmarc?: DmarcDetails;
  dmarcReady: boolean;
}

function bimiRecordsAt(texts: string[]): string[] {
  return texts.filter((text) => parseBimi(text).isBimi);
}

/**
 * Looks up the BIMI record at `<selector>._bimi.<domain>` (falling back to the organizational
 * domain), checks it, and checks the DMARC prerequisites through inspectDmarc. Fetching the
 * logo and certificate is the caller's job (checkSvgTinyPs checks the logo text). Never throws.
 *
 * `onRecord` is called with the record as soon as the one BIMI record is found and read, before
 * the DMARC lookups end, so a caller can start fetching l= and a= at once; it is the record the
 * inspection's details will hold.
 *
 * Score: `scoreChecks` with a ceiling of 0 without a usable record (or when BIMI is declined),
 * 40 when DMARC does not meet BIMI's requirements (no receiver shows the logo), 70 without a
 * certificate (Gmail and Apple Mail do not show it).
 */
export async function inspectBimi(domain: string, options: { selector?: string; onRecord?: (record: BimiRecord) => void }, dns: DnsResolver): Promise<Inspection<BimiDetails>> {
  const valid = validateDomain(domain);
  const selector = (options?.selector ?? '').trim().toLowerCase() || DEFAULT_BIMI_SELECTOR;
  const empty = (checks: Check[], records: DnsRecord[] = []): Inspection<BimiDetails> => ({
    records,
    checks,
    score: 0,
    details: { domain: valid.ok ? valid.domain : asText(domain), selector, inherited: false, record: null, dmarcReady: false },
  });
  if (!valid.ok) return empty([fail('bimi.domain.invalid', 'Not a domain name', valid.error, 'Enter the domain in the From address, e.g. example.com.')]);
  if (!isSelector(selector)) {
    return empty([fail('bimi.selector.invalid', 'Not a selector', `${quote(selector, 40)} is not a BIMI selector.`, 'Leave the selector empty for "default", or enter one like "brand".')]);
  }
  const name = valid.domain;
  const orgDomain = organizationalDomain(name);
  // The record (and its fallback at the organizational domain) is looked up beside DMARC.
  const findRecord = async () => {
    let answer = await lookupTxt(dns, `${selector}._bimi.${name}`);
    let recordDomain = name;
    let texts = answer.status === 'found' ? answer.value.map((strings) => strings.join('')) : [];
    if (answer.status !== 'error' && bimiRecordsAt(texts).length === 0 && orgDomain !== name) {
      answer = await lookupTxt(dns, `${selector}._bimi.${orgDomain}`);
      texts = answer.status === 'found' ? answer.value.map((strings) => strings.join('')) : [];
      if (bimiRecordsAt(texts).length > 0) recordDomain = orgDomain;
    }
    const bimiTexts = answer.status === 'error' ? [] : bimiRecordsAt(texts);
    const parsed = bimiTexts.length === 1 ? parseBimi(bimiTexts[0] ?? '') : undefined;
    if (parsed) options.onRecord?.(parsed.record);
    return { answer, recordDomain, texts, bimiTexts, parsed };
  };
  const [{ answer, recordDomain, texts, bimiTexts, parsed }, dmarc] = await Promise.all([findRecord(), inspectDmarc(name, dns)]);
  const records: DnsRecord[] = [];
  const checks: Check[] = [];
  if (recordDomain !== name) {
    checks.push(
      info('bimi.record.inherited', 'Record inherited from the organizational domain', `${name} has no BIMI record of its own, so receivers use the one at ${selector}._bimi.${orgDomain}.`),
    );
  }
  const recordName = `${selector}._bimi.${recordDomain}`;
  if (answer.status === 'error') {
    return empty([
      unreachable('bimi.lookup.error', 'BIMI lookup failed', describeLookupError(recordName, answer), "Try again; if it keeps failing, check that the domain's name servers answer."),
    ]);
  }
  for (const text of texts) records.push(txtRecord(recordName, [text]));
  if (bimiTexts.length === 0) {
    const notFirst = texts.find((text) => /v\s*=\s*BIMI1/i.test(text));
    if (notFirst !== undefined) checks.push(...parseBimi(notFirst).checks);
    checks.push(
      absent(
        'bimi.record.missing',
        'No BIMI record',
        `There is no BIMI record at ${selector}._bimi.${name}${orgDomain !== name ? ` nor at ${selector}._bimi.${orgDomain}` : ''}.`,
        `Publish a TXT record at ${selector}._bimi.${name}: v=BIMI1; l=https://${name}/logo.svg; a=https://${name}/vmc.pem`,
      ),
    );
    return { ...empty(checks, records), details: { ...empty([]).details, dmarc: dmarc.details, dmarcReady: dmarc.details.bimiReady } };
  }
  if (!parsed) {
    checks.push(fail('bimi.record.multiple', 'Several BIMI records', `${recordName} has ${bimiTexts.length} BIMI records; receivers then use none.`, 'Keep one BIMI record per selector.'));
    return empty(checks, records);
  }
  checks.unshift(pass('bimi.record.found', 'BIMI record found', `One BIMI record at ${recordName}.`));
  checks.push(...parsed.checks);
  records.push(...dmarc.records);

  const prerequisites = await dmarcPrerequisites(name, orgDomain, dmarc, dns, checks);
  const dmarcReady = prerequisites === true;
  const ceiling =
    parsed.record.declined || parsed.checks.some((check) => check.status === 'fail')
      ? parsed.record.declined
        ? 0
        : 40
      : prerequisites === false
        ? 40
        : parsed.record.evidence === undefined
          ? 70
          : 100;
  return {
    records,
    checks,
    score: scoreChecks(checks, ceiling),
    details: { domain: name, selector, recordDomain, inherited: recordDomain !== name, record: parsed.record, dmarc: dmarc.details, dmarcReady },
  };
}

/**
 * BIMI needs DMARC enforced for the domain and, for a subdomain with its own DMARC record, at
 * the organizational domain too (the draft's §4.2 "Domain Owner" requirements). `unknown` when the
 * DMARC lookup failed: could not check is not "not ready" (issue 32).
 */
async function dmarcPrerequisites(domain: string, orgDomain: string, dmarc: Inspection<DmarcDetails>, dns: DnsResolver, checks: Check[]): Promise<boolean | 'unknown'> {
  if (dmarc.checks.some((check) => check.id === 'dmarc.lookup.error')) {
    checks.push(unreachable('bimi.dmarc.error', 'DMARC could not be checked', "The DMARC lookup failed, so BIMI's requirements could not be checked.", 'Try again in a minute.'));
    return 'unknown';
  }
  const readiness = checkBimiReadiness(dmarc.details.record, { forSubdomain: dmarc.details.inherited });
  checks.push(...readiness.checks);
  if (!readiness.ready || dmarc.details.inherited || domain === orgDomain) return readiness.ready;
  const org = await inspectDmarc(orgDomain, dns);
  if (org.checks.some((check) => check.id === 'dmarc.lookup.error')) {
    checks.push(
      unreachable('bimi.dmarc.error', 'DMARC could not be checked', `The DMARC lookup of ${orgDomain} failed, so BIMI's requirements could not be checked.`, 'Try again in a minute.'),
    );
    return 'unknown';
  }
  const orgReady = checkBimiReadiness(org.details.record).checks.find((check) => check.id === 'bimi.dmarc.policy');
  if (orgReady?.status === 'pass') return true;
  checks.push(
    fail(
      'bimi.dmarc.org-policy',
      'Organizational domain not enforced',
      `${domain} has its own enforced DMARC policy, but ${orgDomain} does not: BIMI needs both.`,
      `Set p=quarantine or p=reject in the DMARC record of ${orgDomain}.`,
    ),
  );
  return false;
}
