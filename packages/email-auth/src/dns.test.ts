import { Resolver } from 'node:dns/promises';
import { describeLookupError, domainExists, lookup, lookupTxt, type DnsResolver } from './dns';
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

describe('domainExists', () => {
  const dns = memoryResolver({
    'x.test': { TXT: ['hello'] },
    'mx-only.test': { MX: [{ exchange: 'mx.test', priority: 1 }] },
    'default._bimi.brand.test': { TXT: ['v=BIMI1; l=https://brand.test/logo.svg'] },
    'www.x.test': { CNAME: ['x.test'] },
    'dangling.test': { CNAME: ['gone.test'] },
    'broken.test': { error: 'ESERVFAIL' },
    'slow.test': { error: 'ETIMEOUT' },
  });

  it('is no only for NXDOMAIN', async () => {
    expect(await domainExists('nope.test', dns)).toBe(false);
    expect(await domainExists('nope.brand.test', dns)).toBe(false);
  });

  it('is yes for a name with records of any type, or with only names under it (NODATA)', async () => {
    expect(await domainExists('x.test', dns)).toBe(true);
    expect(await domainExists('mx-only.test', dns)).toBe(true);
    expect(await domainExists('_bimi.brand.test', dns)).toBe(true);
    expect(await domainExists('brand.test', dns)).toBe(true);
  });

  it('is yes for an alias, even one whose target does not exist: the CNAME is a record of its own', async () => {
    expect(await domainExists('www.x.test', dns)).toBe(true);
    expect(await domainExists('dangling.test', dns)).toBe(true);
    expect(await domainExists('gone.test', dns)).toBe(false);
  });

  it('is yes when the lookup fails: a failure is no answer', async () => {
    expect(await domainExists('broken.test', dns)).toBe(true);
    expect(await domainExists('slow.test', dns)).toBe(true);
  });

  it('asks one question, for the name itself', async () => {
    const asked = memoryResolver({ 'x.test': { A: ['192.0.2.1'] } });
    await domainExists('x.test', asked);
    expect(asked.queries).toEqual(['CNAME x.test']);
  });
});
