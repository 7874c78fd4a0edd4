import type { Check, DnsRecord } from '@bimi/contracts/tools';
import ipaddr from 'ipaddr.js';
import * as z from 'zod/mini';
import { fail, info, pass, scoreChecks, txtRecord, warn, type Inspection } from './checks';
import { describeLookupError, lookup, type DnsResolver, type Lookup } from './dns';
import { isDomainName, validateDomain } from './domain-name';
import { asText, readInput } from './input';
import { listWords, quote } from './tag-list';
import { byteLength, splitTxt, TXT_STRING_LIMIT } from './txt';
import { SPF_LOOKUP_LIMIT, SPF_RECORD_SIZE_LIMIT, SPF_VOID_LOOKUP_LIMIT } from './spf-limits';

/** SPF (RFC 7208): the record at the domain itself, and every record it includes or redirects to. */

export type SpfQualifier = '+' | '-' | '~' | '?';
export const SPF_MECHANISMS = ['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists'] as const;
export type SpfMechanismName = (typeof SPF_MECHANISMS)[number];

export interface SpfMechanism {
  kind: 'mechanism';
  qualifier: SpfQualifier;
  name: SpfMechanismName;
  /** The domain-spec (include, a, mx, ptr, exists) or network (ip4, ip6) after the colon. */
  value?: string;
  cidr4?: number;
  cidr6?: number;
  text: string;
}

export interface SpfModifier {
  kind: 'modifier';
  name: string;
  value: string;
  text: string;
}

export type SpfTerm = SpfMechanism | SpfModifier;

export interface SpfRecord {
  text: string;
  terms: SpfTerm[];
  /** Terms that are neither a mechanism nor a modifier: each makes the record a permerror. */
  invalid: { text: string; reason: string }[];
  all?: SpfMechanism;
  redirect?: string;
  exp?: string;
}

export interface SpfParse {
  /** Whether the text is an SPF record at all: it starts with v=spf1. */
  isSpf: boolean;
  record: SpfRecord;
  /** Findings about the text alone; inspectSpf adds those that need DNS (lookup count, includes). */
  checks: Check[];
}

/** The terms that make a DNS query when evaluated (RFC 7208 §4.6.4), limited to 10 per check. */
const QUERYING_TERMS = new Set(['include', 'a', 'mx', 'ptr', 'exists', 'redirect']);

const SPF_VERSION = /^v=spf1(?: |$)/i;
const MACRO = /%\{[slodiphcrtv]\d*r?[.\-+,/_=]*\}|%%|%_|%-/gi;

export function isSpfText(text: string): boolean {
  return SPF_VERSION.test(text);
}


/** Whether a domain-spec holds macros (RFC 7208 §7), which only a live evaluation can expand. */
export function hasMacro(spec: string): boolean {
  return spec.includes('%');
}

function domainSpecProblem(spec: string | undefined, required: boolean): string | null {
  if (spec === undefined || spec === '') return required ? 'needs a domain after the colon' : null;
  if (hasMacro(spec)) {
    return spec.replace(MACRO, 'x').includes('%') ? `has a broken macro in ${quote(spec, 40)}` : null;
  }
  return isDomainName(spec) ? null : `${quote(spec, 40)} is not a domain name`;
}

function parseTerm(text: string): SpfTerm | { invalid: string } {
  const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(text);
  if (modifier) {
    const name = (modifier[1] ?? '').toLowerCase();
    const value = modifier[2] ?? '';
    if ((name === 'redirect' || name === 'exp') && domainSpecProblem(value, true)) {
      return { invalid: `${name}= ${domainSpecProblem(value, true)}` };
    }
    return { kind: 'modifier', name, value, text };
  }
  const mechanism = /^([+\-~?]?)([a-z0-9]+)(.*)$/i.exec(text);
  const name = mechanism?.[2]?.toLowerCase() as SpfMechanismName | undefined;
  if (!mechanism || !name || !SPF_MECHANISMS.includes(name)) {
    return { invalid: `${quote(text, 40)} is not an SPF mechanism (${SPF_MECHANISMS.join(', ')}) or modifier` };
  }
  const qualifier = (mechanism[1] || '+') as SpfQualifier;
  const rest = mechanism[3] ?? '';
  const term: SpfMechanism = { kind: 'mechanism', qualifier, name, text };
  if (rest !== '' && !rest.startsWith(':') && !rest.startsWith('/')) return { invalid: `${quote(text, 40)} is not an SPF mechanism` };

  switch (name) {
    case 'all':
      return rest === '' ? term : { invalid: `"all" takes no value (${quote(text, 40)})` };
    case 'include':
    case 'exists': {
      const problem = rest.startsWith(':') ? domainSpecProblem(rest.slice(1), true) : 'needs a domain after a colon';
      return problem ? { invalid: `${name} ${problem}` } : { ...term, value: rest.slice(1) };
    }
    case 'ptr': {
      if (rest.startsWith('/')) return { invalid: 'ptr takes no prefix length' };
      const problem = domainSpecProblem(rest.slice(1), rest.startsWith(':'));
      return problem ? { invalid: `ptr ${problem}` } : { ...term, value: rest ? rest.slice(1) : undefined };
    }
    case 'a':
    case 'mx': {
      const cidr = /^(.*?)(?:\/(\d{1,3}))?(?:\/\/(\d{1,3}))?$/.exec(rest);
      const spec = cidr?.[1] ?? '';
      const cidr4 = cidr?.[2] === undefined ? undefined : Number(cidr[2]);
      const cidr6 = cidr?.[3] === undefined ? undefined : Number(cidr[3]);
      if (spec !== '' && !spec.startsWith(':')) return { invalid: `${quote(text, 40)} has a malformed prefix length` };
      const problem = domainSpecProblem(spec.slice(1), spec.startsWith(':'));
      if (problem) return { invalid: `${name} ${problem}` };
      if ((cidr4 ?? 0) > 32 || (cidr6 ?? 0) > 128) return { invalid: `${quote(text, 40)}: prefix lengths are at most /32 (IPv4) and //128 (IPv6)` };
      return { ...term, value: spec ? spec.slice(1) : undefined, cidr4, cidr6 };
    }
    case 'ip4':
    case 'ip6': {
      const network = rest.slice(1);
      const [address = '', prefix, ...extra] = network.split('/');
      const max = name === 'ip4' ? 32 : 128;
      const validAddress = name === 'ip4' ? ipaddr.IPv4.isValidFourPartDecimal(address) : ipaddr.IPv6.isValid(address) && !address.includes('%');
      if (!rest.startsWith(':') || !validAddress) return { invalid: `${quote(text, 40)} is not a valid ${name === 'ip4' ? 'IPv4' : 'IPv6'} address` };
      if (extra.length > 0 || (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max))) {
        return { invalid: `${quote(text, 40)}: the prefix length must be /0 to /${max}` };
      }
      const length = prefix === undefined ? undefined : Number(prefix);
      return name === 'ip4' ? { ...term, value: address, cidr4: length } : { ...term, value: address, cidr6: length };
    }
  }
}

/** Parses one SPF record and checks what the text alone shows. Never throws. */
export function parseSpf(text: string): SpfParse {
  const source = asText(text);
  const record: SpfRecord = { text: source, terms: [], invalid: [] };
  if (!isSpfText(source)) {
    return {
      isSpf: false,
      record,
      checks: [fail('spf.version', 'Not an SPF record', `An SPF record starts with v=spf1 followed by a space; this one starts ${quote(source, 20)}.`,
        'Start the record with v=spf1, e.g. v=spf1 include:_spf.example.com ~all')],
    };
  }
  // Terms are separated by spaces only (RFC 7208 §12); a tab stays inside a term and makes it invalid.
  for (const piece of source.slice(6).split(' ')) {
    if (piece === '') continue;
    const term = parseTerm(piece);
    if ('invalid' in term) record.invalid.push({ text: piece, reason: term.invalid });
    else record.terms.push(term);
  }
  record.all = record.terms.find((term): term is SpfMechanism => term.kind === 'mechanism' && term.name === 'all');
  record.redirect = record.terms.find((term) => term.kind === 'modifier' && term.name === 'redirect')?.value;
  record.exp = record.terms.find((term) => term.kind === 'modifier' && term.name === 'exp')?.value;
  return { isSpf: true, record, checks: validateSpfTerms(record) };
}

function validateSpfTerms(record: SpfRecord): Check[] {
  const checks: Check[] = [];
  if (record.invalid.length > 0) {
    checks.push(fail('spf.syntax.term', 'Invalid terms', `${record.invalid.map((term) => `${term.reason}.`).join(' ')} One invalid term makes receivers treat the whole record as an error (permerror, RFC 7208 §4.6).`,
      'Correct or remove the invalid terms; mechanisms are written like include:example.com, ip4:192.0.2.0/24, a, mx, -all.'));
  }
  for (const name of ['redirect', 'exp']) {
    if (record.terms.filter((term) => term.kind === 'modifier' && term.name === name).length > 1) {
      checks.push(fail(`spf.${name}.duplicate`, `${name}= appears twice`, `An SPF record may have one ${name}= only (RFC 7208 §6).`, `Keep a single ${name}= modifier.`));
    }
  }

  const allIndex = record.all ? record.terms.indexOf(record.all) : -1;
  if (record.all) {
    const { qualifier } = record.all;
    if (qualifier === '+') {
      checks.push(fail('spf.all.pass', 'Anyone may send as this domain', '+all (or a bare "all") authorizes every server on the Internet.', 'End the record with ~all or -all instead.'));
    } else if (qualifier === '?') {
      checks.push(warn('spf.all.neutral', 'Neutral ending (?all)', '?all says nothing about servers not listed, so SPF gives no protection.', 'End the record with ~all (soft fail) or -all (fail).'));
    } else {
      checks.push(pass(qualifier === '-' ? 'spf.all.fail' : 'spf.all.softfail', `Ends with ${qualifier}all`,
        qualifier === '-' ? 'Servers not listed fail SPF.' : 'Servers not listed soft-fail SPF; with DMARC at quarantine or reject this is enough.'));
    }
    const after = record.terms.slice(allIndex + 1).filter((term) => !(term.kind === 'modifier' && term.name !== 'redirect'));
    if (after.length > 0) {
      checks.push(warn('spf.all.after', 'Terms after "all" are ignored',
        `${listWords(after.map((term) => term.text))} come${after.length === 1 ? 's' : ''} after ${record.all.text}, so receivers never look at ${after.length === 1 ? 'it' : 'them'}${record.redirect ? '; redirect= is ignored whenever the record has an all' : ''}.`,
        'Move these terms before "all" (which must be last), or remove them.'));
    } else if (record.redirect) {
      checks.push(warn('spf.redirect.ignored', 'redirect= is ignored', 'A record with "all" never follows its redirect= (RFC 7208 §6.1).', 'Remove either the all mechanism or the redirect= modifier.'));
    }
  } else if (record.redirect) {
    checks.push(pass('spf.all.redirect', 'Ends with a redirect', `The record continues at ${record.redirect}, whose "all" applies.`));
  } else {
    checks.push(warn('spf.all.missing', 'No "all" at the end', 'Without an all mechanism, servers that are not listed get a neutral result: SPF protects nothing.', 'End the record with ~all or -all.'));
  }

  const ptr = record.terms.filter((term) => term.kind === 'mechanism' && term.name === 'ptr');
  if (ptr.length > 0) {
    checks.push(warn('spf.ptr', 'Uses the ptr mechanism', 'ptr is slow, unreliable and "SHOULD NOT be used" (RFC 7208 §5.5); many receivers skip it.', 'Replace ptr with ip4:/ip6: ranges or a/mx for your servers.'));
  }
  const broad = record.terms.filter((term) => term.kind === 'mechanism' && term.qualifier !== '-' && ((term.name === 'ip4' && (term.cidr4 ?? 32) < 8) || (term.name === 'ip6' && (term.cidr6 ?? 128) < 16)));
  if (broad.length > 0) {
    checks.push(fail('spf.ip.too-broad', 'Address range far too wide', `${listWords(broad.map((term) => term.text))} authorizes a large part of the Internet.`, 'List only the addresses of servers that send your mail.'));
  }
  const macros = record.terms.filter((term) => hasMacro(term.kind === 'mechanism' ? (term.value ?? '') : term.value));
  if (macros.length > 0) {
    checks.push(info('spf.macros', 'Uses macros', `${listWords(macros.map((term) => term.text))} expand${macros.length === 1 ? 's' : ''} per message, so the checker cannot follow ${macros.length === 1 ? 'it' : 'them'}.`));
  }
  const size = byteLength(record.text);
  if (size > SPF_RECORD_SIZE_LIMIT) {
    checks.push(warn('spf.record.size', 'Record is long', `The record is ${size} bytes; over ${SPF_RECORD_SIZE_LIMIT} the DNS answer may not fit in one UDP packet (RFC 7208 §3.4).`,
      'Shorten it: replace long ip4/ip6 lists with an include: of a record you host, or remove unused senders.'));
  }
  return checks;
}

/** One record in the include/redirect tree, for display. */
export interface SpfNode {
  domain: string;
  via: 'root' | 'include' | 'redirect';
  /** The qualifier on the include: that reached this node. */
  qualifier?: SpfQualifier;
  /** The SPF record found, as published (strings joined). */
  record?: string;
  /** DNS-querying terms in this record itself. */
  lookups: number;
  /** Queries that found nothing (RFC 7208 §4.6.4 void lookups) made for this record's terms. */
  voidLookups: number;
  children: SpfNode[];
  /** Why this branch stops: no record, several, a DNS failure, a loop, invalid terms, or the walk's own bounds. */
  problem?: 'missing' | 'multiple' | 'dns-error' | 'loop' | 'invalid' | 'macro' | 'truncated';
}

export interface SpfDetails {
  domain: string;
  record?: string;
  tree?: SpfNode;
  /** DNS-querying terms across the whole tree (limit 10). */
  lookups: number;
  voidLookups: number;
  /** True when the walk stopped at its bounds, so `lookups` is a lower bound. */
  truncated: boolean;
}

/** Bounds of one inspection, so a hostile or broken tree cannot keep the checker busy. */
const MAX_RECORDS = 40;
const MAX_QUERIES = 120;
const MAX_DEPTH = 12;

interface Walk {
  dns: DnsResolver;
  cache: Map<string, Promise<Lookup<unknown>>>;
  queries: number;
  records: number;
  lookups: number;
  voidLookups: number;
  truncated: boolean;
  /** Where evaluation would stop with permerror: the 11th DNS-querying term. */
  limitExceededAt?: string;
  checks: Check[];
  dnsRecords: DnsRecord[];
}

/** A cached, budgeted query: the same name asked twice costs one query; past the budget, none. */
function query<T>(walk: Walk, key: string, run: () => Promise<T>): Promise<Lookup<T>> | null {
  const cached = walk.cache.get(key);
  if (cached) return cached as Promise<Lookup<T>>;
  if (walk.queries >= MAX_QUERIES) {
    walk.truncated = true;
    return null;
  }
  walk.queries += 1;
  const pending = lookup(run);
  walk.cache.set(key, pending);
  return pending;
}

const txtQuery = (walk: Walk, name: string) => query(walk, `TXT ${name}`, () => walk.dns.resolveTxt(name));

/**
 * Looks up the SPF record of `domain` and walks its include/redirect tree through `dns`:
 * lookup count (limit 10), void lookups (limit 2), loops, missing or several records, string
 * and record sizes. The tree comes back in details for display. Never throws; terminates on
 * cyclic or huge trees (bounded records, queries and depth).
 *
 * Score: `scoreChecks` with a ceiling of 0 without a usable record, 20 with +all, 30 when
 * evaluation ends in permerror (too many lookups, void lookups, loops, invalid terms).
 */
export async function inspectSpf(domain: string, dns: DnsResolver): Promise<Inspection<SpfDetails>> {
  const valid = validateDomain(domain);
  const empty: SpfDetails = { domain: asText(domain), lookups: 0, voidLookups: 0, truncated: false };
  if (!valid.ok) {
    return { records: [], checks: [fail('spf.domain.invalid', 'Not a domain name', valid.error, 'Enter the domain you send mail from, e.g. example.com.')], score: 0, details: empty };
  }
  const name = valid.domain;
  const walk: Walk = { dns, cache: new Map(), queries: 0, records: 0, lookups: 0, voidLookups: 0, truncated: false, checks: [], dnsRecords: [] };
  const tree = await walkRecord(walk, name, 'root', undefined, []);
  const rootProblem = tree.problem;
  if (rootProblem === 'missing' || rootProblem === 'multiple' || rootProblem === 'dns-error') {
    return { records: walk.dnsRecords, checks: walk.checks, score: 0, details: { ...empty, domain: name, record: tree.record, tree } };
  }

  const checks = walk.checks;
  const count = `${walk.lookups}${walk.truncated ? ' or more' : ''}`;
  if (walk.lookups > SPF_LOOKUP_LIMIT) {
    checks.push(fail('spf.lookups.limit', 'Too many DNS lookups',
      `Checking this SPF record takes ${count} DNS lookups (include, a, mx, ptr, exists, redirect); the limit is ${SPF_LOOKUP_LIMIT}, so receivers stop at ${walk.limitExceededAt} with a permanent error and SPF fails for all your mail (RFC 7208 §4.6.4).`,
      'Remove includes of services you no longer use, replace a/mx with ip4:/ip6: ranges, or flatten nested includes into address ranges.'));
  } else if (walk.lookups >= SPF_LOOKUP_LIMIT - 1) {
    checks.push(warn('spf.lookups.near-limit', 'Close to the DNS lookup limit', `Checking this record takes ${count} of the ${SPF_LOOKUP_LIMIT} DNS lookups allowed; one more include breaks SPF.`,
      'Free some room: remove unused includes or replace a/mx with ip4:/ip6: ranges.'));
  } else if (!checks.some((check) => check.id === 'spf.syntax.term')) {
    // An invalid record is never evaluated, so its lookup count means nothing.
    checks.push(pass('spf.lookups', 'DNS lookups within the limit', `Checking this record takes ${count} of the ${SPF_LOOKUP_LIMIT} DNS lookups allowed.`));
  }
  if (walk.voidLookups > SPF_VOID_LOOKUP_LIMIT) {
    checks.push(fail('spf.void.limit', 'Too many lookups that find nothing',
      `${walk.voidLookups} lookups find no record; over ${SPF_VOID_LOOKUP_LIMIT}, receivers return a permanent error (RFC 7208 §4.6.4).`,
      'Remove includes, a, mx or exists terms that point at names without records.'));
  } else if (walk.voidLookups > 0) {
    checks.push(warn('spf.void.lookups', 'Lookups that find nothing', `${walk.voidLookups} lookup${walk.voidLookups === 1 ? ' finds' : 's find'} no record (at most ${SPF_VOID_LOOKUP_LIMIT} allowed).`,
      'Remove terms that point at names without records.'));
  }
  if (walk.truncated) {
    checks.push(info('spf.tree.truncated', 'Tree only partly followed', `The include tree is larger than this checker follows (${MAX_RECORDS} records, ${MAX_QUERIES} queries, depth ${MAX_DEPTH}); counts are lower bounds.`,
      'Simplify the record: nested includes this deep are far beyond the lookup limit anyway.'));
  }

  const permerror = checks.some((check) => check.status === 'fail' && ['spf.lookups.limit', 'spf.void.limit', 'spf.loop', 'spf.syntax.term', 'spf.include.missing', 'spf.include.multiple', 'spf.include.invalid', 'spf.redirect.missing', 'spf.redirect.duplicate', 'spf.mx.too-many'].includes(check.id));
  const ceiling = permerror ? 30 : checks.some((check) => check.id === 'spf.all.pass') ? 20 : 100;
  return {
    records: walk.dnsRecords,
    checks,
    score: scoreChecks(checks, ceiling),
    details: { domain: name, record: tree.record, tree, lookups: walk.lookups, voidLookups: walk.voidLookups, truncated: walk.truncated },
  };
}

async function walkRecord(walk: Walk, domain: string, via: SpfNode['via'], qualifier: SpfQualifier | undefined, path: string[]): Promise<SpfNode> {
  const node: SpfNode = { domain, via, qualifier, lookups: 0, voidLookups: 0, children: [] };
  const root = via === 'root';
  const where = root ? domain : `${domain} (reached by ${via} from ${path[path.length - 1] ?? ''})`;
  if (path.includes(domain)) {
    node.problem = 'loop';
    walk.checks.push(fail('spf.loop', 'Include loop', `${[...path, domain].join(' → ')}: the record includes itself, which receivers treat as a permanent error.`,
      `Remove the ${via} of ${domain} from ${path[path.length - 1]}.`));
    return node;
  }
  if (walk.records >= MAX_RECORDS || path.length >= MAX_DEPTH) {
    node.problem = 'truncated';
    walk.truncated = true;
    return node;
  }
  walk.records += 1;
  const pending = txtQuery(walk, domain);
  if (!pending) {
    node.problem = 'truncated';
    return node;
  }
  const answer = await pending;
  if (answer.status === 'error') {
    node.problem = 'dns-error';
    walk.checks.push(fail(root ? 'spf.lookup.error' : `spf.${via}.error`, 'SPF lookup failed', `${describeLookupError(domain, answer)}${root ? '' : ` Receivers get a temporary error (temperror) for ${where}.`}`,
      'Try again; if it keeps failing, check that the name servers answer.'));
    return node;
  }
  const spfRecords = answer.status === 'found' ? answer.value.filter((strings) => isSpfText(strings.join(''))) : [];
  if (spfRecords.length === 0) {
    node.problem = 'missing';
    if (!root) walk.voidLookups += answer.status === 'none' ? 1 : 0;
    walk.checks.push(root
      ? fail('spf.record.missing', 'No SPF record', `${domain} publishes no TXT record starting with v=spf1, so receivers cannot tell which servers may send its mail.`,
        `Publish a TXT record at ${domain} listing your senders, e.g. v=spf1 include:_spf.your-provider.example ~all — or "v=spf1 -all" if the domain sends no mail.`)
      : fail(`spf.${via}.missing`, `${via === 'include' ? 'Included' : 'Redirect'} domain has no SPF record`, `${where} publishes no SPF record; receivers treat that as a permanent error (RFC 7208 §5.2, §6.1).`,
        `Fix or remove the ${via === 'include' ? 'include:' : 'redirect='}${domain} term.`));
    return node;
  }
  if (spfRecords.length > 1) {
    node.problem = 'multiple';
    for (const strings of spfRecords) walk.dnsRecords.push(txtRecord(domain, strings));
    walk.checks.push(fail(root ? 'spf.record.multiple' : 'spf.include.multiple', 'Several SPF records', `${where} has ${spfRecords.length} SPF records; receivers then return a permanent error (RFC 7208 §4.5).`,
      'Merge them into one TXT record starting with v=spf1 and delete the others.'));
    return node;
  }
  const strings = spfRecords[0] ?? [];
  node.record = strings.join('');
  walk.dnsRecords.push(txtRecord(domain, strings));
  const longStrings = strings.filter((text) => byteLength(text) > TXT_STRING_LIMIT);
  if (longStrings.length > 0) {
    walk.checks.push(fail('spf.txt.string-length', 'TXT string over 255 bytes', `A single DNS character-string holds at most ${TXT_STRING_LIMIT} bytes; ${where} has one of ${byteLength(longStrings[0] ?? '')}.`,
      'Publish the record as several quoted strings of at most 255 bytes each ("v=spf1 … " "… ~all"); receivers join them.'));
  }
  const parsed = parseSpf(node.record);
  if (root) {
    walk.checks.unshift(pass('spf.record.found', 'SPF record found', `One SPF record at ${domain}.`));
    walk.checks.push(...parsed.checks);
  } else if (parsed.record.invalid.length > 0) {
    node.problem = 'invalid';
    walk.checks.push(fail('spf.include.invalid', 'Invalid included record', `${where}: ${parsed.record.invalid.map((term) => term.reason).join('; ')}. That makes the whole check a permanent error.`,
      `Ask whoever runs ${domain} to fix it, or stop including it.`));
  }
  if (parsed.record.invalid.length > 0) return node;

  // Evaluation reads terms in order and stops at "all"; redirect applies only without "all".
  const allIndex = parsed.record.all ? parsed.record.terms.indexOf(parsed.record.all) : -1;
  const evaluated = allIndex < 0 ? parsed.record.terms : parsed.record.terms.slice(0, allIndex);
  const mechanisms = evaluated.filter((term): term is SpfMechanism => term.kind === 'mechanism' && QUERYING_TERMS.has(term.name));
  // Start every query this record needs at once; the walk below then reads them in order.
  for (const term of mechanisms) prefetch(walk, term, domain);
  if (allIndex < 0 && parsed.record.redirect && !hasMacro(parsed.record.redirect)) txtQuery(walk, parsed.record.redirect.toLowerCase());

  const nextPath = [...path, domain];
  for (const term of mechanisms) {
    countLookup(walk, node, `${term.text} in ${domain}`);
    const target = (term.value ?? domain).toLowerCase();
    if (term.value && hasMacro(term.value)) {
      if (term.name === 'include') node.children.push(macroNode(term.value, 'include', term.qualifier));
      continue;
    }
    if (term.name === 'include') {
      node.children.push(await walkRecord(walk, target, 'include', term.qualifier, nextPath));
    } else if (term.name === 'a' || term.name === 'mx' || term.name === 'exists') {
      await checkAddressTerm(walk, node, term, target, where);
    }
  }
  if (allIndex < 0 && parsed.record.redirect) {
    countLookup(walk, node, `redirect=${parsed.record.redirect} in ${domain}`);
    node.children.push(hasMacro(parsed.record.redirect)
      ? macroNode(parsed.record.redirect, 'redirect', undefined)
      : await walkRecord(walk, parsed.record.redirect.toLowerCase(), 'redirect', undefined, nextPath));
  }
  return node;
}

/** An include or redirect whose target depends on each message (macros): shown, not followed. */
function macroNode(target: string, via: SpfNode['via'], qualifier: SpfQualifier | undefined): SpfNode {
  return { domain: target, via, qualifier, lookups: 0, voidLookups: 0, children: [], problem: 'macro' };
}

function countLookup(walk: Walk, node: SpfNode, what: string) {
  walk.lookups += 1;
  node.lookups += 1;
  if (walk.lookups === SPF_LOOKUP_LIMIT + 1) walk.limitExceededAt = what;
}

function prefetch(walk: Walk, term: SpfMechanism, domain: string) {
  if (term.value && hasMacro(term.value)) return;
  const target = (term.value ?? domain).toLowerCase();
  if (term.name === 'include') txtQuery(walk, target);
  else if (term.name === 'mx') query(walk, `MX ${target}`, () => walk.dns.resolveMx(target));
  else if (term.name === 'a' || term.name === 'exists') query(walk, `A ${target}`, () => walk.dns.resolve4(target));
}

/** a, mx and exists: a name with no address (or no MX) is a void lookup; MX over 10 is a permerror. */
async function checkAddressTerm(walk: Walk, node: SpfNode, term: SpfMechanism, target: string, where: string) {
  if (term.name === 'mx') {
    const answer = await query(walk, `MX ${target}`, () => walk.dns.resolveMx(target));
    if (!answer) return;
    if (answer.status === 'none') countVoid(walk, node);
    if (answer.status === 'found' && answer.value.length > SPF_LOOKUP_LIMIT) {
      walk.checks.push(fail('spf.mx.too-many', 'Too many MX hosts', `${term.text} in ${where} finds ${answer.value.length} mail servers; more than ${SPF_LOOKUP_LIMIT} is a permanent error (RFC 7208 §4.6.4).`,
        'Use ip4:/ip6: ranges for your mail servers instead of mx.'));
    }
    return;
  }
  const v4 = await query(walk, `A ${target}`, () => walk.dns.resolve4(target));
  if (!v4 || v4.status !== 'none') return;
  if (term.name === 'exists') return countVoid(walk, node);
  const v6 = await query(walk, `AAAA ${target}`, () => walk.dns.resolve6(target));
  if (v6?.status === 'none') countVoid(walk, node);
}

function countVoid(walk: Walk, node: SpfNode) {
  walk.voidLookups += 1;
  node.voidLookups += 1;
}

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
  for (const [kind, entries] of [['ip4', list(source.ip4)], ['ip6', list(source.ip6)]] as const) {
    for (const entry of entries) {
      const term = parseTerm(`${kind}:${entry}`);
      if ('invalid' in term) errors.push(`${quote(entry, 40)} is not a valid ${kind === 'ip4' ? 'IPv4' : 'IPv6'} address or range.`);
      else terms.push(term.text);
    }
  }
  for (const entry of list(source.includes)) {
    const domain = entry.replace(/^include:/i, '').toLowerCase();
    if (isDomainName(domain)) terms.push(`include:${domain}`);
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
