import { absent, fail, pass, scoreChecks, txtRecord, unreachable, type Inspection } from './checks';
import { describeLookupError, lookupTxt, type DnsResolver } from './dns';
import { isSelector, validateDomain } from './domain-name';
import { asText } from './input';
import { COMMON_DKIM_SELECTORS, DKIM_MIN_RSA_BITS, parseDkim, type DkimParse, type DkimRecord } from './dkim-record';
import { quote } from './tag-list';
import type { Check, DnsRecord } from './types';

/**
 * DKIM inspection: the key record at `<selector>._domainkey.<domain>`, or the common selectors
 * tried in parallel. The record text (parse, key reading) is in dkim-record.ts, the generator in
 * dkim-builder.ts.
 */

// The page and the bff read every DKIM function from here.
export * from './dkim-record';
export { buildDkimRecord, DkimRecordInput, type BuiltDkimRecord } from './dkim-builder';

export interface DkimSelectorResult {
  selector: string;
  name: string;
  status: 'found' | 'none' | 'error';
  record?: DkimRecord;
  checks: Check[];
  score: number;
}

export interface DkimDetails {
  domain: string;
  /** The selectors looked up: the one given, or COMMON_DKIM_SELECTORS. */
  tried: string[];
  /** Selectors with a record (or a failed lookup), each with its own checks and score. */
  selectors: DkimSelectorResult[];
}

/**
 * Looks up DKIM keys of `domain`: the given selector, or every common selector in parallel, and
 * checks each record found. Never throws.
 *
 * Score: per selector `scoreChecks` with a ceiling of 0 for a missing, revoked or unreadable key
 * and 20 for RSA under 1024 bits; the inspection scores the given selector, or the best selector
 * found when searching (the key you sign with is the one that matters), 0 when none is found.
 */
export async function inspectDkim(domain: string, options: { selector?: string }, dns: DnsResolver): Promise<Inspection<DkimDetails>> {
  const valid = validateDomain(domain);
  if (!valid.ok) {
    return {
      records: [],
      checks: [fail('dkim.domain.invalid', 'Not a domain name', valid.error, 'Enter the domain in the From address, e.g. example.com.')],
      score: 0,
      details: { domain: asText(domain), tried: [], selectors: [] },
    };
  }
  const name = valid.domain;
  const given = options?.selector?.trim().toLowerCase();
  if (given !== undefined && given !== '' && !isSelector(given)) {
    return {
      records: [],
      checks: [
        fail(
          'dkim.selector.invalid',
          'Not a selector',
          `${quote(given, 40)} is not a DKIM selector: letters, digits, hyphens and underscores, in dot-separated parts.`,
          'Copy the s= value from the DKIM-Signature header of a message you sent.',
        ),
      ],
      score: 0,
      details: { domain: name, tried: [], selectors: [] },
    };
  }
  const tried = given ? [given] : [...COMMON_DKIM_SELECTORS];
  const results = await Promise.all(tried.map((selector) => inspectSelector(name, selector, dns)));
  const records = results.flatMap((result) => result.records);
  const shown = given ? results.map((result) => result.selector) : results.map((result) => result.selector).filter((result) => result.status !== 'none');
  const checks = shown.flatMap((result) => result.checks.map((check) => (given ? check : { ...check, title: `${result.selector}: ${check.title}` })));
  const details = { domain: name, tried, selectors: shown };

  if (!given && !shown.some((result) => result.status === 'found')) {
    const failed = results.filter((result) => result.selector.status === 'error').length;
    // Not one answer: each selector's failed lookup is said ("could not check"), and no "no key" (issue 32).
    if (failed === tried.length) return { records, checks, score: 0, details };
    checks.push(
      absent(
        'dkim.selector.not-found',
        'No DKIM key found under common selectors',
        `None of the ${tried.length} common selectors (${tried.slice(0, 6).join(', ')}, …) has a key at ${name}${failed ? `; ${failed} lookups failed` : ''}. Selectors cannot be listed, so yours may simply have another name.`,
        'Open a message you sent, find the DKIM-Signature header and enter its s= value as the selector.',
      ),
    );
    return { records, checks, score: 0, details };
  }
  const scores = shown.filter((result) => result.status === 'found').map((result) => result.score);
  const score = given ? (shown[0]?.score ?? 0) : Math.max(0, ...scores);
  return { records, checks, score, details };
}

async function inspectSelector(domain: string, selector: string, dns: DnsResolver): Promise<{ selector: DkimSelectorResult; records: DnsRecord[] }> {
  const name = `${selector}._domainkey.${domain}`;
  const answer = await lookupTxt(dns, name);
  if (answer.status === 'error') {
    const checks = [
      unreachable('dkim.lookup.error', 'DKIM lookup failed', describeLookupError(name, answer), "Try again; if it keeps failing, check that the domain's name servers answer."),
    ];
    return { selector: { selector, name, status: 'error', checks, score: 0 }, records: [] };
  }
  const texts = answer.status === 'found' ? answer.value.map((strings) => strings.join('')) : [];
  const records = answer.status === 'found' ? answer.value.map((strings) => txtRecord(name, strings)) : [];
  const parsed = texts.map(parseDkim).filter((result) => result.isDkim);
  if (parsed.length === 0) {
    const checks = [
      absent(
        'dkim.record.missing',
        'No DKIM key',
        `There is no DKIM key record at ${name}${texts.length ? ' (only other TXT records)' : ''}, so mail signed with selector ${selector} fails DKIM.`,
        'Publish the DKIM record your mail provider gives you at that name, or check the selector spelling (the s= of a DKIM-Signature header).',
      ),
    ];
    return { selector: { selector, name, status: 'none', checks, score: 0 }, records };
  }
  if (parsed.length > 1) {
    const checks = [
      fail(
        'dkim.record.multiple',
        'Several DKIM keys at one selector',
        `${name} has ${parsed.length} DKIM records; verifiers may pick either, so signatures fail at random.`,
        'Keep one key record per selector; use a new selector for a new key.',
      ),
    ];
    return { selector: { selector, name, status: 'found', record: parsed[0]?.record, checks, score: 0 }, records };
  }
  const only = parsed[0] as DkimParse;
  const checks = [pass('dkim.record.found', 'DKIM key found', `A DKIM key record at ${name}.`), ...only.checks];
  const key = only.record.key;
  const unusable = only.record.publicKey === undefined || only.record.publicKey === '' || (key !== undefined && !key.ok);
  const ceiling = unusable ? 0 : key?.ok && key.type === 'rsa' && key.bits < DKIM_MIN_RSA_BITS ? 20 : 100;
  return { selector: { selector, name, status: 'found', record: only.record, checks, score: scoreChecks(checks, ceiling) }, records };
}
