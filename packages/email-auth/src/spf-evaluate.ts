import ipaddr from 'ipaddr.js';
import { lookup, describeLookupError, type DnsResolver, type Lookup } from './dns';
import { asText } from './input';
import { expandMacros, parseClientIp, type MacroContext, type MacroValues } from './spf-macro';
import { isSpfText, parseSpf, type SpfMechanism, type SpfQualifier } from './spf-record';
import { SPF_EVALUATION_TERM_LIMIT, SPF_LOOKUP_LIMIT, SPF_READ_LIMIT, SPF_VOID_LOOKUP_LIMIT } from './spf-limits';

/**
 * RFC 7208's check_host(<ip>, <domain>, <sender>) as a receiving mail server runs it (§4): the
 * record is fetched, every term evaluated in order with macros expanded (§7), include and redirect
 * followed, ptr resolved and validated, and the explanation (exp=) fetched for a fail. The answer
 * is one of the seven results of §2.6 with the term that decided it and the lookups it took.
 */

export const SPF_RESULTS = ['pass', 'fail', 'softfail', 'neutral', 'none', 'permerror', 'temperror'] as const;
export type SpfResult = (typeof SPF_RESULTS)[number];

const QUALIFIER_RESULT: Record<SpfQualifier, SpfResult> = { '+': 'pass', '-': 'fail', '~': 'softfail', '?': 'neutral' };

export interface SpfEvaluationInput {
  /** The SMTP client's address, IPv4 or IPv6 (an IPv4-mapped IPv6 address counts as IPv4). */
  ip: string;
  /** The domain whose policy is checked: the MAIL FROM domain, or the HELO name. */
  domain: string;
  /** The MAIL FROM address; empty means postmaster@<domain> (§4.3). */
  sender?: string;
  /** The HELO/EHLO name (%{h}); the domain when not given. */
  helo?: string;
  /** The receiving host's name (%{r}, explanations only). */
  receiver?: string;
  /** Seconds since the epoch (%{t}); now when not given. */
  timestamp?: number;
}

/** One evaluated term, in order, for showing how the result came about. */
export interface SpfTraceStep {
  /** The domain whose record holds the term. */
  domain: string;
  /** The term as published (`include:_spf.example.net`, `-all`, `redirect=…`, or `(default)`). */
  term: string;
  /** Include/redirect depth: 0 for the domain's own record. */
  depth: number;
  /** The expanded target, when the term names one through macros. */
  target?: string;
  outcome: 'match' | 'no match' | 'error' | 'result';
  /** What the step found, in words. */
  note?: string;
}

export interface SpfEvaluation {
  result: SpfResult;
  /** What was asked, normalized (sender defaulted). */
  ip: string;
  domain: string;
  sender: string;
  helo: string;
  /** The term that decided the result and the domain whose record holds it; absent for none and errors before a term. */
  matched?: { term: string; domain: string };
  /** Why the result is what it is, in plain words. */
  reason: string;
  /** The domain's explanation (exp=) for a fail, macros expanded. */
  explanation?: string;
  /** DNS-querying terms evaluated (limit 10) and lookups that found nothing (limit 2). */
  lookups: number;
  voidLookups: number;
  /** The SPF record of the domain, as published. */
  record?: string;
  trace: SpfTraceStep[];
}

/** Stops the evaluation with permerror or temperror, the way §4.6 and §2.6.7 end it. */
class SpfStop {
  constructor(
    readonly result: 'permerror' | 'temperror',
    readonly reason: string,
  ) {}
}

interface Evaluation {
  dns: DnsResolver;
  ip: ipaddr.IPv4 | ipaddr.IPv6;
  sender: string;
  helo: string;
  receiver?: string;
  timestamp?: number;
  lookups: number;
  voidLookups: number;
  /** Mechanisms tried so far (SPF_EVALUATION_TERM_LIMIT). */
  terms: number;
  trace: SpfTraceStep[];
  validatedName?: Promise<string>;
  /** The domain's own record, as published. */
  rootRecord?: string;
}

interface HostAnswer {
  result: SpfResult;
  reason: string;
  matched?: { term: string; domain: string };
  explanation?: string;
}

/** A name DNS can be asked: labels of 1–63 characters, 253 in all (RFC 1035), at least two labels. */
function isQueryableName(name: string): boolean {
  const text = name.replace(/\.$/, '');
  if (text.length === 0 || text.length > 253) return false;
  const labels = text.split('.');
  return labels.length >= 2 && labels.every((label) => label.length >= 1 && label.length <= 63);
}

/**
 * Evaluates SPF for one message: would mail from `ip`, with this sender, pass for `domain`?
 * Never throws; a DNS failure is temperror, a broken record or a limit exceeded is permerror.
 */
export async function evaluateSpf(input: SpfEvaluationInput, dns: DnsResolver): Promise<SpfEvaluation> {
  const domain = asText(input.domain).trim().toLowerCase().replace(/\.$/, '');
  const helo = asText(input.helo).trim().toLowerCase() || domain;
  const given = asText(input.sender).trim();
  // §4.3: an empty local-part is postmaster; a bare domain is postmaster@that domain.
  const sender = given === '' ? `postmaster@${domain}` : given.includes('@') ? (given.startsWith('@') ? `postmaster${given}` : given) : `postmaster@${given}`;
  const ip = parseClientIp(asText(input.ip));
  const base = { ip: asText(input.ip).trim(), domain, sender, helo, lookups: 0, voidLookups: 0, trace: [] as SpfTraceStep[] };
  if (!ip) return { ...base, result: 'none', reason: `${base.ip || 'The address'} is not an IPv4 or IPv6 address, so there is nothing to evaluate.` };
  const state: Evaluation = { dns, ip, sender, helo, receiver: input.receiver, timestamp: input.timestamp, lookups: 0, voidLookups: 0, terms: 0, trace: base.trace };
  let answer: HostAnswer;
  try {
    answer = await checkHost(state, domain, 0);
  } catch (error) {
    const stop = error instanceof SpfStop ? error : new SpfStop('temperror', `The evaluation failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`);
    answer = { result: stop.result, reason: stop.reason };
  }
  return {
    ...base,
    ip: ip.kind() === 'ipv6' ? (ip as ipaddr.IPv6).toRFC5952String() : ip.toString(),
    result: answer.result,
    reason: answer.reason,
    matched: answer.matched,
    explanation: answer.explanation,
    record: state.rootRecord,
    lookups: state.lookups,
    voidLookups: state.voidLookups,
  };
}

/** check_host() itself: the record of `name` evaluated at include/redirect `depth`. */
async function checkHost(state: Evaluation, name: string, depth: number): Promise<HostAnswer> {
  const record = await fetchRecord(state, name);
  if ('result' in record) return record;
  if (depth === 0) state.rootRecord = record.text;
  return evaluateRecord(state, name, record.text, depth, checkHost);
}

type CheckHost = (state: Evaluation, name: string, depth: number) => Promise<HostAnswer>;

/** §4.3–4.5: the one SPF record of `name`, or the result that ends the check without one. */
async function fetchRecord(state: Evaluation, name: string): Promise<{ text: string } | HostAnswer> {
  if (!isQueryableName(name)) return { result: 'none', reason: `${name || 'The domain'} is not a valid domain name (RFC 7208 §4.3).` };
  const answer = await lookup(() => state.dns.resolveTxt(name));
  if (answer.status === 'error') throw new SpfStop('temperror', describeLookupError(name, answer));
  const records = answer.status === 'found' ? answer.value.map((strings) => strings.join('')).filter(isSpfText) : [];
  if (records.length === 0) return { result: 'none', reason: `${name} publishes no SPF record.` };
  if (records.length > 1) throw new SpfStop('permerror', `${name} publishes ${records.length} SPF records; one is allowed (RFC 7208 §4.5).`);
  return { text: records[0] as string };
}

async function evaluateRecord(state: Evaluation, domain: string, text: string, depth: number, checkHost: CheckHost): Promise<HostAnswer> {
  const parsed = parseSpf(text);
  const { record } = parsed;
  if (record.unread) throw new SpfStop('permerror', `The record of ${domain} ${record.unread}.`);
  const firstInvalid = record.invalid[0];
  if (firstInvalid) throw new SpfStop('permerror', `The record of ${domain} has an invalid term: ${firstInvalid.reason} (RFC 7208 §4.6).`);
  for (const name of ['redirect', 'exp']) {
    if (record.terms.filter((term) => term.kind === 'modifier' && term.name === name).length > 1) {
      throw new SpfStop('permerror', `The record of ${domain} has ${name}= twice (RFC 7208 §6).`);
    }
  }
  const macros: MacroValues = {
    sender: state.sender,
    domain,
    ip: state.ip,
    helo: state.helo,
    receiver: state.receiver,
    timestamp: state.timestamp,
    validatedName: () => (state.validatedName ??= validatedNameOf(state, domain)),
  };

  for (const term of record.terms) {
    if (term.kind !== 'mechanism') continue;
    state.terms += 1;
    if (state.terms > SPF_EVALUATION_TERM_LIMIT) {
      throw new SpfStop('permerror', `Evaluating this record tries more than ${SPF_EVALUATION_TERM_LIMIT.toLocaleString('en-US')} terms, where this checker stops; shorten the records.`);
    }
    const step: SpfTraceStep = { domain, term: term.text, depth, outcome: 'no match' };
    state.trace.push(step);
    const matched = await matches(state, term, domain, macros, step, depth, checkHost);
    if (!matched) continue;
    step.outcome = 'match';
    const result = QUALIFIER_RESULT[term.qualifier];
    const answer: HostAnswer = { result, matched: { term: term.text, domain }, reason: `${term.text} in the record of ${domain} matches ${state.ip.toString()}.` };
    if (result === 'fail' && record.exp !== undefined) answer.explanation = await explanation(state, record.exp, macros);
    return answer;
  }

  if (record.redirect !== undefined) {
    const step: SpfTraceStep = { domain, term: `redirect=${record.redirect}`, depth, outcome: 'result' };
    state.trace.push(step);
    countLookup(state, `redirect=${record.redirect} in ${domain}`);
    const target = await expandTarget(record.redirect, macros, step);
    const answer = await checkHost(state, target, depth + 1);
    // §6.1: a redirect to a domain without an SPF record is a permerror, not none.
    if (answer.result === 'none') throw new SpfStop('permerror', `redirect=${record.redirect} in ${domain} leads to ${target}, which has no SPF record (RFC 7208 §6.1).`);
    step.note = `${target} answers ${answer.result}`;
    return answer;
  }
  state.trace.push({ domain, term: '(default)', depth, outcome: 'result', note: 'no term matched' });
  return { result: 'neutral', reason: `No term in the record of ${domain} matches ${state.ip.toString()} and it has no redirect, so the result is neutral (RFC 7208 §4.7).` };
}

function countLookup(state: Evaluation, what: string) {
  state.lookups += 1;
  if (state.lookups > SPF_LOOKUP_LIMIT) {
    throw new SpfStop('permerror', `${what} is DNS lookup ${state.lookups}; more than ${SPF_LOOKUP_LIMIT} is a permanent error (RFC 7208 §4.6.4).`);
  }
}

function countVoid(state: Evaluation, name: string) {
  state.voidLookups += 1;
  if (state.voidLookups > SPF_VOID_LOOKUP_LIMIT) {
    throw new SpfStop('permerror', `${name} is lookup number ${state.voidLookups} that finds nothing; more than ${SPF_VOID_LOOKUP_LIMIT} is a permanent error (RFC 7208 §4.6.4).`);
  }
}

async function expandTarget(spec: string, macros: MacroValues, step: SpfTraceStep, context: MacroContext = 'domain-spec'): Promise<string> {
  const expanded = await expandMacros(spec, context, macros);
  if (!expanded.ok) throw new SpfStop('permerror', `${spec} ${expanded.problem}.`);
  const target = expanded.text.toLowerCase();
  if (target !== spec.toLowerCase()) step.target = target;
  return target;
}

/**
 * One DNS answer for a term's target. A failure is temperror (§2.6.7); "no such name" or "no
 * records" is a void lookup (§4.6.4); a name DNS cannot be asked finds nothing.
 */
async function addressLookup<T>(state: Evaluation, name: string, run: () => Promise<T[]>): Promise<T[]> {
  if (!isQueryableName(name)) return [];
  const answer: Lookup<T[]> = await lookup(run);
  if (answer.status === 'error') throw new SpfStop('temperror', describeLookupError(name, answer));
  if (answer.status === 'none') {
    countVoid(state, name);
    return [];
  }
  return answer.value;
}

function addressesOf(state: Evaluation, name: string): Promise<string[]> {
  return state.ip.kind() === 'ipv6' ? addressLookup(state, name, () => state.dns.resolve6(name)) : addressLookup(state, name, () => state.dns.resolve4(name));
}

/** Whether `address` (from DNS) is in the client's network of `bits`; unreadable answers never match. */
function inNetwork(state: Evaluation, address: string, term: SpfMechanism): boolean {
  const parsed = parseClientIp(address);
  if (!parsed || parsed.kind() !== state.ip.kind()) return false;
  const bits = state.ip.kind() === 'ipv6' ? (term.cidr6 ?? 128) : (term.cidr4 ?? 32);
  return state.ip.match(parsed, bits);
}

async function matches(state: Evaluation, term: SpfMechanism, domain: string, macros: MacroValues, step: SpfTraceStep, depth: number, checkHost: CheckHost): Promise<boolean> {
  switch (term.name) {
    case 'all':
      return true;
    case 'ip4':
    case 'ip6': {
      const network = parseClientIp(term.value ?? '');
      // ip6 names an IPv6 network even when written ::ffff:a.b.c.d; compare within its own family.
      if (term.name === 'ip6') {
        if (state.ip.kind() !== 'ipv6') return false;
        const v6 = ipaddr.IPv6.parse(term.value ?? '::');
        return (state.ip as ipaddr.IPv6).match(v6, term.cidr6 ?? 128);
      }
      return network !== null && network.kind() === 'ipv4' && state.ip.kind() === 'ipv4' && state.ip.match(network, term.cidr4 ?? 32);
    }
    case 'include': {
      countLookup(state, `${term.text} in ${domain}`);
      const target = await expandTarget(term.value ?? '', macros, step);
      const answer = await checkHost(state, target, depth + 1);
      step.note = `${target} answers ${answer.result}`;
      // §5.2: only pass matches; none and permerror below are a permerror here.
      if (answer.result === 'pass') return true;
      if (answer.result === 'temperror') throw new SpfStop('temperror', answer.reason);
      if (answer.result === 'permerror' || answer.result === 'none') {
        throw new SpfStop(
          'permerror',
          answer.result === 'none' ? `${term.text} in ${domain}: ${target} has no SPF record, which makes the include a permanent error (RFC 7208 §5.2).` : answer.reason,
        );
      }
      return false;
    }
    case 'a': {
      countLookup(state, `${term.text} in ${domain}`);
      const target = await expandTarget(term.value ?? domain, macros, step);
      const addresses = await addressesOf(state, target);
      step.note = addresses.length ? `${target}: ${addresses.slice(0, 4).join(', ')}${addresses.length > 4 ? '…' : ''}` : `${target} has no address`;
      return addresses.some((address) => inNetwork(state, address, term));
    }
    case 'mx': {
      countLookup(state, `${term.text} in ${domain}`);
      const target = await expandTarget(term.value ?? domain, macros, step);
      const exchanges = await addressLookup(state, target, () => state.dns.resolveMx(target));
      const hosts = exchanges.map((mx) => mx.exchange.toLowerCase().replace(/\.$/, '')).filter((host) => host !== '');
      // §4.6.4: each mx may cause at most 10 address lookups.
      if (hosts.length > SPF_LOOKUP_LIMIT)
        throw new SpfStop('permerror', `${term.text} in ${domain} finds ${hosts.length} MX hosts; more than ${SPF_LOOKUP_LIMIT} is a permanent error (RFC 7208 §4.6.4).`);
      step.note = hosts.length ? `MX of ${target}: ${hosts.join(', ')}` : `${target} has no MX`;
      for (const host of hosts) {
        const addresses = await addressesOf(state, host);
        if (addresses.some((address) => inNetwork(state, address, term))) {
          step.note = `${host} (MX of ${target}) has this address`;
          return true;
        }
      }
      return false;
    }
    case 'ptr': {
      countLookup(state, `${term.text} in ${domain}`);
      const target = await expandTarget(term.value ?? domain, macros, step);
      const names = await validatedNames(state);
      const found = names.find((name) => name === target || name.endsWith(`.${target}`));
      step.note = found ? `${found} is a validated name of the address` : names.length ? `validated names: ${names.join(', ')}` : 'the address has no validated name';
      return found !== undefined;
    }
    case 'exists': {
      countLookup(state, `${term.text} in ${domain}`);
      const target = await expandTarget(term.value ?? '', macros, step);
      // §5.7: always an A query, whatever the client's address family.
      const addresses = await addressLookup(state, target, () => state.dns.resolve4(target));
      step.note = addresses.length ? `${target} exists` : `${target} does not exist`;
      return addresses.length > 0;
    }
  }
}

/** The name PTR records are published under for the client's address. */
function reverseName(ip: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (ip.kind() === 'ipv4') return `${ip.toByteArray().reverse().join('.')}.in-addr.arpa`;
  const nibbles = (ip as ipaddr.IPv6)
    .toNormalizedString()
    .split(':')
    .map((group) => group.padStart(4, '0'))
    .join('')
    .split('');
  return `${nibbles.reverse().join('.')}.ip6.arpa`;
}

/**
 * §5.5: the names the address's PTR records give (at most 10) whose own addresses include it.
 * A DNS error on the PTR lookup means no names; an error on one name's lookup skips that name.
 */
async function validatedNames(state: Evaluation): Promise<string[]> {
  if (!state.dns.resolvePtr) return [];
  const resolvePtr = state.dns.resolvePtr.bind(state.dns);
  const answer = await lookup(() => resolvePtr(reverseName(state.ip)));
  if (answer.status !== 'found') return [];
  const names = answer.value.slice(0, 10).map((name) => name.toLowerCase().replace(/\.$/, ''));
  const validated: string[] = [];
  for (const name of names) {
    if (!isQueryableName(name)) continue;
    const addresses = await lookup(() => (state.ip.kind() === 'ipv6' ? state.dns.resolve6(name) : state.dns.resolve4(name)));
    if (addresses.status === 'found' && addresses.value.some((address) => parseClientIp(address)?.toString() === state.ip.toString())) validated.push(name);
  }
  return validated;
}

/** %{p} (§7.3): a validated name in the domain, else any validated name, else "unknown". */
async function validatedNameOf(state: Evaluation, domain: string): Promise<string> {
  const names = await validatedNames(state);
  return names.find((name) => name === domain || name.endsWith(`.${domain}`)) ?? names[0] ?? 'unknown';
}

/**
 * §6.2: the explanation for a fail, from the TXT record at the exp= domain, macros expanded
 * (c, r and t allowed). Any problem (DNS, none or several records, bad macros) means no explanation.
 */
async function explanation(state: Evaluation, spec: string, macros: MacroValues): Promise<string | undefined> {
  const name = await expandMacros(spec, 'domain-spec', macros);
  if (!name.ok || !isQueryableName(name.text)) return undefined;
  const answer = await lookup(() => state.dns.resolveTxt(name.text));
  if (answer.status !== 'found' || answer.value.length !== 1) return undefined;
  const text = (answer.value[0] ?? []).join('');
  if (text.length > SPF_READ_LIMIT) return undefined;
  const expanded = await expandMacros(text, 'explanation', macros);
  return expanded.ok ? expanded.text : undefined;
}
