import { Resolver } from 'node:dns/promises';
import { describeLookupError, lookup, lookupTxt, type DnsResolver } from './dns';
import { memoryResolver } from './memory-resolver';

describe('DnsResolver', () => {
  it("is satisfied by Node's dns.promises.Resolver, which the bff passes", () => {
    const node: DnsResolver = new Resolver();
    expect(typeof node.resolveTxt).toBe('function');
  });
});

describe('lookup', () => {
  const dns = memoryResolver({
    'example.com': { TXT: ['one', ['two', ' parts']] },
    'empty.test': { A: ['192.0.2.1'] },
    'timeout.test': { error: 'ETIMEOUT' },
  });

  it('sorts answers into found, none (ENOTFOUND, ENODATA, empty) and error', async () => {
    expect(await lookupTxt(dns, 'example.com')).toEqual({ status: 'found', value: [['one'], ['two', ' parts']] });
    expect(await lookupTxt(dns, 'missing.test')).toEqual({ status: 'none', code: 'ENOTFOUND' });
    expect(await lookupTxt(dns, 'empty.test')).toEqual({ status: 'none', code: 'ENODATA' });
    expect(await lookup(async () => [])).toEqual({ status: 'none', code: 'ENODATA' });
    expect(await lookupTxt(dns, 'timeout.test')).toMatchObject({ status: 'error', code: 'ETIMEOUT' });
  });

  it('turns anything a resolver throws into an error outcome', async () => {
    expect(await lookup(() => Promise.reject(new Error('boom')))).toEqual({ status: 'error', code: 'EUNKNOWN', message: 'boom' });
    expect(await lookup(() => Promise.reject(42))).toEqual({ status: 'error', code: 'EUNKNOWN', message: '42' });
    expect(
      await lookup(() => {
        throw Object.assign(new Error('x'), { code: 'ESERVFAIL' });
      }),
    ).toMatchObject({ status: 'error', code: 'ESERVFAIL' });
  });

  it('describes a failed lookup in words', () => {
    expect(describeLookupError('_dmarc.example.com', { code: 'ETIMEOUT', message: 'queryTxt ETIMEOUT' })).toBe(
      'Looking up _dmarc.example.com failed: the DNS server did not answer in time (ETIMEOUT).',
    );
  });
});
