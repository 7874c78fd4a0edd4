import { connect, type AddressInfo, type Socket } from 'node:net';
import { loadConfig } from '../src/config';
import { serverOptions } from '../src/lib/server-options';
import { startTestStore, type TestStore } from './fixtures';

/**
 * Issue 10, finding 6 and "Timeouts": a request trickled in a byte at a time, or headers that never
 * end, no longer hold a connection forever; idle kept-alive connections close; a normal request
 * that takes its time within the limits is answered. Real sockets against the listening bff, with
 * short limits configured so each case takes a second or two.
 */

const LIMITS = { REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '600', KEEP_ALIVE_TIMEOUT_MS: '400', CONNECTION_TIMEOUT_MS: '5000' };

interface Conversation {
  socket: Socket;
  /** Everything the server sent so far. */
  received: () => string;
  /** Resolves with ms since the start when the server closes the connection, or -1 after `withinMs`. */
  closed: (withinMs: number) => Promise<number>;
}

function converse(port: number): Promise<Conversation> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let text = '';
    let closedAt: number | undefined;
    const waiters: (() => void)[] = [];
    const socket = connect({ port, host: '127.0.0.1' }, () =>
      resolve({
        socket,
        received: () => text,
        closed: (withinMs) =>
          new Promise((done) => {
            if (closedAt !== undefined) return done(closedAt);
            const timer = setTimeout(() => done(-1), withinMs);
            waiters.push(() => {
              clearTimeout(timer);
              done(closedAt ?? -1);
            });
          }),
      }),
    );
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closedAt = Date.now() - started;
      for (const wake of waiters.splice(0)) wake();
    });
    socket.once('error', reject);
  });
}

/** Writes `text` one character every `everyMs` until the socket closes or the text ends. */
async function trickle(conversation: Conversation, text: string, everyMs: number): Promise<void> {
  for (const char of text) {
    if (conversation.socket.destroyed || conversation.socket.writableEnded) return;
    conversation.socket.write(char);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

describe('server timeouts', () => {
  let store: TestStore;
  let port: number;
  const open: Socket[] = [];

  beforeAll(async () => {
    store = await startTestStore(LIMITS);
    await store.app.listen({ host: '127.0.0.1', port: 0 });
    port = (store.app.server.address() as AddressInfo).port;
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.destroy();
  });
  afterAll(async () => {
    await store.cleanUp();
  });

  async function talk(): Promise<Conversation> {
    const conversation = await converse(port);
    open.push(conversation.socket);
    return conversation;
  }

  it('answers 408 and closes a request whose body trickles in a byte at a time (Content-Length: 1000, a byte every 100 ms)', async () => {
    const slow = await talk();
    slow.socket.write('POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
    void trickle(slow, 'x'.repeat(1000), 100);
    const closedAfter = await slow.closed(4000);
    expect(closedAfter).toBeGreaterThanOrEqual(900);
    expect(closedAfter).toBeLessThan(2500);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers 408 and closes a request whose headers never end (slowloris)', async () => {
    const slow = await talk();
    slow.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    void trickle(slow, `X-Padding: ${'a'.repeat(200)}`, 50);
    const closedAfter = await slow.closed(4000);
    expect(closedAfter).toBeGreaterThanOrEqual(500);
    expect(closedAfter).toBeLessThan(2000);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection that opens and says nothing', async () => {
    const silent = await talk();
    const closedAfter = await silent.closed(4000);
    expect(closedAfter).toBeGreaterThan(0);
    expect(closedAfter).toBeLessThan(2000);
  });

  it('answers a normal request whose body arrives in pieces within the limit', async () => {
    const body = JSON.stringify({ items: [{ productId: 'verified-mark-certificate', domains: 1, years: 1, logos: 1 }] });
    const patient = await talk();
    patient.socket.write(`POST /api/cart/quote HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`);
    const third = Math.ceil(body.length / 3);
    for (const piece of [body.slice(0, third), body.slice(third, 2 * third), body.slice(2 * third)]) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      patient.socket.write(piece);
    }
    expect(await patient.closed(4000)).toBeGreaterThan(0);
    expect(patient.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(patient.received()).toContain('"currency":"usd"');
  });

  it('closes a kept-alive connection left idle after its answer', async () => {
    const idle = await talk();
    idle.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const closedAfter = await idle.closed(4000);
    expect(idle.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(closedAfter).toBeGreaterThanOrEqual(350);
    expect(closedAfter).toBeLessThan(2000);
  });

  it('sets the configured limits on the server', () => {
    expect(store.app.server.requestTimeout).toBe(1000);
    expect(store.app.server.headersTimeout).toBe(600);
    expect(store.app.server.keepAliveTimeout).toBe(400);
    expect(store.app.server.timeout).toBe(5000);
  });
});

describe('timeout settings', () => {
  it('default to limits no normal request reaches, and are checked often enough to hold', () => {
    const config = loadConfig({});
    expect(config.timeouts).toEqual({ requestMs: 30_000, headersMs: 15_000, keepAliveMs: 72_000, idleMs: 60_000 });
    expect(serverOptions(config)).toEqual({
      trustProxy: false,
      requestTimeout: 30_000,
      connectionTimeout: 60_000,
      keepAliveTimeout: 72_000,
      bodyLimit: 64 * 1024,
      http: { headersTimeout: 15_000, requestTimeout: 30_000, connectionsCheckingInterval: 3750 },
    });
  });

  it('refuses headers allowed longer than the whole request, and values out of range', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '40000' })).toThrow(/HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '5' })).toThrow(/REQUEST_TIMEOUT_MS must be a whole number from 100 to 600000/);
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: 'soon' })).toThrow(/KEEP_ALIVE_TIMEOUT_MS must be a whole number/);
  });
});
