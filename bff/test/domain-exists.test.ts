import { domainExists, lookup } from '@bimi/email-auth/dns';
import { createResolver } from '../src/plugins/app/platform/dns';
import { startFixtureDns, type FixtureDns } from './fixtures/tools/dns-server';

// The one rule Add Monitor and the tools ask (@bimi/email-auth `domainExists`), against a DNS server
// on the wire and Node's resolver as the bff makes it: what NXDOMAIN and NODATA look like there.
let dns: FixtureDns;
let resolver: ReturnType<typeof createResolver>;

beforeAll(async () => {
  dns = await startFixtureDns({
    'brand.test': [
      { type: 'SOA', primary: 'ns.brand.test', admin: 'hostmaster.brand.test', serial: 1 },
      { type: 'TXT', text: 'v=spf1 -all' },
    ],
    'a-only.brand.test': [{ type: 'A', address: '192.0.2.1' }],
    'default._bimi.brand.test': [{ type: 'TXT', text: 'v=BIMI1; l=https://brand.test/logo.svg' }],
    'www.brand.test': [{ type: 'CNAME', target: 'brand.test' }],
    'old.brand.test': [{ type: 'CNAME', target: 'gone.brand.test' }],
    'broken.test': { fault: 'servfail' },
  });
  resolver = createResolver({ servers: [dns.server], timeoutMs: 1000 });
});
afterAll(async () => {
  resolver.cancel();
  await dns.close();
});

describe('domainExists on the wire', () => {
  it.each([
    ['brand.test', 'records of its own'],
    ['a-only.brand.test', 'no TXT or SOA, an A record (NODATA for other types)'],
    ['_bimi.brand.test', 'only a name under it (an empty non-terminal: NODATA)'],
    ['www.brand.test', 'an alias'],
    ['old.brand.test', 'an alias whose target does not exist'],
    ['broken.test', 'a server failure: no answer, so not "no such domain"'],
  ])('%s exists: %s', async (name) => {
    expect(await domainExists(name, resolver)).toBe(true);
  });

  it.each(['nope.test', 'nope.brand.test', 'gone.brand.test', 'x.gone.brand.test'])('%s does not (NXDOMAIN)', async (name) => {
    expect(await domainExists(name, resolver)).toBe(false);
  });

  it('asks the name itself: a TXT or SOA query of an alias answers for its target (RFC 6604)', async () => {
    // Why not TXT (the tools' question before) or SOA (Add Monitor's): both disagree with the rule here.
    expect(await lookup(() => resolver.resolveTxt('old.brand.test'))).toMatchObject({ status: 'none', code: 'ENOTFOUND' });
    expect(await lookup(() => resolver.resolveSoa('old.brand.test'))).toMatchObject({ status: 'none', code: 'ENOTFOUND' });
    expect(await lookup(() => resolver.resolveCname('old.brand.test'))).toEqual({ status: 'found', value: ['gone.brand.test'] });
  });
});
