import { byId, expectFixes } from './check-expectations';
import { memoryResolver, type Zone } from './memory-resolver';
import { inspectSpf } from './spf';
import { evaluateSpf } from './spf-evaluate';

/** Flattening advice for a record over RFC 7208 §4.6.4's ten lookups. */

const hosts = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`h${index}.b.test`, { A: [`203.0.113.${index + 1}`] }]));
const zone: Zone = {
  'example.com': { TXT: ['v=spf1 mx include:a.test include:b.test include:c.test -all'], MX: [{ exchange: 'mx.example.com', priority: 1 }] },
  'mx.example.com': { A: ['192.0.2.25'] },
  'a.test': { TXT: ['v=spf1 ip4:192.0.2.0/24 include:a2.test ~all'] },
  'a2.test': { TXT: ['v=spf1 ip6:2001:db8::/32 ip4:198.51.100.0/25 -all'] },
  'b.test': { TXT: [`v=spf1 ${Array.from({ length: 7 }, (_, index) => `a:h${index}.b.test`).join(' ')} -all`] },
  ...hosts(7),
  'c.test': { TXT: ['v=spf1 -ip4:198.51.100.1 +all'] },
};

describe('flatteningAdvice through inspectSpf', () => {
  it('shows what each include costs, most expensive first, and which can be flattened', async () => {
    const result = await inspectSpf('example.com', memoryResolver(zone));
    expect(result.details.lookups).toBe(12);
    expect(result.details.flattening?.includes).toEqual([
      { term: 'include:b.test', lookups: 8, flattenable: false, reason: 'b.test uses a:h0.b.test, whose addresses change with DNS or each message', addresses: [] },
      { term: 'include:a.test', lookups: 2, flattenable: true, addresses: ['ip4:192.0.2.0/24', 'ip6:2001:db8::/32', 'ip4:198.51.100.0/25'] },
      { term: 'include:c.test', lookups: 1, flattenable: false, reason: 'c.test has -ip4:198.51.100.1', addresses: [] },
    ]);
  });

  it('gives a flattened record within the limit, with its risks stated', async () => {
    const result = await inspectSpf('example.com', memoryResolver(zone));
    const flattening = result.details.flattening!;
    expect(flattening.record).toBe('v=spf1 mx ip4:192.0.2.0/24 ip6:2001:db8::/32 ip4:198.51.100.0/25 include:b.test include:c.test -all');
    expect(flattening.recordLookups).toBe(10);
    expect(flattening.risks.join(' ')).toContain('update the record');
    const check = byId(result.checks, 'spf.flatten');
    expect(check?.detail).toContain('include:b.test costs 8');
    expect(check?.detail).toContain('gives 10 lookups');
    expectFixes(result.checks);
  });

  it('the flattened record authorizes the same servers, within the limit', async () => {
    const flattened = (await inspectSpf('example.com', memoryResolver(zone))).details.flattening!.record;
    const after: Zone = { ...zone, 'example.com': { ...zone['example.com'], TXT: [flattened] } };
    for (const ip of ['192.0.2.7', '2001:db8::1', '198.51.100.9', '203.0.113.3', '203.0.113.7', '192.0.2.25']) {
      expect([ip, (await evaluateSpf({ ip, domain: 'example.com' }, memoryResolver(after))).result]).toEqual([ip, 'pass']);
    }
    expect((await evaluateSpf({ ip: '198.51.100.200', domain: 'example.com' }, memoryResolver(after))).result).toBe('pass');
    // Before flattening, the last host of b.test is the 11th lookup: a permanent error for its mail.
    expect((await evaluateSpf({ ip: '203.0.113.7', domain: 'example.com' }, memoryResolver(zone))).result).toBe('permerror');
  });

  it('is not offered within the limit', async () => {
    const result = await inspectSpf('a.test', memoryResolver(zone));
    expect(result.details.flattening).toBeUndefined();
    expect(byId(result.checks, 'spf.flatten')).toBeUndefined();
  });
});
