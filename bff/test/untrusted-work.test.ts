import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ToolAnswer, type Check } from '@bimi/contracts/tools';
import { startTestStore, type TestStore } from './fixtures';
import { beginLineFlood, logoBombCertificate } from './fixtures/tools/hostile';
import { startToolFixturesProcess, type ToolFixturesProcess } from './fixtures/tools/process';
import { mainThreadCpuMsDuring, wallMsOf } from './timing';

// Issue 10, findings 1 and 2 and the defence behind them: certificates and logos that strangers
// upload or point the tools at are read in worker threads, with limits, so one request never
// stalls the others. Measured on a real listening server with concurrent requests: an event loop
// blocked by the hostile request shows as a slow GET /api/health. The fixture DNS and HTTPS
// servers run in a process of their own, so their work is not counted against the bff.

const HEALTH_LIMIT_MS = 100;
// A response time is wall-clock time: on a shared machine loaded far past its cores, /api/health
// alone sometimes takes over 100 ms (measured here at load 18: p90 102 ms, max 949 ms, no work
// running). Such a hiccup does not repeat on a second try; a blocked event loop fails every try
// (and the CPU bound below fails it regardless of load).
jest.retryTimes(2, { logErrorsBeforeRetry: true });
const MAX_PROBES = 8;
/** The event loop's CPU for a batch of hostile requests; before the defence one flood took 5 s of it, the slow logo 0.4 s. */
const EVENT_LOOP_CPU_LIMIT_MS = 200;
/** A real (expired) VMC bundle: what a warm-up uploads. */
const PAYPAL = readFileSync(join(__dirname, 'fixtures', 'tools', 'certs', 'paypal_vmc.pem'), 'utf8');

let fixtures: ToolFixturesProcess;

beforeAll(async () => {
  fixtures = await startToolFixturesProcess();
}, 60_000);
afterAll(() => fixtures.close());

interface Server {
  store: TestStore;
  base: string;
}

/** A bff listening on a free port, its worker threads started (listening starts them; this waits for them). */
async function listeningStore(env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const store = await startTestStore({ ...fixtures.env, TOOLS_RATE_LIMIT_PER_MINUTE: '1000', TOOLS_CACHE_TTL_SECONDS: '0', ...env });
  await store.app.listen({ host: '127.0.0.1', port: 0 });
  expect(await store.app.untrustedFiles.warmUp()).toBe(true);
  return { store, base: `http://127.0.0.1:${(store.app.server.address() as AddressInfo).port}` };
}

async function toolAnswer(response: Response): Promise<{ answer: ToolAnswer; bytes: number }> {
  expect(response.status).toBe(200);
  const text = await response.text();
  return { answer: ToolAnswer.parse(JSON.parse(text)), bytes: text.length };
}

const upload = (server: Server, pem: string, domain?: string) =>
  fetch(`${server.base}/api/tools/vmc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pem, domain }) }).then(toolAnswer);
const tool = (server: Server, path: string) => fetch(`${server.base}${path}`).then(toolAnswer);
const check = (answer: ToolAnswer, id: string): Check | undefined => answer.checks.find((item) => item.id === id);

/**
 * Runs `hostile` while asking GET /api/health again and again on the same server: the answers,
 * and how long the slowest health answer took. The first health request leaves before the
 * hostile ones are answered, so every probe overlaps them.
 */
async function whileProbingHealth<T>(server: Server, hostile: () => Promise<T>): Promise<{ result: T; slowestHealthMs: number; probes: number }> {
  const health = async () => {
    const { result: response, ms } = await wallMsOf(async () => {
      const answer = await fetch(`${server.base}/api/health`);
      await answer.arrayBuffer();
      return answer;
    });
    expect(response.status).toBe(200);
    return ms;
  };
  for (let probe = 0; probe < 3; probe += 1) await health();

  let finished = false;
  const work = hostile().finally(() => {
    finished = true;
  });
  const times: number[] = [];
  // At most a few probes, 25 ms apart: enough to overlap the hostile work (a blocked event loop
  // holds the first one), few enough that a busy machine's own hiccups seldom land in them.
  const probe = async () => {
    do {
      times.push(await health());
      await sleep(25);
    } while (!finished && times.length < MAX_PROBES);
  };
  const [result] = await Promise.all([work, probe()]);
  return { result, slowestHealthMs: Math.max(...times), probes: times.length };
}

/**
 * What each test below proves of one kind of hostile request: that it costs the event loop little
 * CPU (robust to a busy machine), then that /api/health answers in under 100 ms while it runs.
 * `warmUp` first makes the same kind of requests with real files, unmeasured, so what is measured
 * is the hostile files, not the first TLS connection to the fixture server or a route's first run.
 */
async function measureHostile<T>(server: Server, warmUp: () => Promise<unknown>, hostile: () => Promise<T>): Promise<T> {
  await warmUp();
  const { cpuMs } = await mainThreadCpuMsDuring(hostile);
  expect(cpuMs).toBeLessThan(EVENT_LOOP_CPU_LIMIT_MS);
  const { result, slowestHealthMs, probes } = await whileProbingHealth(server, hostile);
  expect(probes).toBeGreaterThan(0);
  expect(slowestHealthMs).toBeLessThan(HEALTH_LIMIT_MS);
  return result;
}

describe('hostile certificates and logos (issue 10)', () => {
  let server: Server;
  beforeAll(async () => {
    // A time limit no hostile file here comes near, even on a loaded machine: these tests are about the event loop.
    server = await listeningStore({ TOOLS_WORK_TIMEOUT_MS: '20000' });
  }, 60_000);
  afterAll(() => server.store.cleanUp());

  it('finding 1: refuses a file of 1,300 BEGIN lines at once, four at a time, and keeps answering /api/health', async () => {
    const answers = await measureHostile(
      server,
      () => Promise.all([1, 2, 3, 4].map(() => upload(server, PAYPAL))),
      // A text never seen before each time, so no cache can answer it.
      () => Promise.all([1, 2, 3, 4].map((copy) => upload(server, beginLineFlood(1300, `upload ${copy} ${Math.random()}`)))),
    );
    for (const { answer } of answers) {
      expect(check(answer, 'vmc.pem')).toMatchObject({ status: 'fail', title: 'Too many PEM blocks', detail: expect.stringMatching(/1,300 PEM blocks/), fix: expect.any(String) });
      expect(answer.score).toBe(0);
    }
  }, 60_000);

  it('finding 1: the same file at a certificate address and at a BIMI record’s a=', async () => {
    const answers = await measureHostile(
      server,
      () =>
        Promise.all([
          tool(server, `/api/tools/vmc?url=${encodeURIComponent(`${fixtures.origin}/good/vmc.pem`)}`),
          tool(server, '/api/tools/vmc?domain=bimi-good.example'),
          tool(server, '/api/tools/bimi?domain=bimi-good.example'),
        ]),
      () =>
        Promise.all([
          tool(server, `/api/tools/vmc?url=${encodeURIComponent(`${fixtures.origin}/hostile/pem-flood.pem`)}`),
          tool(server, '/api/tools/vmc?domain=bimi-pem-flood.example'),
          tool(server, '/api/tools/bimi?domain=bimi-pem-flood.example'),
        ]),
    );
    for (const { answer } of answers) expect(check(answer, 'vmc.pem')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/1,300 PEM blocks/) });
  }, 60_000);

  it('finding 2: refuses a certificate whose logo inflates to 33 MB, without inflating it, in a small answer', async () => {
    const bomb = await logoBombCertificate();
    expect(bomb.length).toBeLessThan(64 * 1024);
    const answers = await measureHostile(
      server,
      () => Promise.all([upload(server, PAYPAL, 'paypal.com'), tool(server, '/api/tools/vmc?domain=bimi-good.example'), tool(server, '/api/tools/bimi?domain=bimi-good.example')]),
      () => Promise.all([upload(server, bomb, 'bomb.example'), tool(server, '/api/tools/vmc?domain=bimi-logo-bomb.example'), tool(server, '/api/tools/bimi?domain=bimi-logo-bomb.example')]),
    );
    for (const { answer, bytes } of answers) {
      expect(check(answer, 'vmc.logotype')).toMatchObject({ status: 'fail', title: 'Embedded logo too large', detail: expect.stringMatching(/more than 32 KB/) });
      // The certificate's other checks are still made, and nothing of the logo is sent back.
      expect(check(answer, 'vmc.pem')?.status).toBe('pass');
      expect(bytes).toBeLessThan(16 * 1024);
    }
  }, 60_000);

  it('checks a fetched logo that is slow to read (0.4 s of xmldom) in a worker, while /api/health answers', async () => {
    const { answer } = await measureHostile(
      server,
      () => tool(server, '/api/tools/bimi?domain=bimi-good.example'),
      () => tool(server, '/api/tools/bimi?domain=bimi-slow-logo.example'),
    );
    expect(check(answer, 'svg.xml')?.status).toBe('fail');
  }, 60_000);
});

describe('a check past its time limit', () => {
  let server: Server;
  beforeAll(async () => {
    // 100 ms, the least the setting allows: the slow logo (40 KB, the most a logo fetch takes) takes
    // about 0.2 s to read on an idle machine and longer on a busy one. At 200 ms it sometimes finished.
    server = await listeningStore({ TOOLS_WORK_TIMEOUT_MS: '100' });
  }, 60_000);
  afterAll(() => server.store.cleanUp());

  it('is stopped and answered clearly; its worker is replaced and the next check passes', async () => {
    await tool(server, '/api/tools/bimi?domain=bimi-good.example');
    const { result, slowestHealthMs } = await whileProbingHealth(server, () => tool(server, '/api/tools/bimi?domain=bimi-slow-logo.example'));
    expect(slowestHealthMs).toBeLessThan(HEALTH_LIMIT_MS);
    expect(check(result.answer, 'svg.check')).toMatchObject({ status: 'fail', title: 'Logo not checked', detail: expect.stringMatching(/longer than 0\.1 seconds/) });
    const good = await tool(server, '/api/tools/bimi?domain=bimi-good.example');
    expect(good.answer.checks.filter((item) => item.status === 'fail' || item.status === 'warn')).toEqual([]);
    expect(server.store.logs.entries.some((entry) => /stopped a worker/.test(entry.msg))).toBe(true);
  }, 60_000);
});
