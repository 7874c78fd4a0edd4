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
  /** Why this branch could not be followed, when it could not. */
  problem?: string | undefined;
  children: SpfTreeNode[];
}

type Loose = Record<string, unknown>;
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
    problem: firstString(node, ['problem', 'error', 'errorMessage']),
    children,
  };
}

export function spfTreeFrom(details: Loose | undefined): { root?: SpfTreeNode | undefined; totalLookups?: number | undefined } {
  if (!details) return {};
  const root = readNode(details['tree'] ?? details['root'] ?? details, 'root', 0);
  return { root, totalLookups: firstNumber(details, ['lookups', 'totalLookups', 'lookupCount']) };
}
