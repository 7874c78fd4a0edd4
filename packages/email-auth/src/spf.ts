import { absent, fail, info, pass, scoreChecks, txtRecord, unreachable, warn, type Inspection } from './checks';
import { describeLookupError, lookup, type DnsResolver, type Lookup } from './dns';
import { validateDomain } from './domain-name';
import { asText } from './input';
import { flatteningAdvice, type SpfFlattening } from './spf-flatten';
import { hasMacro, isSpfText, parseSpf, QUERYING_TERMS, type SpfMechanism, type SpfQualifier } from './spf-record';
import { byteLength, TXT_STRING_LIMIT } from './txt';
import { SPF_LOOKUP_LIMIT, SPF_VOID_LOOKUP_LIMIT, SPF_WALK_TERM_LIMIT } from './spf-limits';
import type { Check, DnsRecord } from './types';

/**
 * SPF inspection (RFC 7208): the record at the domain itself and every record it includes or
 * redirects to, walked through DNS for the lookup count, void lookups, loops and failures.
 * Record text: spf-record.ts; one message's evaluation (check_host): spf-evaluate.ts; the
 * generator: spf-builder.ts; flattening advice: spf-flatten.ts.
 */

// The page and the bff read every SPF function from here.
export * from './spf-record';
export { buildSpfRecord, SpfRecordInput, type BuiltSpfRecord } from './spf-builder';

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
  /** Over 10 lookups: what each include costs and a flattened record, with its risks. */
  flattening?: SpfFlattening;
}

/** Bounds of one inspection, so a hostile or broken tree cannot keep the checker busy. */
const MAX_RECORDS = 40;
const MAX_QUERIES = 120;
const MAX_DEPTH = 12;
/**
 * Nodes of the tree shown (records, and includes not followed: loops, macros, past the limits). A
 * record may hold thousands of terms; each of the MAX_RECORDS records walked could add a node for
 * each, so a crafted record that includes itself a thousand times made an answer of megabytes.
 */
const MAX_NODES = 300;

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
  /** Each finding once: the same term repeated (or a record walked again) adds nothing new. */
  findings: Set<string>;
  /** The names whose record is already in `dnsRecords`: a record reached again is listed once. */
  listed: Set<string>;
  dnsRecords: DnsRecord[];
  nodes: number;
  /** Terms read so far, across the records of the tree (SPF_WALK_TERM_LIMIT). */
  terms: number;
}

function addCheck(walk: Walk, check: Check) {
  const key = `${check.id}\n${check.detail}`;
  if (walk.findings.has(key)) return;
  walk.findings.add(key);
  walk.checks.push(check);
}

/** Whether the tree may take another node; past MAX_NODES it is marked truncated. */
function roomForNode(walk: Walk): boolean {
  if (walk.nodes < MAX_NODES) return true;
  walk.truncated = true;
  return false;
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
  const walk: Walk = {
    dns,
    cache: new Map(),
    queries: 0,
    records: 0,
    lookups: 0,
    voidLookups: 0,
    truncated: false,
    checks: [],
    findings: new Set(),
    listed: new Set(),
    dnsRecords: [],
    nodes: 0,
    terms: 0,
  };
  const tree = await walkRecord(walk, name, 'root', undefined, []);
  const rootProblem = tree.problem;
  if (rootProblem === 'missing' || rootProblem === 'multiple' || rootProblem === 'dns-error') {
    return { records: walk.dnsRecords, checks: walk.checks, score: 0, details: { ...empty, domain: name, record: tree.record, tree } };
  }

  const checks = walk.checks;
  const count = `${walk.lookups}${walk.truncated ? ' or more' : ''}`;
  if (walk.lookups > SPF_LOOKUP_LIMIT) {
    checks.push(
      fail(
        'spf.lookups.limit',
        'Too many DNS lookups',
        `Checking this SPF record takes ${count} DNS lookups (include, a, mx, ptr, exists, redirect); the limit is ${SPF_LOOKUP_LIMIT}, so receivers stop at ${walk.limitExceededAt} with a permanent error and SPF fails for all your mail (RFC 7208 §4.6.4).`,
        'Remove includes of services you no longer use, replace a/mx with ip4:/ip6: ranges, or flatten nested includes into address ranges.',
      ),
    );
  } else if (walk.lookups >= SPF_LOOKUP_LIMIT - 1) {
    checks.push(
      warn(
        'spf.lookups.near-limit',
        'Close to the DNS lookup limit',
        `Checking this record takes ${count} of the ${SPF_LOOKUP_LIMIT} DNS lookups allowed; one more include breaks SPF.`,
        'Free some room: remove unused includes or replace a/mx with ip4:/ip6: ranges.',
      ),
    );
  } else if (!checks.some((check) => check.id === 'spf.syntax.term' || check.id === 'spf.record.unread')) {
    // An invalid record is never evaluated, and one not read was not counted: its lookup count means nothing.
    checks.push(pass('spf.lookups', 'DNS lookups within the limit', `Checking this record takes ${count} of the ${SPF_LOOKUP_LIMIT} DNS lookups allowed.`));
  }
  // Not for a tree only partly followed: what each include costs is not known.
  const flattening = walk.lookups > SPF_LOOKUP_LIMIT && !walk.truncated ? flatteningAdvice(tree) : undefined;
  if (flattening) checks.push(flatteningCheck(flattening));
  if (walk.voidLookups > SPF_VOID_LOOKUP_LIMIT) {
    checks.push(
      fail(
        'spf.void.limit',
        'Too many lookups that find nothing',
        `${walk.voidLookups} lookups find no record; over ${SPF_VOID_LOOKUP_LIMIT}, receivers return a permanent error (RFC 7208 §4.6.4).`,
        'Remove includes, a, mx or exists terms that point at names without records.',
      ),
    );
  } else if (walk.voidLookups > 0) {
    checks.push(
      warn(
        'spf.void.lookups',
        'Lookups that find nothing',
        `${walk.voidLookups} lookup${walk.voidLookups === 1 ? ' finds' : 's find'} no record (at most ${SPF_VOID_LOOKUP_LIMIT} allowed).`,
        'Remove terms that point at names without records.',
      ),
    );
  }
  if (walk.truncated) {
    checks.push(
      info(
        'spf.tree.truncated',
        'Tree only partly followed',
        `The include tree is larger than this checker follows (${MAX_RECORDS} records, ${SPF_WALK_TERM_LIMIT.toLocaleString('en-US')} terms read, ${MAX_QUERIES} queries, depth ${MAX_DEPTH}, ${MAX_NODES} names shown); counts are lower bounds.`,
        'Simplify the record: nested includes this deep are far beyond the lookup limit anyway.',
      ),
    );
  }

  const permerror = checks.some(
    (check) =>
      check.status === 'fail' &&
      [
        'spf.lookups.limit',
        'spf.void.limit',
        'spf.loop',
        'spf.syntax.term',
        'spf.record.unread',
        'spf.include.missing',
        'spf.include.multiple',
        'spf.include.invalid',
        'spf.redirect.missing',
        'spf.redirect.duplicate',
        'spf.mx.too-many',
      ].includes(check.id),
  );
  const temperror = checks.some((check) => check.status === 'fail' && /^spf\.(include|redirect|a|mx|exists)\.error$/.test(check.id));
  const ceiling = permerror ? 30 : temperror ? 40 : checks.some((check) => check.id === 'spf.all.pass') ? 20 : 100;
  return {
    records: walk.dnsRecords,
    checks,
    score: scoreChecks(checks, ceiling),
    details: { domain: name, record: tree.record, tree, lookups: walk.lookups, voidLookups: walk.voidLookups, truncated: walk.truncated, ...(flattening ? { flattening } : {}) },
  };
}

function flatteningCheck(flattening: SpfFlattening): Check {
  const costs = flattening.includes.map((include) => `${include.term} costs ${include.lookups}${include.flattenable ? '' : ` (kept: ${include.reason})`}`).join('; ');
  if (!flattening.record) {
    return info('spf.flatten', 'What each include costs', `${costs}. None of them lists only addresses, so none can be flattened safely; remove the services you no longer use.`);
  }
  return info(
    'spf.flatten',
    'A flattened record would need fewer lookups',
    `${costs}. Replacing the includes that only list addresses with those addresses gives ${flattening.recordLookups} lookups: ${flattening.record} (${flattening.bytes} bytes). ${flattening.risks.join(' ')}`,
    `If you flatten, publish the record above${flattening.strings.length > 1 ? ` as ${flattening.strings.length} strings` : ''} and keep it up to date; better, remove includes of services you no longer use.`,
  );
}

async function walkRecord(walk: Walk, domain: string, via: SpfNode['via'], qualifier: SpfQualifier | undefined, path: string[]): Promise<SpfNode> {
  const node: SpfNode = { domain, via, qualifier, lookups: 0, voidLookups: 0, children: [] };
  walk.nodes += 1;
  const root = via === 'root';
  const where = root ? domain : `${domain} (reached by ${via} from ${path[path.length - 1] ?? ''})`;
  if (path.includes(domain)) {
    node.problem = 'loop';
    addCheck(
      walk,
      fail(
        'spf.loop',
        'Include loop',
        `${[...path, domain].join(' → ')}: the record includes itself, which receivers treat as a permanent error.`,
        `Remove the ${via} of ${domain} from ${path[path.length - 1]}.`,
      ),
    );
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
    addCheck(
      walk,
      (root ? unreachable : fail)(
        root ? 'spf.lookup.error' : `spf.${via}.error`,
        'SPF lookup failed',
        `${describeLookupError(domain, answer)}${root ? '' : ` Receivers get a temporary error (temperror) for ${where}.`}`,
        'Try again; if it keeps failing, check that the name servers answer.',
      ),
    );
    return node;
  }
  const spfRecords = answer.status === 'found' ? answer.value.filter((strings) => isSpfText(strings.join(''))) : [];
  if (spfRecords.length === 0) {
    node.problem = 'missing';
    if (!root) walk.voidLookups += answer.status === 'none' ? 1 : 0;
    addCheck(
      walk,
      root
        ? absent(
            'spf.record.missing',
            'No SPF record',
            `${domain} publishes no TXT record starting with v=spf1, so receivers cannot tell which servers may send its mail.`,
            `Publish a TXT record at ${domain} listing your senders, e.g. v=spf1 include:_spf.your-provider.example ~all — or "v=spf1 -all" if the domain sends no mail.`,
          )
        : fail(
            `spf.${via}.missing`,
            `${via === 'include' ? 'Included' : 'Redirect'} domain has no SPF record`,
            `${where} publishes no SPF record; receivers treat that as a permanent error (RFC 7208 §5.2, §6.1).`,
            `Fix or remove the ${via === 'include' ? 'include:' : 'redirect='}${domain} term.`,
          ),
    );
    return node;
  }
  if (spfRecords.length > 1) {
    node.problem = 'multiple';
    for (const strings of spfRecords) walk.dnsRecords.push(txtRecord(domain, strings));
    addCheck(
      walk,
      fail(
        root ? 'spf.record.multiple' : 'spf.include.multiple',
        'Several SPF records',
        `${where} has ${spfRecords.length} SPF records; receivers then return a permanent error (RFC 7208 §4.5).`,
        'Merge them into one TXT record starting with v=spf1 and delete the others.',
      ),
    );
    return node;
  }
  const strings = spfRecords[0] ?? [];
  node.record = strings.join('');
  // A record reached again (included twice) is listed once.
  if (!walk.listed.has(domain)) {
    walk.listed.add(domain);
    walk.dnsRecords.push(txtRecord(domain, strings));
  }
  const longStrings = strings.filter((text) => byteLength(text) > TXT_STRING_LIMIT);
  if (longStrings.length > 0) {
    addCheck(
      walk,
      fail(
        'spf.txt.string-length',
        'TXT string over 255 bytes',
        `A single DNS character-string holds at most ${TXT_STRING_LIMIT} bytes; ${where} has one of ${byteLength(longStrings[0] ?? '')}.`,
        'Publish the record as several quoted strings of at most 255 bytes each ("v=spf1 … " "… ~all"); receivers join them.',
      ),
    );
  }
  // Past the walk's reading budget an included record is not read: the tree is cut there.
  if (!root && walk.terms >= SPF_WALK_TERM_LIMIT) {
    node.problem = 'truncated';
    walk.truncated = true;
    return node;
  }
  const parsed = parseSpf(node.record);
  walk.terms += parsed.record.terms.length + parsed.record.invalid.length;
  if (root) {
    walk.checks.unshift(pass('spf.record.found', 'SPF record found', `One SPF record at ${domain}.`));
    for (const check of parsed.checks) addCheck(walk, check);
  } else if (parsed.record.unread || parsed.record.invalid.length > 0) {
    node.problem = 'invalid';
    addCheck(
      walk,
      fail(
        'spf.include.invalid',
        'Invalid included record',
        `${where}: ${parsed.record.unread ? `the record ${parsed.record.unread}` : parsed.record.invalid.map((term) => term.reason).join('; ')}. That makes the whole check a permanent error.`,
        `Ask whoever runs ${domain} to fix it, or stop including it.`,
      ),
    );
  }
  if (parsed.record.unread || parsed.record.invalid.length > 0) return node;

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
      if (term.name === 'include' && roomForNode(walk)) node.children.push(macroNode(walk, term.value, 'include', term.qualifier));
      continue;
    }
    if (term.name === 'include') {
      if (roomForNode(walk)) node.children.push(await walkRecord(walk, target, 'include', term.qualifier, nextPath));
    } else if (term.name === 'a' || term.name === 'mx' || term.name === 'exists') {
      await checkAddressTerm(walk, node, term, target, where);
    }
  }
  if (allIndex < 0 && parsed.record.redirect) {
    // Counted as an include past the node bound is: the lookup is the record's, shown or not.
    countLookup(walk, node, `redirect=${parsed.record.redirect} in ${domain}`);
    if (roomForNode(walk))
      node.children.push(
        hasMacro(parsed.record.redirect)
          ? macroNode(walk, parsed.record.redirect, 'redirect', undefined)
          : await walkRecord(walk, parsed.record.redirect.toLowerCase(), 'redirect', undefined, nextPath),
      );
  }
  return node;
}

/** An include or redirect whose target depends on each message (macros): shown, not followed. */
function macroNode(walk: Walk, target: string, via: SpfNode['via'], qualifier: SpfQualifier | undefined): SpfNode {
  walk.nodes += 1;
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

/**
 * a, mx and exists: a name with no address (or no MX) is a void lookup; MX over 10 is a permerror.
 * The address lookups of each MX host count as void lookups too when they find nothing, and a DNS
 * failure on any of them is what receivers report as a temporary error (RFC 7208 §4.6.4, §2.6.7).
 */
async function checkAddressTerm(walk: Walk, node: SpfNode, term: SpfMechanism, target: string, where: string) {
  const failed = (name: string, answer: Extract<Lookup<unknown>, { status: 'error' }>) => {
    node.problem ??= 'dns-error';
    addCheck(
      walk,
      fail(
        `spf.${term.name}.error`,
        `Lookup for ${term.text} failed`,
        `${describeLookupError(name, answer)} ${term.text} in ${where} cannot be evaluated, so receivers get a temporary error (temperror) and may defer or reject your mail (RFC 7208 §2.6.7).`,
        `Check that the name servers of ${name} answer; if this keeps happening, replace ${term.text} with ip4:/ip6: ranges.`,
      ),
    );
  };
  if (term.name === 'mx') {
    const answer = await query(walk, `MX ${target}`, () => walk.dns.resolveMx(target));
    if (!answer) return;
    if (answer.status === 'error') return failed(target, answer);
    if (answer.status === 'none') return countVoid(walk, node);
    const hosts = answer.value.map((mx) => mx.exchange.toLowerCase().replace(/\.$/, '')).filter((host) => host !== '');
    if (hosts.length > SPF_LOOKUP_LIMIT) {
      addCheck(
        walk,
        fail(
          'spf.mx.too-many',
          'Too many MX hosts',
          `${term.text} in ${where} finds ${hosts.length} mail servers; more than ${SPF_LOOKUP_LIMIT} is a permanent error (RFC 7208 §4.6.4).`,
          'Use ip4:/ip6: ranges for your mail servers instead of mx.',
        ),
      );
      return;
    }
    for (const host of hosts) {
      const v4 = await query(walk, `A ${host}`, () => walk.dns.resolve4(host));
      if (!v4) return;
      if (v4.status === 'error') return failed(host, v4);
      if (v4.status === 'found') continue;
      const v6 = await query(walk, `AAAA ${host}`, () => walk.dns.resolve6(host));
      if (v6?.status === 'error') return failed(host, v6);
      if (v6?.status === 'none') countVoid(walk, node);
    }
    return;
  }
  const v4 = await query(walk, `A ${target}`, () => walk.dns.resolve4(target));
  if (!v4) return;
  if (v4.status === 'error') return failed(target, v4);
  if (v4.status === 'found') return;
  if (term.name === 'exists') return countVoid(walk, node);
  const v6 = await query(walk, `AAAA ${target}`, () => walk.dns.resolve6(target));
  if (v6?.status === 'error') return failed(target, v6);
  if (v6?.status === 'none') countVoid(walk, node);
}

function countVoid(walk: Walk, node: SpfNode) {
  walk.voidLookups += 1;
  node.voidLookups += 1;
}
