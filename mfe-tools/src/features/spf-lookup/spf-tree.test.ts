import { spfTreeFrom } from './spf-tree';

describe('spfTreeFrom', () => {
  it('reads the include/redirect tree of an SPF answer, with lookups and the reason a branch stops', () => {
    const summary = spfTreeFrom({
      domain: 'example.com',
      lookups: 12,
      voidLookups: 1,
      truncated: false,
      tree: {
        domain: 'example.com',
        via: 'root',
        record: 'v=spf1 include:a.example redirect=b.example',
        lookups: 2,
        voidLookups: 0,
        children: [
          { domain: 'a.example', via: 'include', qualifier: '+', lookups: 0, voidLookups: 1, children: [], problem: 'missing' },
          { domain: 'b.example', via: 'redirect', record: 'v=spf1 -all', lookups: 0, voidLookups: 0, children: [] },
        ],
      },
    });
    expect(summary.totalLookups).toBe(12);
    expect(summary.voidLookups).toBe(1);
    expect(summary.root?.children.map((child) => [child.domain, child.via])).toEqual([['a.example', 'include'], ['b.example', 'redirect']]);
    expect(summary.root?.children[0]?.problem).toBe('No SPF record here: receivers treat this include as a permanent error.');
    expect(summary.root?.children[1]?.record).toBe('v=spf1 -all');
  });

  it('shows nothing for an answer without a tree, and skips nodes it cannot read', () => {
    expect(spfTreeFrom(undefined)).toEqual({ truncated: false });
    expect(spfTreeFrom({ lookups: 0 }).root).toBeUndefined();
    const odd = spfTreeFrom({ tree: { domain: 'x.example', children: [null, 'text', { via: 'include' }, { domain: 'ok.example', children: [] }] } });
    expect(odd.root?.children.map((child) => child.domain)).toEqual(['ok.example']);
  });

  it('stops at a depth bound however deep the tree is', () => {
    let node: Record<string, unknown> = { domain: 'leaf.example', children: [] };
    for (let depth = 0; depth < 50; depth += 1) node = { domain: `d${depth}.example`, children: [node] };
    let deepest = 0;
    for (let current = spfTreeFrom({ tree: node }).root; current; current = current.children[0]) deepest += 1;
    expect(deepest).toBeLessThanOrEqual(13);
  });
});
