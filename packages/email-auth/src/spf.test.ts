import { byId, expectFixes, ids } from './check-expectations';
import { memoryResolver, type Zone } from './memory-resolver';
import { buildSpfRecord, inspectSpf, parseSpf, type SpfNode } from './spf';
import { evaluateSpf } from './spf-evaluate';
import { splitTxt } from './txt';

describe('parseSpf', () => {
  it('RFC 7208 §4.6.1: reads every mechanism and modifier with its qualifier', () => {
    const { isSpf, record, checks } = parseSpf(
      'v=spf1 +a mx/24 a:mail.example.com/24//64 -ip4:192.0.2.0/24 ip6:2001:db8::/32 ~include:_spf.example.net ?exists:%{i}.bl.example.org ptr:example.com redirect=_spf.example.com exp=explain.example.com',
    );
    expect(isSpf).toBe(true);
    expect(record.invalid).toEqual([]);
    expect(record.terms.map((term) => (term.kind === 'mechanism' ? `${term.qualifier}${term.name}` : `${term.name}=`))).toEqual([
      '+a',
      '+mx',
      '+a',
      '-ip4',
      '+ip6',
      '~include',
      '?exists',
      '+ptr',
      'redirect=',
      'exp=',
    ]);
    expect(record.terms[1]).toMatchObject({ name: 'mx', cidr4: 24 });
    expect(record.terms[2]).toMatchObject({ name: 'a', value: 'mail.example.com', cidr4: 24, cidr6: 64 });
    expect(record.terms[4]).toMatchObject({ name: 'ip6', value: '2001:db8::', cidr6: 32 });
    expect(record).toMatchObject({ redirect: '_spf.example.com', exp: 'explain.example.com' });
    expect(ids(checks)).toEqual(['spf.all.redirect', 'spf.ptr', 'spf.macros']);
    expectFixes(checks);
  });

  it.each(['', 'v=spf10 -all', 'spf1 -all', '"v=spf1 -all"'])('%j is not an SPF record', (text) => {
    expect(parseSpf(text)).toMatchObject({ isSpf: false, checks: [{ id: 'spf.version', status: 'fail' }] });
  });

  it.each([
    'ip4:300.1.1.1',
    'ip4:192.0.2.1/33',
    'ip6:2001:db8::/129',
    'ip4:2001:db8::1',
    'include',
    'include:',
    'all:example.com',
    'foo:bar',
    'a:/24',
    'mx:example.com/99',
    'ip4:192.0.2.1/24/1',
    'include:%{z}.example.com',
    'a\t-all',
    'redirect=',
  ])('RFC 7208 §4.6: %j is an invalid term (permerror)', (term) => {
    const { record, checks } = parseSpf(`v=spf1 ${term} -all`);
    expect(record.invalid).toHaveLength(1);
    expect(byId(checks, 'spf.syntax.term')?.status).toBe('fail');
    expectFixes(checks);
  });

  it.each([
    ['v=spf1 -all', 'spf.all.fail', 'pass'],
    ['v=spf1 mx ~all', 'spf.all.softfail', 'pass'],
    ['v=spf1 mx ?all', 'spf.all.neutral', 'warn'],
    ['v=spf1 mx +all', 'spf.all.pass', 'fail'],
    ['v=spf1 mx all', 'spf.all.pass', 'fail'],
    ['v=spf1 mx', 'spf.all.missing', 'warn'],
    ['v=spf1 -all include:example.com', 'spf.all.after', 'warn'],
    ['v=spf1 mx -all redirect=example.com', 'spf.all.after', 'warn'],
    ['v=spf1 redirect=example.com -all', 'spf.redirect.ignored', 'warn'],
    ['v=spf1 redirect=a.example redirect=b.example', 'spf.redirect.duplicate', 'fail'],
    ['v=spf1 ptr -all', 'spf.ptr', 'warn'],
    ['v=spf1 ip4:0.0.0.0/0 -all', 'spf.ip.too-broad', 'fail'],
    [`v=spf1 ${Array.from({ length: 30 }, (_, index) => `ip4:192.0.2.${index}`).join(' ')} -all`, 'spf.record.size', 'warn'],
  ])('%s → %s (%s)', (text, id, status) => {
    const { checks } = parseSpf(text);
    expect(byId(checks, id)?.status).toBe(status);
    expectFixes(checks);
  });

  it('a mechanism name and the version are case-insensitive', () => {
    expect(parseSpf('V=SPF1 MX IP4:192.0.2.1 -ALL').record.invalid).toEqual([]);
  });
});

describe('inspectSpf', () => {
  const chain = (count: number, prefix: string): Zone =>
    Object.fromEntries(
      Array.from({ length: count }, (_, index) => [`${prefix}${index}.test`, { TXT: [`v=spf1 ${index + 1 < count ? `include:${prefix}${index + 1}.test ` : ''}ip4:192.0.2.${index} -all`] }]),
    );

  const zone: Zone = {
    'example.com': { TXT: ['v=spf1 mx include:_spf.provider.test redirect=never.test ~all', 'some-verification=1'], MX: [{ exchange: 'mx.example.com', priority: 10 }] },
    'mx.example.com': { A: ['192.0.2.25'] },
    '_spf.provider.test': { TXT: ['v=spf1 include:_netblocks.provider.test ip4:198.51.100.0/24 ~all'] },
    '_netblocks.provider.test': { TXT: [['v=spf1 ip4:203.0.113.0/24 ', 'ip6:2001:db8::/32 -all']] },
    'none.test': { TXT: ['hello'] },
    'twice.test': { TXT: ['v=spf1 -all', 'v=spf1 mx -all'] },
    'broken.test': { error: 'ESERVFAIL' },
    'deep.test': { TXT: ['v=spf1 include:d0.test -all'] },
    ...chain(11, 'd'),
    'loop-a.test': { TXT: ['v=spf1 include:loop-b.test -all'] },
    'loop-b.test': { TXT: ['v=spf1 include:loop-a.test -all'] },
    'voids.test': { TXT: ['v=spf1 a:gone1.test mx:gone2.test exists:gone3.test include:nospf.test -all'] },
    'nospf.test': { TXT: ['not spf'] },
    'oneVoid.test': { TXT: ['v=spf1 a:gone.test ip4:192.0.2.1 -all'] },
    'redirect.test': { TXT: ['v=spf1 redirect=_spf.redirect.test'] },
    '_spf.redirect.test': { TXT: ['v=spf1 ip4:192.0.2.1 -all'] },
    'missing-redirect.test': { TXT: ['v=spf1 redirect=nowhere.test'] },
    'bad-include.test': { TXT: ['v=spf1 include:bad.test -all'] },
    'bad.test': { TXT: ['v=spf1 ip4:999.1.1.1 -all'] },
    'temp.test': { TXT: ['v=spf1 include:broken.test -all'] },
    'longstring.test': { TXT: [[`v=spf1 ${'ip4:192.0.2.1 '.repeat(20)}-all`]] },
    'manymx.test': { TXT: ['v=spf1 mx -all'], MX: Array.from({ length: 11 }, (_, index) => ({ exchange: `mx${index}.manymx.test`, priority: index })) },
    'near.test': { TXT: [`v=spf1 ${'mx '.repeat(9)}-all`], MX: [{ exchange: 'mx.near.test', priority: 1 }] },
    'after-all.test': { TXT: ['v=spf1 -all include:never-looked-up.test'] },
    'macro.test': { TXT: ['v=spf1 include:%{d1r}.spf.example exists:%{i}.bl.test redirect=%{d}.next.test'] },
  };
  const dns = memoryResolver(zone);

  it('walks includes, counts lookups, joins split strings and returns the tree', async () => {
    const result = await inspectSpf('example.com', dns);
    expect(result.details.lookups).toBe(3);
    expect(result.details.voidLookups).toBe(0);
    const tree = result.details.tree as SpfNode;
    expect(tree.record).toBe('v=spf1 mx include:_spf.provider.test redirect=never.test ~all');
    expect(tree.children[0]).toMatchObject({ domain: '_spf.provider.test', via: 'include', qualifier: '+', lookups: 1 });
    expect(tree.children[0]?.children[0]).toMatchObject({ domain: '_netblocks.provider.test', record: 'v=spf1 ip4:203.0.113.0/24 ip6:2001:db8::/32 -all' });
    expect(result.records.map((record) => record.name)).toEqual(['example.com', '_spf.provider.test', '_netblocks.provider.test']);
    expect(ids(result.checks)).toEqual(['spf.record.found', 'spf.all.softfail', 'spf.redirect.ignored', 'spf.lookups']);
    // A warning keeps the score in the warning band (50–89, verdict model of issue 17).
    expect(result.score).toBe(89);
    // redirect= is ignored because of ~all, so never.test is never queried.
    expect(dns.queries).not.toContain('TXT never.test');
  });

  it('a redirect= is followed and counted', async () => {
    const result = await inspectSpf('redirect.test', dns);
    expect(result.details.lookups).toBe(1);
    expect(result.details.tree?.children[0]).toMatchObject({ domain: '_spf.redirect.test', via: 'redirect' });
    expect(result.score).toBe(100);
  });

  it('RFC 7208 §4.6.4: the 11th DNS-querying term is a permanent error', async () => {
    const result = await inspectSpf('deep.test', dns);
    expect(result.details.lookups).toBe(11);
    const check = byId(result.checks, 'spf.lookups.limit');
    expect(check?.status).toBe('fail');
    expect(check?.detail).toContain('include:d10.test in d9.test');
    expect(result.score).toBeLessThanOrEqual(30);
    expectFixes(result.checks);
  });

  it('warns at 9 or 10 lookups', async () => {
    const result = await inspectSpf('near.test', dns);
    expect(result.details.lookups).toBe(9);
    expect(byId(result.checks, 'spf.lookups.near-limit')?.status).toBe('warn');
  });

  it('RFC 7208 §7: an include or redirect with macros is counted and shown, not followed', async () => {
    const result = await inspectSpf('macro.test', dns);
    expect(result.details.lookups).toBe(3);
    expect(result.details.tree?.children).toEqual([
      { domain: '%{d1r}.spf.example', via: 'include', qualifier: '+', lookups: 0, voidLookups: 0, children: [], problem: 'macro' },
      { domain: '%{d}.next.test', via: 'redirect', qualifier: undefined, lookups: 0, voidLookups: 0, children: [], problem: 'macro' },
    ]);
    expect(byId(result.checks, 'spf.macros')?.status).toBe('info');
  });

  it('terms after all are neither evaluated nor counted', async () => {
    const result = await inspectSpf('after-all.test', dns);
    expect(result.details.lookups).toBe(0);
    expect(dns.queries).not.toContain('TXT never-looked-up.test');
  });

  it('RFC 7208 §5.2: an include loop is detected and ends the walk', async () => {
    const result = await inspectSpf('loop-a.test', dns);
    expect(byId(result.checks, 'spf.loop')?.detail).toContain('loop-a.test → loop-b.test → loop-a.test');
    expect(result.details.tree?.children[0]?.children[0]?.problem).toBe('loop');
  });

  it('RFC 7208 §4.6.4: more than two void lookups is a permanent error', async () => {
    const result = await inspectSpf('voids.test', dns);
    expect(result.details.voidLookups).toBe(3);
    expect(byId(result.checks, 'spf.void.limit')?.status).toBe('fail');
    expect(byId(result.checks, 'spf.include.missing')?.status).toBe('fail');
    const one = await inspectSpf('oneVoid.test', dns);
    expect(byId(one.checks, 'spf.void.lookups')?.status).toBe('warn');
    expectFixes([...result.checks, ...one.checks]);
  });

  it.each([
    ['none.test', 'spf.record.missing'],
    ['nothing-here.test', 'spf.record.missing'],
    ['twice.test', 'spf.record.multiple'],
    ['broken.test', 'spf.lookup.error'],
  ])('%s: %s fails and scores 0', async (domain, id) => {
    const result = await inspectSpf(domain, dns);
    expect(ids(result.checks)).toEqual([id]);
    expect(result.score).toBe(0);
    expectFixes(result.checks);
  });

  it.each([
    ['missing-redirect.test', 'spf.redirect.missing'],
    ['bad-include.test', 'spf.include.invalid'],
    ['temp.test', 'spf.include.error'],
    ['longstring.test', 'spf.txt.string-length'],
    ['manymx.test', 'spf.mx.too-many'],
  ])('%s: %s fails', async (domain, id) => {
    const result = await inspectSpf(domain, dns);
    expect(byId(result.checks, id)?.status).toBe('fail');
    expectFixes(result.checks);
  });

  it('an invalid record is a permanent error and is not walked', async () => {
    const result = await inspectSpf('bad.test', dns);
    expect(ids(result.checks)).toEqual(['spf.record.found', 'spf.syntax.term', 'spf.all.fail']);
    expect(result.score).toBeLessThanOrEqual(30);
  });

  it('rejects what is not a domain', async () => {
    expect(ids((await inspectSpf('not a domain', dns)).checks)).toEqual(['spf.domain.invalid']);
  });
});

describe('inspectSpf: DNS failures and MX hosts (RFC 7208 §2.6.7, §4.6.4)', () => {
  it.each([
    ['a:down.test', 'spf.a.error'],
    ['mx:down.test', 'spf.mx.error'],
    ['exists:down.test', 'spf.exists.error'],
    ['mx:mxdown.test', 'spf.mx.error'],
  ])('a DNS failure resolving %s is reported as a temporary error, not ignored', async (term, id) => {
    const dns = memoryResolver({
      'example.com': { TXT: [`v=spf1 ${term} -all`] },
      'down.test': { error: 'ETIMEOUT' },
      'mxdown.test': { MX: [{ exchange: 'down.test', priority: 1 }] },
    });
    const result = await inspectSpf('example.com', dns);
    expect(byId(result.checks, id)).toMatchObject({ status: 'fail', detail: expect.stringContaining('temperror') });
    expect(result.score).toBeLessThanOrEqual(40);
    expectFixes(result.checks);
  });

  it('the address lookups of MX hosts that find nothing count toward the void-lookup limit', async () => {
    const dns = memoryResolver({
      'example.com': { TXT: ['v=spf1 mx -all'], MX: [1, 2, 3].map((index) => ({ exchange: `gone${index}.test`, priority: index })) },
    });
    const result = await inspectSpf('example.com', dns);
    expect(result.details.voidLookups).toBe(3);
    expect(byId(result.checks, 'spf.void.limit')?.status).toBe('fail');
  });
});

describe('inspectSpf: a crafted record stays a small answer', () => {
  // Each of the 40 records walked added a node and a finding for every term: a record of 60 KB that
  // includes itself gave 137,598 loop findings and an answer of 52 MB, built on the event loop.
  it('a record that includes itself thousands of times, and repeats a failing term, gives each finding once in a bounded tree', async () => {
    // As many as fit within the longest record read (SPF_READ_LIMIT, 4 KB).
    const record = (terms: string) => splitTxt(`v=spf1 ${Array.from({ length: Math.floor(3900 / (terms.length + 1)) }, () => terms).join(' ')} -all`);
    const dns = memoryResolver({
      'example.com': { TXT: [record('include:a.attacker.test')] },
      'a.attacker.test': { TXT: [record('include:a.attacker.test a:down.test')] },
      'down.test': { error: 'ETIMEOUT' },
    });
    const result = await inspectSpf('example.com', dns);
    expect(result.checks.filter((check) => check.id === 'spf.loop')).toHaveLength(1);
    expect(result.checks.filter((check) => check.id === 'spf.a.error')).toHaveLength(1);
    expect(result.records.map((found) => found.name)).toEqual(['example.com', 'a.attacker.test']);
    expect(result.details.truncated).toBe(true);
    const nodes = (node: SpfNode): number => 1 + node.children.reduce((sum, child) => sum + nodes(child), 0);
    expect(nodes(result.details.tree as SpfNode)).toBeLessThanOrEqual(300);
    // The two records (4 KB each) shown where they belong (the tree, the DNS list) are most of it.
    expect(JSON.stringify(result).length).toBeLessThan(250_000);
  });

  // 29,000 "a" terms in 58 KB took about half a second to parse and walk on the bff's event loop.
  it('reports a record longer than it reads without reading its terms, and evaluates it as a permanent error', async () => {
    const dns = memoryResolver({ 'example.com': { TXT: [splitTxt(`v=spf1 ${'a '.repeat(29_000)}-all`)] }, 'mail.example.com': { A: ['192.0.2.1'] } });
    const result = await inspectSpf('example.com', dns);
    expect(byId(result.checks, 'spf.record.unread')).toMatchObject({ status: 'fail', title: 'Record too long to check' });
    expect(byId(result.checks, 'spf.record.unread')?.detail).toContain('is 58,011 bytes long, over the 4,096 this checker reads');
    expect(result.details.lookups).toBe(0);
    // Not counted, so not "within the limit"; scored as the permanent error it is evaluated as.
    expect(byId(result.checks, 'spf.lookups')).toBeUndefined();
    expect(result.score).toBeLessThanOrEqual(30);
    const evaluation = await evaluateSpf({ domain: 'example.com', ip: '192.0.2.1' }, dns);
    expect(evaluation).toMatchObject({ result: 'permerror', reason: 'The record of example.com is 58,011 bytes long, over the 4,096 this checker reads.' });
  });

  it('stops reading an include tree past its budget of terms, and says the counts are lower bounds', async () => {
    const filled = (head: string, terms: number) => splitTxt(`${head}${'ip4:192.0.2.1 '.repeat(terms)}-all`);
    const dns = memoryResolver({
      'example.com': { TXT: [filled('v=spf1 include:one.test include:two.test include:three.test ', 250)] },
      // 254 + 1,900 terms read: past the 2,000, the next records are not.
      'one.test': { TXT: [splitTxt(`v=spf1 ${'a '.repeat(1899)}-all`)] },
      'two.test': { TXT: [filled('v=spf1 ', 10)] },
      'three.test': { TXT: [filled('v=spf1 ', 10)] },
    });
    const result = await inspectSpf('example.com', dns);
    expect(result.details.truncated).toBe(true);
    expect((result.details.tree as SpfNode).children.map((child) => child.problem)).toEqual([undefined, 'truncated', 'truncated']);
    expect(byId(result.checks, 'spf.tree.truncated')?.status).toBe('info');
  });
});

describe('buildSpfRecord', () => {
  it('builds a record and counts its own lookups', () => {
    expect(
      buildSpfRecord({
        domain: 'example.com',
        a: true,
        mx: true,
        ip4: ['192.0.2.0/24'],
        ip6: ['2001:db8::1'],
        includes: ['_spf.google.com', 'include:spf.protection.outlook.com'],
        all: '-',
      }),
    ).toEqual({
      record: 'v=spf1 a mx ip4:192.0.2.0/24 ip6:2001:db8::1 include:_spf.google.com include:spf.protection.outlook.com -all',
      name: 'example.com',
      errors: [],
      lookups: 4,
      strings: ['v=spf1 a mx ip4:192.0.2.0/24 ip6:2001:db8::1 include:_spf.google.com include:spf.protection.outlook.com -all'],
    });
    expect(buildSpfRecord({ all: '-' }).record).toBe('v=spf1 -all');
  });

  it('explains bad input and builds nothing', () => {
    const built = buildSpfRecord({ ip4: ['999.0.0.1'], ip6: ['nope'], includes: ['not a domain'], all: '+' as never });
    expect(built.record).toBe('');
    expect(built.errors).toHaveLength(4);
    expect(buildSpfRecord({}).errors).toHaveLength(1);
    expect(buildSpfRecord({ includes: Array.from({ length: 11 }, (_, index) => `i${index}.example.com`) }).errors[0]).toContain('11 DNS lookups');
  });

  it('splits a long record into strings of at most 255 bytes that join back to it', () => {
    const built = buildSpfRecord({ ip4: Array.from({ length: 40 }, (_, index) => `198.51.100.${index}`) });
    expect(built.strings.length).toBeGreaterThan(1);
    expect(built.strings.join('')).toBe(built.record);
    for (const text of built.strings) expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(255);
    expect(splitTxt('é'.repeat(300)).every((text) => new TextEncoder().encode(text).length <= 255)).toBe(true);
  });
});
