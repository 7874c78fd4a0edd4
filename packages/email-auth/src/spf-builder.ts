import * as z from 'zod/mini';
import { isDomainName, validateDomain } from './domain-name';
import { readInput } from './input';
import { SPF_LOOKUP_LIMIT } from './spf-limits';
import { domainSpecProblem, parseSpfTerm } from './spf-record';
import { quote } from './tag-list';
import { splitTxt } from './txt';

/** The SPF generator: a record from the sender lists a user picks, each value checked. */

/** What the SPF generator asks for; values are checked by buildSpfRecord, shapes by this schema. */
export const SpfRecordInput = z.object({
  domain: z.optional(z.string()),
  /** Domains whose SPF records to include (your mail providers). */
  includes: z.optional(z.array(z.string())),
  ip4: z.optional(z.array(z.string())),
  ip6: z.optional(z.array(z.string())),
  /** Authorize the domain's own A/AAAA and MX hosts. */
  a: z.optional(z.boolean()),
  mx: z.optional(z.boolean()),
  /** How to treat everyone else: `-` fail, `~` soft fail (default), `?` neutral. */
  all: z.optional(z.string()),
});
export type SpfRecordInput = z.infer<typeof SpfRecordInput>;

export interface BuiltSpfRecord {
  record: string;
  name: string;
  errors: string[];
  /** DNS lookups the record itself makes (its includes add their own). */
  lookups: number;
  /** The record cut into character-strings of at most 255 bytes, for DNS hosts that need them. */
  strings: string[];
}

/** Builds an SPF record from the generator's fields, validating each. Never throws. */
export function buildSpfRecord(input: SpfRecordInput): BuiltSpfRecord {
  const read = readInput(SpfRecordInput, input);
  if (!read.ok) return { record: '', name: '@', errors: read.errors, lookups: 0, strings: [] };
  const source = read.data;
  const errors: string[] = [];
  let name = '@';
  if (source.domain !== undefined && source.domain.trim() !== '') {
    const valid = validateDomain(source.domain);
    if (valid.ok) name = valid.domain;
    else errors.push(valid.error);
  }
  const list = (value: string[] | undefined) => (value ?? []).map((entry) => entry.trim()).filter((entry) => entry !== '');
  const terms = ['v=spf1'];
  if (source.a === true) terms.push('a');
  if (source.mx === true) terms.push('mx');
  for (const [kind, entries] of [
    ['ip4', list(source.ip4)],
    ['ip6', list(source.ip6)],
  ] as const) {
    for (const entry of entries) {
      const term = parseSpfTerm(`${kind}:${entry}`);
      if ('invalid' in term) errors.push(`${quote(entry, 40)} is not a valid ${kind === 'ip4' ? 'IPv4' : 'IPv6'} address or range.`);
      else terms.push(term.text);
    }
  }
  for (const entry of list(source.includes)) {
    const domain = entry.replace(/^include:/i, '').toLowerCase();
    // The parser's own rule (RFC 7208 §7.1), so what is built always parses back: no address-like names.
    if (isDomainName(domain) && !domainSpecProblem(domain, true)) terms.push(`include:${domain}`);
    else errors.push(`${quote(entry, 40)} is not a domain name to include.`);
  }
  const all = source.all ?? '~';
  if (!['-', '~', '?'].includes(all)) errors.push('Choose how to treat other servers: -all (fail), ~all (soft fail) or ?all (neutral).');
  terms.push(`${all}all`);
  const unique = [...new Set(terms)];
  const lookups = unique.filter((term) => term === 'a' || term === 'mx' || term.startsWith('include:')).length;
  if (lookups > SPF_LOOKUP_LIMIT) errors.push(`This record needs ${lookups} DNS lookups before counting the includes' own; the limit is ${SPF_LOOKUP_LIMIT}. Remove some includes.`);
  // Only v=spf1 and all is right for a domain that sends no mail, and then only with -all.
  if (errors.length === 0 && unique.length === 2 && all !== '-') errors.push('Add at least one sender (include, ip4, ip6, a or mx), or choose -all for a domain that sends no mail.');
  const record = errors.length > 0 ? '' : unique.join(' ');
  return { record, name, errors, lookups, strings: record ? splitTxt(record) : [] };
}
