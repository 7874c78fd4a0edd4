import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createFixturePki } from '../../../../test/fixtures/tools/pki';
import { FetchRefusedError, type FetchLimits, type SafeFetch } from '../../../services/tools/ports';
import { createSafeFetch, isAllowedAddress } from './safe-fetch';

// Two HTTPS servers on the same port of two loopback addresses, each answering its own name and
// counting the TLS connections made to it: which address a fetch really reached, and whether it
// reused a kept-alive connection or opened a new one.
const HOST = 'logos.fixture.example';
const LIMITS: FetchLimits = { maxBytes: 1024, timeoutMs: 5000, maxRedirects: 0, accept: 'text/plain' };

interface CountingServer {
  server: Server;
  connections: number;
}

let servers: CountingServer[];
let port: number;
let answer: string[];
let safeFetch: SafeFetch;

async function listen(address: string, tls: { cert: string; key: string }, listenPort: number): Promise<CountingServer> {
  const counting: CountingServer = { server: createServer(tls, (_request, response) => response.end(address)), connections: 0 };
  counting.server.on('secureConnection', () => {
    counting.connections += 1;
  });
  await new Promise<void>((resolve) => counting.server.listen(listenPort, address, resolve));
  return counting;
}

beforeAll(async () => {
  const pki = await createFixturePki([HOST]);
  const tls = { cert: pki.tlsCertPem, key: pki.tlsKeyPem };
  const first = await listen('127.0.0.1', tls, 0);
  port = (first.server.address() as AddressInfo).port;
  servers = [first, await listen('127.0.0.2', tls, port)];
  const resolver = {
    resolve4: async () => answer,
    resolve6: async () => Promise.reject(Object.assign(new Error('no AAAA'), { code: 'ENODATA' })),
  } as unknown as Parameters<typeof createSafeFetch>[0]['resolver'];
  safeFetch = createSafeFetch({ resolver, allowLoopback: true, extraCa: pki.tlsCaPem });
});

afterAll(async () => {
  for (const { server } of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('safeFetch connections', () => {
  it('reuses one connection per checked address, and still checks the address on every fetch', async () => {
    const url = `https://${HOST}:${port}/logo.svg`;
    answer = ['127.0.0.1'];
    for (let index = 0; index < 3; index += 1) {
      const fetched = await safeFetch(url, LIMITS);
      expect(fetched).toMatchObject({ address: '127.0.0.1', body: Buffer.from('127.0.0.1') });
    }
    expect(servers.map((counting) => counting.connections)).toEqual([1, 0]);

    // A new DNS answer is checked and connected to; the open connection to the old address is not used.
    answer = ['127.0.0.2'];
    expect(await safeFetch(url, LIMITS)).toMatchObject({ address: '127.0.0.2', body: Buffer.from('127.0.0.2') });
    expect(servers.map((counting) => counting.connections)).toEqual([1, 1]);

    // Nor when the answer turns private: refused before any request, though connections to the host are open.
    answer = ['10.0.0.7'];
    await expect(safeFetch(url, LIMITS)).rejects.toMatchObject({ reason: 'blocked-address' } satisfies Partial<FetchRefusedError>);
    answer = ['127.0.0.1'];
    expect(await safeFetch(url, LIMITS)).toMatchObject({ address: '127.0.0.1' });
    expect(servers.map((counting) => counting.connections)).toEqual([1, 1]);
  });
});

describe('which addresses are fetched from (issue 10, finding 7)', () => {
  it.each([
    // IPv4-compatible IPv6 (::a.b.c.d, deprecated): ipaddr.js calls these "unicast".
    '::127.0.0.1',
    '::7f00:1',
    '::a9fe:a9fe',
    '::169.254.169.254',
    '::a00:1',
    '::10.0.0.1',
    '::1.1.1.1',
    // IPv4-mapped, judged as the IPv4 address they reach.
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    // IPv4-translated (RFC 6145), NAT64 (RFC 6052, RFC 8215), 6to4, Teredo: handed to a gateway that reaches an IPv4 address.
    '::ffff:0:127.0.0.1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a00:1',
    '64:ff9b:1::a9fe:a9fe',
    '2002:7f00:1::1',
    '2002:a00:1::',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    // Other space outside global unicast, and the special ranges inside it.
    '::',
    '::1',
    '::2',
    '100::1',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'ff02::1',
    '2001:db8::1',
    '3fff::1',
    // IPv4 that is not public.
    '127.0.0.1',
    '10.1.2.3',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '192.0.0.192',
    '168.63.129.16',
    '255.255.255.255',
    // Not addresses.
    'fe80::1%eth0',
    'localhost',
    '',
  ])('refuses %s', (address) => {
    expect(isAllowedAddress(address, false)).toBe(false);
  });

  it.each(['93.184.215.14', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:93.184.215.14'])('allows the public address %s', (address) => {
    expect(isAllowedAddress(address, false)).toBe(true);
  });

  it('allows loopback only when told to, and never an IPv4-compatible or NAT64 form of it', () => {
    expect(isAllowedAddress('127.0.0.1', true)).toBe(true);
    expect(isAllowedAddress('::1', true)).toBe(true);
    expect(isAllowedAddress('::ffff:127.0.0.1', true)).toBe(true);
    for (const address of ['::127.0.0.1', '::7f00:1', '64:ff9b::127.0.0.1', '2002:7f00:1::1']) expect(isAllowedAddress(address, true)).toBe(false);
  });

  it.each(['[::127.0.0.1]', '[::a9fe:a9fe]', '[::a00:1]', '[64:ff9b::a9fe:a9fe]', '[2002:a9fe:a9fe::1]', '[::ffff:0:a9fe:a9fe]'])('refuses https://%s/ before connecting', async (host) => {
    const fetching = safeFetch(`https://${host}:${port}/logo.svg`, LIMITS);
    await expect(fetching).rejects.toMatchObject({ reason: 'blocked-address', message: expect.stringMatching(/private, local or reserved address/) } satisfies Partial<FetchRefusedError>);
  });

  it('refuses a host whose DNS answer is an IPv4-compatible address, before connecting', async () => {
    const resolver = {
      resolve4: async () => Promise.reject(Object.assign(new Error('no A'), { code: 'ENODATA' })),
      resolve6: async () => ['::7f00:1'],
    } as unknown as Parameters<typeof createSafeFetch>[0]['resolver'];
    const fetchV6 = createSafeFetch({ resolver, allowLoopback: true });
    await expect(fetchV6(`https://${HOST}:${port}/logo.svg`, LIMITS)).rejects.toMatchObject({ reason: 'blocked-address', message: expect.stringMatching(/resolves to ::7f00:1/) });
  });
});
