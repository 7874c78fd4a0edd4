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
    expect(summary.root?.children.map((child) => [child.domain, child.via])).toEqual([
      ['a.example', 'include'],
      ['b.example', 'redirect'],
    ]);
    expect(summary.root?.children[0]?.problem).toBe('No SPF record here: receivers treat this include as a permanent error.');
    expect(summary.root?.children[1]?.record).toBe('v=spf1 -all');
  });

  it('shows no tree for an answer without one', () => {
    expect(spfTreeFrom({ domain: 'example.com', lookups: 0, voidLookups: 0, truncated: false }).root).toBeUndefined();
  });
});
