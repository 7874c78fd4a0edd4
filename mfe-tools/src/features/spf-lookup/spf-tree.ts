/**
 * The SPF include/redirect tree from an SPF answer's `details`, read defensively: the page
 * renders what it can recognize and never trusts the shape (a record is attacker-chosen text
 * relayed by the server).
 */
export interface SpfTreeNode {
  domain: string;
  /** How the parent reached this record: include, redirect (or the root). */
  via: string;
  record?: string | undefined;
  /** DNS lookups this record's own terms cost (RFC 7208 §4.6.4). */
  lookups?: number | undefined;
  /** DNS queries that found nothing, made for this record's terms (limit 2 in all). */
  voidLookups?: number | undefined;
  /** Why this branch stops, in words, when it does. */
  problem?: string | undefined;
  children: SpfTreeNode[];
}

type Loose = Record<string, unknown>;

/** The reasons @bimi/email-auth's SPF walk gives for a branch that stops (SpfNode.problem). */
const PROBLEM_WORDS: Record<string, string> = {
  missing: 'No SPF record here: receivers treat this include as a permanent error.',
  multiple: 'Several SPF records here: receivers treat that as a permanent error.',
  'dns-error': 'The DNS lookup failed, so this branch could not be checked.',
  loop: 'Include loop: this record is already being evaluated higher up.',
  invalid: 'This record has invalid terms.',
  macro: 'Uses SPF macros, which depend on each message: not expanded here.',
  truncated: 'Not followed further: the lookup budget of this check ran out.',
};
const MAX_DEPTH = 12;

function asObject(value: unknown): Loose | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : undefined;
}
function firstString(node: Loose, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = node[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}
function firstNumber(node: Loose, keys: readonly string[]): number | undefined {
  for (const key of keys) {
    const value = node[key];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return undefined;
}

function readNode(value: unknown, via: string, depth: number): SpfTreeNode | undefined {
  const node = asObject(value);
  if (!node || depth > MAX_DEPTH) return undefined;
  const domain = firstString(node, ['domain', 'name', 'target']);
  if (!domain) return undefined;
  const recordValue = node['record'];
  const record = typeof recordValue === 'string' ? recordValue : firstString(asObject(recordValue) ?? {}, ['text', 'value']);
  const childList = [node['children'], node['includes']].find(Array.isArray) as unknown[] | undefined;
  const children = (childList ?? []).flatMap((child) => {
    const childObject = asObject(child);
    const childVia = (childObject && firstString(childObject, ['via', 'mechanism', 'kind', 'type'])) ?? 'include';
    const read = readNode(child, childVia, depth + 1);
    return read ? [read] : [];
  });
  const redirect = readNode(node['redirect'], 'redirect', depth + 1);
  if (redirect) children.push(redirect);
  return {
    domain,
    via,
    record,
    lookups: firstNumber(node, ['lookups', 'lookupCount', 'ownLookups']),
    voidLookups: firstNumber(node, ['voidLookups']),
    problem: ((code) => (code ? (PROBLEM_WORDS[code] ?? code) : undefined))(firstString(node, ['problem', 'error'])),
    children,
  };
}

export interface SpfTreeSummary {
  root?: SpfTreeNode | undefined;
  totalLookups?: number | undefined;
  voidLookups?: number | undefined;
  /** The walk stopped at its bounds: the count is a lower bound. */
  truncated: boolean;
}

export function spfTreeFrom(details: Loose | undefined): SpfTreeSummary {
  if (!details) return { truncated: false };
  return {
    root: readNode(details['tree'], 'root', 0),
    totalLookups: firstNumber(details, ['lookups']),
    voidLookups: firstNumber(details, ['voidLookups']),
    truncated: details['truncated'] === true,
  };
}
