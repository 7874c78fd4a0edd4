import type { SpfDetails, SpfNode } from '@bimi/contracts/tools';

/** One record of the SPF include/redirect tree as the page shows it: a branch that stops says why, in words. */
export interface SpfTreeNode {
  domain: string;
  /** How the parent reached this record: include, redirect (or the root). */
  via: SpfNode['via'];
  record?: string | undefined;
  /** DNS lookups this record's own terms cost (RFC 7208 §4.6.4). */
  lookups: number;
  /** DNS queries that found nothing, made for this record's terms (limit 2 in all). */
  voidLookups: number;
  /** Why this branch stops, in words, when it does. */
  problem?: string | undefined;
  children: SpfTreeNode[];
}

/** The reasons @bimi/email-auth's SPF walk gives for a branch that stops (SpfNode.problem). */
const PROBLEM_WORDS: Record<NonNullable<SpfNode['problem']>, string> = {
  missing: 'No SPF record here: receivers treat this include as a permanent error.',
  multiple: 'Several SPF records here: receivers treat that as a permanent error.',
  'dns-error': 'The DNS lookup failed, so this branch could not be checked.',
  loop: 'Include loop: this record is already being evaluated higher up.',
  invalid: 'This record has invalid terms.',
  macro: 'Uses SPF macros, which depend on each message: not expanded here.',
  truncated: 'Not followed further: the lookup budget of this check ran out.',
};

function shownNode(node: SpfNode): SpfTreeNode {
  const { domain, via, record, lookups, voidLookups, problem, children } = node;
  return { domain, via, record, lookups, voidLookups, problem: problem && PROBLEM_WORDS[problem], children: children.map(shownNode) };
}

export interface SpfTreeSummary {
  root?: SpfTreeNode | undefined;
  totalLookups: number;
  voidLookups: number;
  /** The walk stopped at its bounds: the count is a lower bound. */
  truncated: boolean;
}

/** The include/redirect tree of an SPF answer (`details.tree`), with the lookups of the whole walk. */
export function spfTreeFrom({ tree, lookups, voidLookups, truncated }: SpfDetails): SpfTreeSummary {
  return { root: tree && shownNode(tree), totalLookups: lookups, voidLookups, truncated };
}
