import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createFixturePki } from '../../../test/fixtures/tools/pki';
import { createSafeFetch, FetchRefusedError, type FetchLimits, type SafeFetch } from './safe-fetch';

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
