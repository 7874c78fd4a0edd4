import { SPF_LOOKUP_LIMIT, SPF_RECORD_SIZE_LIMIT } from './spf-limits';
import { parseSpf } from './spf-record';
import { byteLength, splitTxt } from './txt';

/**
 * Flattening advice for a record over the lookup limit (RFC 7208 §4.6.4): what each include
 * costs, and the record with the includes that only list addresses replaced by those addresses.
 * Works on the tree inspectSpf walked (SpfNode), so it asks DNS nothing more.
 */

/** The part of SpfNode (spf.ts) this module reads. */
export interface FlattenNode {
  domain: string;
  via: 'root' | 'include' | 'redirect';
  qualifier?: string;
  record?: string;
  lookups: number;
  children: FlattenNode[];
  problem?: string;
}

export interface IncludeCost {
  /** The term in the domain's own record, e.g. `include:_spf.google.com`. */
  term: string;
  /** Lookups it costs: the include itself and every querying term below it. */
  lookups: number;
  /** Whether it can be replaced by the addresses it lists, and if not, why not. */
  flattenable: boolean;
  reason?: string;
  /** The ip4:/ip6: terms it stands for, when flattenable. */
  addresses: string[];
}

export interface SpfFlattening {
  lookups: number;
  includes: IncludeCost[];
  /** The flattened record, and what it costs; empty when nothing can be flattened. */
  record: string;
  recordLookups: number;
  /** The record as ≤ 255-byte strings; over 450 bytes it may not fit one UDP answer. */
  strings: string[];
  bytes: number;
  /** What flattening gives up, in words. */
  risks: string[];
}

function subtreeLookups(node: FlattenNode): number {
  return node.lookups + node.children.reduce((sum, child) => sum + subtreeLookups(child), 0);
}

/** The +ip4/+ip6 terms a record and what it includes or redirects to stand for, or why they cannot be listed. */
function addressesOf(node: FlattenNode, depth = 0): { addresses: string[] } | { reason: string } {
  if (depth > 12) return { reason: 'nested too deep' };
  if (node.problem || node.record === undefined) return { reason: `${node.domain} ${node.problem === 'macro' ? 'uses macros' : 'could not be read'}` };
  const { record } = parseSpf(node.record);
  const addresses: string[] = [];
  for (const term of record.terms) {
    if (term.kind === 'modifier') continue;
    if (term.name === 'all') break;
    if (term.name === 'ip4' || term.name === 'ip6') {
      // Only a pass makes an include match (§5.2): -ip4 or ~ip4 inside cannot be copied as they are.
      if (term.qualifier !== '+') return { reason: `${node.domain} has ${term.text}` };
      addresses.push(`${term.name}:${term.value}${term.cidr4 !== undefined ? `/${term.cidr4}` : term.cidr6 !== undefined ? `/${term.cidr6}` : ''}`);
      continue;
    }
    if (term.name !== 'include') return { reason: `${node.domain} uses ${term.text}, whose addresses change with DNS or each message` };
  }
  for (const child of node.children) {
    if (child.qualifier !== undefined && child.qualifier !== '+') return { reason: `${node.domain} has ${child.qualifier}include:${child.domain}` };
    const below = addressesOf(child, depth + 1);
    if ('reason' in below) return below;
    addresses.push(...below.addresses);
  }
  return { addresses };
}

const RISKS = [
  "The addresses are a copy of what the providers publish today: when a provider changes its servers (they do, without notice), mail from the new ones fails SPF until you update the record. Check the flattened record against the providers' includes regularly, or use a service that re-publishes it for you.",
  'Some providers ask you to keep their include: they may not support a flattened record.',
  'A long list of addresses makes the record large: over 450 bytes the DNS answer may not fit one UDP packet (RFC 7208 §3.4), and every TXT string is at most 255 bytes.',
];

/**
 * The cost of each include of the root record, and the record with the includes that list only
 * addresses (+ip4/+ip6, nested includes of the same) flattened. Undefined when the record is within
 * the limit or has no record.
 */
export function flatteningAdvice(tree: FlattenNode): SpfFlattening | undefined {
  if (tree.record === undefined) return undefined;
  const total = subtreeLookups(tree);
  if (total <= SPF_LOOKUP_LIMIT) return undefined;
  const children = [...tree.children];
  const { record } = parseSpf(tree.record);
  const includes: IncludeCost[] = [];
  const terms: string[] = [];
  let saved = 0;
  for (const term of record.terms) {
    if (term.kind !== 'mechanism' || term.name !== 'include') {
      terms.push(term.text);
      continue;
    }
    const index = children.findIndex((child) => child.via === 'include' && child.domain.toLowerCase() === (term.value ?? '').toLowerCase());
    const child = index >= 0 ? children.splice(index, 1)[0] : undefined;
    const lookups = 1 + (child ? subtreeLookups(child) : 0);
    const listed = term.qualifier !== '+' ? { reason: `${term.text} has the qualifier ${term.qualifier}` } : child ? addressesOf(child) : { reason: 'not followed' };
    if ('addresses' in listed) {
      includes.push({ term: term.text, lookups, flattenable: true, addresses: listed.addresses });
      terms.push(...listed.addresses);
      saved += lookups;
    } else {
      includes.push({ term: term.text, lookups, flattenable: false, reason: listed.reason, addresses: [] });
      terms.push(term.text);
    }
  }
  includes.sort((a, b) => b.lookups - a.lookups);
  const unique = [...new Set(terms)];
  const flattened = saved > 0 ? ['v=spf1', ...unique].join(' ') : '';
  return {
    lookups: total,
    includes,
    record: flattened,
    recordLookups: total - saved,
    strings: flattened ? splitTxt(flattened) : [],
    bytes: byteLength(flattened),
    risks: byteLength(flattened) > SPF_RECORD_SIZE_LIMIT ? RISKS : RISKS.slice(0, 2),
  };
}
