import { byId, expectFixes } from './check-expectations';
import { inspectCname, inspectRecords, inspectTxt, txtKind } from './dns-records';
import { memoryResolver, type Zone } from './memory-resolver';

const zone: Zone = {
  'example.com': {
    TXT: ['v=spf1 mx -all', ['google-site-verification=abc', 'def'], 'v=spf1 -all'],
    A: ['192.0.2.1'],
    MX: [
      { exchange: 'mx2.example.com', priority: 20 },
      { exchange: 'mx1.example.com', priority: 10 },
    ],
    NS: ['ns1.example.com'],
    SOA: [{ nsname: 'ns1.example.com', hostmaster: 'hostmaster.example.com', serial: 1, refresh: 2, retry: 3, expire: 4, minttl: 5 }],
    CAA: [{ critical: 0, issue: 'letsencrypt.org' }],
  },
  '_dmarc.example.com': { TXT: ['v=DMARC1; p=reject'] },
  'www.example.com': { CNAME: ['example.com'] },
  'alias.example.com': { CNAME: ['www.example.com'] },
  'dangling.example.com': { CNAME: ['gone.example.net'] },
  'loop1.example.com': { CNAME: ['loop2.example.com'] },
  'loop2.example.com': { CNAME: ['loop1.example.com'] },
  'apex.example': { CNAME: ['elsewhere.example.net'] },
  'elsewhere.example.net': { A: ['192.0.2.9'] },
  'down.example': { error: 'ESERVFAIL' },
};

describe('inspectTxt', () => {
  it('lists the records with their kind, joins split strings and fails two SPF records', async () => {
    const result = await inspectTxt('example.com', memoryResolver(zone));
    expect(result.details?.records.map((record) => [record.value, record.kind])).toEqual([
      ['v=spf1 mx -all', 'SPF'],
      ['google-site-verification=abcdef', 'domain verification'],
      ['v=spf1 -all', 'SPF'],
    ]);
    expect(byId(result.checks, 'txt.duplicate.spf')?.status).toBe('fail');
    expectFixes(result.checks);
  });

  it('tells a missing name from a name without TXT, and a DNS failure from both', async () => {
    expect((await inspectTxt('nothing.example', memoryResolver(zone))).details).toEqual({ exists: false, records: [] });
    expect((await inspectTxt('www.example.com', memoryResolver(zone))).details).toEqual({ exists: true, records: [] });
    expect((await inspectTxt('down.example', memoryResolver(zone))).checks[0]).toMatchObject({ id: 'txt.lookup', status: 'unreachable' });
  });

  it('txtKind knows DMARC1 case-insensitively by tag name, as receivers do', () => {
    expect(txtKind('V=DMARC1; p=none')).toBe('DMARC');
    expect(txtKind('v=dmarc1; p=none')).toBeUndefined();
    expect(txtKind('v=BIMI1; l=')).toBe('BIMI');
    expect(txtKind('hello')).toBeUndefined();
  });
});

describe('inspectCname', () => {
  it.each([
    ['alias.example.com', 'cname.target', 'pass', ['alias.example.com', 'www.example.com', 'example.com']],
    ['dangling.example.com', 'cname.target', 'warn', ['dangling.example.com', 'gone.example.net']],
    ['loop1.example.com', 'cname.loop', 'fail', ['loop1.example.com', 'loop2.example.com', 'loop1.example.com']],
    ['apex.example', 'cname.apex', 'fail', ['apex.example', 'elsewhere.example.net']],
  ])('%s → %s %s', async (name, id, status, chain) => {
    const result = await inspectCname(name, memoryResolver(zone));
    expect(byId(result.checks, id)?.status).toBe(status);
    expect(result.details?.chain).toEqual(chain);
    expectFixes(result.checks);
  });
});

describe('inspectRecords', () => {
  it('reads every record type at once, each failure its own check', async () => {
    const result = await inspectRecords('example.com', memoryResolver(zone));
    expect(byId(result.checks, 'records.mx')?.detail).toBe('10 mx1.example.com, 20 mx2.example.com');
    expect(byId(result.checks, 'records.spf')?.status).toBe('fail');
    expect(result.records).toContainEqual({ name: 'example.com', type: 'CAA', value: '0 issue "letsencrypt.org"' });
    expect(result.records).toContainEqual({ name: 'example.com', type: 'SOA', value: 'ns1.example.com hostmaster.example.com 1 2 3 4 5' });
    expect(result.details?.lookups.find((lookup) => lookup.id === 'dmarc')).toMatchObject({ status: 'found', count: 1 });
    const down = await inspectRecords('down.example', memoryResolver(zone));
    for (const id of ['records.a', 'records.mx', 'records.txt', 'records.spf']) expect([id, byId(down.checks, id)?.status]).toEqual([id, 'unreachable']);
    expectFixes(down.checks);
  });
});
