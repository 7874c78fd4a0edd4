import ipaddr from 'ipaddr.js';
import { fail, info, pass, warn } from './checks';
import { asText } from './input';
import { macroStringProblem } from './spf-macro';
import { SPF_READ_LIMIT, SPF_RECORD_SIZE_LIMIT } from './spf-limits';
import { listWords, quote } from './tag-list';
import { byteLength } from './txt';
import type { Check } from './types';

/**
 * SPF record text (RFC 7208): the parser, to the letter of the ABNF of §12, and what the text
 * alone shows. The DNS walk is in spf.ts, the evaluation of one message in spf-evaluate.ts, the
 * generator in spf-builder.ts.
 */

export type SpfQualifier = '+' | '-' | '~' | '?';
export const SPF_MECHANISMS = ['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists'] as const;
export type SpfMechanismName = (typeof SPF_MECHANISMS)[number];
const MECHANISM_NAMES = SPF_MECHANISMS.join(', ');

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
  /** Why the terms were not read (the record is longer than SPF_READ_LIMIT): it is evaluated as a permerror. */
  unread?: string;
}

export interface SpfParse {
  /** Whether the text is an SPF record at all: it starts with v=spf1. */
  isSpf: boolean;
  record: SpfRecord;
  /** Findings about the text alone; inspectSpf adds those that need DNS (lookup count, includes). */
  checks: Check[];
}

/** The terms that make a DNS query when evaluated (RFC 7208 §4.6.4), limited to 10 per check. */
export const QUERYING_TERMS = new Set(['include', 'a', 'mx', 'ptr', 'exists', 'redirect']);

const SPF_VERSION = /^v=spf1(?: |$)/i;

export function isSpfText(text: string): boolean {
  return SPF_VERSION.test(text);
}

/** Whether a domain-spec holds macros (RFC 7208 §7), which only a live evaluation can expand. */
export function hasMacro(spec: string): boolean {
  return spec.includes('%');
}

/**
 * toplabel = ( *alphanum ALPHA *alphanum ) / ( 1*alphanum "-" *( alphanum / "-" ) alphanum ):
 * letters, digits and inner hyphens, and never all digits, so an address is never a domain (§7.1).
 */
const TOP_LABEL = /^(?:[a-z0-9]*[a-z][a-z0-9]*|[a-z0-9]+-[a-z0-9-]*[a-z0-9])$/i;
/** A domain-spec may end in a macro instead of a top label (domain-end, §7.1). */
const ENDS_IN_MACRO = /(?:%\{[a-z]\d*r?[.\-+,/_=]*\}|%%|%_|%-)$/i;

/**
 * domain-spec = macro-string domain-end; domain-end = ( "." toplabel [ "." ] ) / macro-expand.
 * Any visible character but a stray "%" may appear before the end (`foo:bar/baz.example.com`
 * is a name), but the last label must be a real top label or a macro.
 */
export function domainSpecProblem(spec: string | undefined, required: boolean): string | null {
  if (spec === undefined || spec === '') return required ? 'needs a domain after the colon' : null;
  const macro = macroStringProblem(spec, 'domain-spec');
  if (macro) return `${quote(spec, 40)} ${macro}`;
  if (ENDS_IN_MACRO.test(spec)) return null;
  const name = spec.endsWith('.') ? spec.slice(0, -1) : spec;
  const dot = name.lastIndexOf('.');
  if (dot < 0) return `${quote(spec, 40)} is not a full domain name (it has no dot before a top-level label)`;
  const top = name.slice(dot + 1);
  if (!TOP_LABEL.test(top)) {
    return /^\d+$/.test(top)
      ? `${quote(spec, 40)} ends in "${top}", all digits: a domain's top label never is, so this reads as an address, not a name (RFC 7208 §7.1)`
      : `${quote(spec, 40)} ends in ${quote(top, 20)}, which is not a top-level label (letters, digits and inner hyphens)`;
  }
  return null;
}

/** A prefix length without leading zeros (§5.6): "0" or a digit 1–9 followed by digits. */
const CIDR_DIGITS = /^(?:0|[1-9]\d*)$/;
/** dual-cidr-length = [ ip4-cidr-length ] [ "/" ip6-cidr-length ] at the end of an a or mx term. */
const DUAL_CIDR = /^(.*?)(?:\/(0|[1-9]\d{0,1}))?(?:\/\/(0|[1-9]\d{0,2}))?$/;
/** qnum: 0–255 without leading zeros (§12 ip4-network). */
const QNUM = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)';
const IP4_NETWORK = new RegExp(`^${QNUM}(?:\\.${QNUM}){3}$`);

const PREFIX_RULE = 'a prefix length is written without leading zeros: /0 to /32 for IPv4, //0 to //128 for IPv6 (RFC 7208 §5.6)';

/** Parses one term; a term that breaks the grammar comes back with the reason in words. */
export function parseSpfTerm(text: string): SpfTerm | { invalid: string } {
  const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(text);
  if (modifier) {
    const name = (modifier[1] ?? '').toLowerCase();
    const value = modifier[2] ?? '';
    if (name === 'redirect' || name === 'exp') {
      const problem = domainSpecProblem(value, true);
      if (problem) return { invalid: `${name}= ${problem}` };
    } else {
      // unknown-modifier = name "=" macro-string: ignored when evaluated, but it must still parse (§6).
      const problem = macroStringProblem(value, 'modifier');
      if (problem) return { invalid: `the modifier ${name}= ${problem}` };
    }
    return { kind: 'modifier', name, value, text };
  }
  const mechanism = /^([+\-~?]?)([a-z0-9]+)(.*)$/i.exec(text);
  const name = mechanism?.[2]?.toLowerCase() as SpfMechanismName | undefined;
  if (!mechanism || !name || !SPF_MECHANISMS.includes(name)) {
    return { invalid: `${quote(text, 40)} is not an SPF mechanism (${MECHANISM_NAMES}) or modifier` };
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
      const cidr = DUAL_CIDR.exec(rest);
      const spec = cidr?.[1] ?? '';
      const cidr4 = cidr?.[2] === undefined ? undefined : Number(cidr[2]);
      const cidr6 = cidr?.[3] === undefined ? undefined : Number(cidr[3]);
      // A top label never holds "/", so what is left ending in /digits is a prefix length that breaks §5.6.
      if (/\/\d+$/.test(spec)) return { invalid: `${quote(text, 40)}: ${PREFIX_RULE}` };
      if (spec !== '' && !spec.startsWith(':')) return { invalid: `${quote(text, 40)}: ${PREFIX_RULE}` };
      const problem = domainSpecProblem(spec.slice(1), spec.startsWith(':'));
      if (problem) return { invalid: `${name} ${problem}` };
      if ((cidr4 ?? 0) > 32 || (cidr6 ?? 0) > 128) return { invalid: `${quote(text, 40)}: ${PREFIX_RULE}` };
      return { ...term, value: spec ? spec.slice(1) : undefined, cidr4, cidr6 };
    }
    case 'ip4':
    case 'ip6': {
      const network = rest.slice(1);
      const [address = '', prefix, ...extra] = network.split('/');
      const max = name === 'ip4' ? 32 : 128;
      const validAddress = name === 'ip4' ? IP4_NETWORK.test(address) : ipaddr.IPv6.isValid(address) && !address.includes('%');
      if (!rest.startsWith(':') || !validAddress) return { invalid: `${quote(text, 40)} is not a valid ${name === 'ip4' ? 'IPv4' : 'IPv6'} address` };
      if (extra.length > 0 || (prefix !== undefined && (!CIDR_DIGITS.test(prefix) || prefix.length > 3 || Number(prefix) > max))) {
        return { invalid: `${quote(text, 40)}: ${PREFIX_RULE}` };
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
      checks: [
        fail(
          'spf.version',
          'Not an SPF record',
          `An SPF record starts with v=spf1 followed by a space; this one starts ${quote(source, 20)}.`,
          'Start the record with v=spf1, e.g. v=spf1 include:_spf.example.com ~all',
        ),
      ],
    };
  }
  const size = byteLength(source);
  if (size > SPF_READ_LIMIT) {
    record.unread = `is ${size.toLocaleString('en-US')} bytes long, over the ${SPF_READ_LIMIT.toLocaleString('en-US')} this checker reads`;
    return {
      isSpf: true,
      record,
      checks: [
        fail(
          'spf.record.unread',
          'Record too long to check',
          `The record ${record.unread}: receivers must fetch a record this long over TCP, and many give up (RFC 7208 §3.4 asks for under ${SPF_RECORD_SIZE_LIMIT} bytes).`,
          'Shorten it: replace long ip4/ip6 lists with an include: of a record you host, or remove unused senders.',
        ),
      ],
    };
  }
  // Terms are separated by spaces only (RFC 7208 §12); a tab stays inside a term and makes it invalid.
  for (const piece of source.slice(6).split(' ')) {
    if (piece === '') continue;
    const term = parseSpfTerm(piece);
    if ('invalid' in term) record.invalid.push({ text: piece, reason: term.invalid });
    else record.terms.push(term);
  }
  record.all = record.terms.find((term): term is SpfMechanism => term.kind === 'mechanism' && term.name === 'all');
  record.redirect = record.terms.find((term) => term.kind === 'modifier' && term.name === 'redirect')?.value;
  record.exp = record.terms.find((term) => term.kind === 'modifier' && term.name === 'exp')?.value;
  return { isSpf: true, record, checks: validateSpfTerms(record) };
}

/**
 * Why the terms are invalid, each reason once and at most five (each is a sentence, so fewer than
 * `listWords` names), then how many terms are invalid when that is more than the reasons show: a
 * record of thousands of broken terms gets a detail of a few lines, not one as long as the record.
 */
const LISTED_INVALID_REASONS = 5;

function invalidTermsDetail(invalid: SpfRecord['invalid']): string {
  const reasons = [...new Set(invalid.map((term) => term.reason))].slice(0, LISTED_INVALID_REASONS);
  const count = invalid.length > reasons.length ? ` ${invalid.length.toLocaleString('en-US')} terms are invalid in all.` : '';
  return `${reasons.map((reason) => `${reason}.`).join(' ')}${count}`;
}

function validateSpfTerms(record: SpfRecord): Check[] {
  const checks: Check[] = [];
  if (record.invalid.length > 0) {
    checks.push(
      fail(
        'spf.syntax.term',
        'Invalid terms',
        `${invalidTermsDetail(record.invalid)} One invalid term makes receivers treat the whole record as an error (permerror, RFC 7208 §4.6).`,
        'Correct or remove the invalid terms; mechanisms are written like include:example.com, ip4:192.0.2.0/24, a, mx, -all.',
      ),
    );
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
      checks.push(
        warn('spf.all.neutral', 'Neutral ending (?all)', '?all says nothing about servers not listed, so SPF gives no protection.', 'End the record with ~all (soft fail) or -all (fail).'),
      );
    } else {
      checks.push(
        pass(
          qualifier === '-' ? 'spf.all.fail' : 'spf.all.softfail',
          `Ends with ${qualifier}all`,
          qualifier === '-' ? 'Servers not listed fail SPF.' : 'Servers not listed soft-fail SPF; with DMARC at quarantine or reject this is enough.',
        ),
      );
    }
    const after = record.terms.slice(allIndex + 1).filter((term) => !(term.kind === 'modifier' && term.name !== 'redirect'));
    if (after.length > 0) {
      checks.push(
        warn(
          'spf.all.after',
          'Terms after "all" are ignored',
          `${listWords(after.map((term) => term.text))} come${after.length === 1 ? 's' : ''} after ${record.all.text}, so receivers never look at ${after.length === 1 ? 'it' : 'them'}${record.redirect ? '; redirect= is ignored whenever the record has an all' : ''}.`,
          'Move these terms before "all" (which must be last), or remove them.',
        ),
      );
    } else if (record.redirect) {
      checks.push(
        warn(
          'spf.redirect.ignored',
          'redirect= is ignored',
          'A record with "all" never follows its redirect= (RFC 7208 §6.1).',
          'Remove either the all mechanism or the redirect= modifier.',
        ),
      );
    }
  } else if (record.redirect) {
    checks.push(pass('spf.all.redirect', 'Ends with a redirect', `The record continues at ${record.redirect}, whose "all" applies.`));
  } else {
    checks.push(
      warn(
        'spf.all.missing',
        'No "all" at the end',
        'Without an all mechanism, servers that are not listed get a neutral result: SPF protects nothing.',
        'End the record with ~all or -all.',
      ),
    );
  }

  const ptr = record.terms.filter((term) => term.kind === 'mechanism' && term.name === 'ptr');
  if (ptr.length > 0) {
    checks.push(
      warn(
        'spf.ptr',
        'Uses the ptr mechanism',
        'ptr is slow, unreliable and "SHOULD NOT be used" (RFC 7208 §5.5); many receivers skip it.',
        'Replace ptr with ip4:/ip6: ranges or a/mx for your servers.',
      ),
    );
  }
  const broad = record.terms.filter(
    (term) => term.kind === 'mechanism' && term.qualifier !== '-' && ((term.name === 'ip4' && (term.cidr4 ?? 32) < 8) || (term.name === 'ip6' && (term.cidr6 ?? 128) < 16)),
  );
  if (broad.length > 0) {
    checks.push(
      fail(
        'spf.ip.too-broad',
        'Address range far too wide',
        `${listWords(broad.map((term) => term.text))} authorize${broad.length === 1 ? 's' : ''} a large part of the Internet.`,
        'List only the addresses of servers that send your mail.',
      ),
    );
  }
  const macros = record.terms.filter((term) => hasMacro(term.kind === 'mechanism' ? (term.value ?? '') : term.value));
  if (macros.length > 0) {
    checks.push(
      info(
        'spf.macros',
        'Uses macros',
        `${listWords(macros.map((term) => term.text))} expand${macros.length === 1 ? 's' : ''} per message, so the checker cannot follow ${macros.length === 1 ? 'it' : 'them'}.`,
      ),
    );
  }
  const size = byteLength(record.text);
  if (size > SPF_RECORD_SIZE_LIMIT) {
    checks.push(
      warn(
        'spf.record.size',
        'Record is long',
        `The record is ${size} bytes; over ${SPF_RECORD_SIZE_LIMIT} the DNS answer may not fit in one UDP packet (RFC 7208 §3.4).`,
        'Shorten it: replace long ip4/ip6 lists with an include: of a record you host, or remove unused senders.',
      ),
    );
  }
  return checks;
}
