import type { CertificateDetails } from '@bimi/contracts/orders';
import { snapshotChanges, snapshotDatabase } from './db-snapshot';
import { bestLoopCostOf, overBudget } from './event-loop-budget';
import { slowLogo } from './fixtures/tools/hostile';
import { startToolFixtures, type ToolFixtures } from './fixtures/tools/start';
import { type Browser, freshClientAddress, signedInUser, startIdentityStore, type IdentityStore } from './identity-fixtures';
import { buyer, detailsFor, placeCheckout, type Buyer } from './orders-fixtures';

/**
 * Issue 31's findings that held the event loop, each replayed against the real app: while the
 * attacker's request runs, /api/health answers within 200 ms.
 */
jest.setTimeout(120_000);

/**
 * The issue's bar for each finding: /api/health answers within 200 ms while the attacker's request
 * runs, so the loop is never held that long (it held 2 to 16 s before). The 50 ms budget of every
 * route is test/fuzz.test.ts's; this file keeps the findings' own bar, which a machine shared by
 * many (load 12 on 2 cores) still meets.
 */
const FINDING_LOOP_BUDGET_MS = 200;

let fixtures: ToolFixtures;
let store: IdentityStore;
let owner: Browser;

beforeAll(async () => {
  fixtures = await startToolFixtures();
  store = await startIdentityStore({ name: 'SQLite', postgres: false, redis: false }, { ...fixtures.env, MONITOR_SCHEDULER_SECONDS: '0', LOG_LEVEL: 'warn' });
  store.clock.now = Date.now();
  owner = await signedInUser(store, 'Ada Attacker', 'ada@loop.test', freshClientAddress());
  // As a listening server does when it starts: the worker threads load before the first request.
  expect(await store.app.untrustedFiles.warmUp()).toBe(true);
}, 120_000);
afterAll(async () => {
  await store.cleanUp();
  await fixtures.close();
});

describe('finding 1: the assistant over a 56 KB DMARC record of p=', () => {
  beforeAll(async () => {
    const created = await owner.write('POST', '/api/account/monitors/create', { domain: 'dmarc-huge.example' });
    expect(created.statusCode).toBe(201);
    expect((await owner.write('POST', '/api/account/monitors/create', { domain: 'dmarc-tokens.example' })).statusCode).toBe(201);
  });

  it.each(['dmarc-huge.example', 'dmarc-tokens.example'])('answers GET …/%s/assistant without holding the event loop', async (domain) => {
    const cost = await bestLoopCostOf(store.app, () => owner.request({ url: `/api/account/monitors/${domain}/assistant` }));
    expect(cost.result.statusCode).toBe(200);
    expect(JSON.stringify(cost.result.json())).toContain('p=none');
    if (process.env.LOOP_DEBUG) console.log(cost);
    expect(overBudget(cost, FINDING_LOOP_BUDGET_MS)).toEqual([]);
  });

  it('limits the assistant’s context per user: 60 in 10 minutes, then 429', async () => {
    const other = await signedInUser(store, 'Ola Other', 'ola@loop.test', freshClientAddress());
    const answers: number[] = [];
    for (let index = 0; index < 61; index += 1) answers.push((await other.request({ url: '/api/account/monitors/dmarc-none.example/assistant', ip: freshClientAddress() })).statusCode);
    expect(answers.slice(0, 60).every((status) => status === 404)).toBe(true);
    expect(answers[60]).toBe(429);
  });
});

describe('finding 2: order details with logos that xmldom reads slowly', () => {
  let customer: Buyer;
  let orderId: string;
  let details: CertificateDetails;

  beforeAll(async () => {
    customer = await buyer(store, 'Lou Logo', 'lou@loop.test', freshClientAddress());
    const placed = await placeCheckout(store, customer.userId, [{ productId: 'verified-mark-certificate', domains: 1, years: 1 }]);
    orderId = placed.orders[0]?.id as string;
    details = await detailsFor(customer, ['good.example']);
  });

  it('reads 8 parallel 32 KB logos of `<` in the worker threads: 400 for each, the event loop free', async () => {
    const token = await customer.browser.csrfToken();
    const hostile = { ...details, logoSvg: slowLogo(32_000) };
    const before = await snapshotDatabase(store.app.db);
    const cost = await bestLoopCostOf(store.app, () =>
      Promise.all(
        Array.from({ length: 8 }, () => customer.browser.request({ method: 'PUT', url: `/api/account/orders/${orderId}/details`, json: hostile, headers: { 'x-csrf-token': token } })),
      ),
    );
    for (const answer of cost.result) {
      expect([400, 503]).toContain(answer.statusCode);
      expect(answer.json().message).toMatch(/^details\.logoSvg: /);
    }
    expect(cost.result.some((answer) => answer.statusCode === 400)).toBe(true);
    expect(snapshotChanges(before, await snapshotDatabase(store.app.db))).toEqual({});
    expect(overBudget(cost, FINDING_LOOP_BUDGET_MS)).toEqual([]);
  });

  it('still takes a good logo, and limits the details per user: 30 in 10 minutes', async () => {
    const token = await customer.browser.csrfToken();
    const put = () => customer.browser.request({ method: 'PUT', url: `/api/account/orders/${orderId}/details`, json: details, headers: { 'x-csrf-token': token } });
    const first = await put();
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-store');
    const statuses: number[] = [];
    for (let index = 0; index < 30; index += 1) statuses.push((await put()).statusCode);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('finding 5: every signed-in answer says Cache-Control: private, no-store', () => {
  it.each([
    '/api/account/profile',
    '/api/account/orders',
    '/api/account/billing/transactions',
    '/api/account/billing/payment-methods',
    '/api/account/organizations',
    '/api/account/monitors',
    '/api/account/contacts',
    '/api/account/no-such-thing',
  ])('GET %s', async (url) => {
    const answer = await owner.request({ url });
    expect(answer.statusCode).toBeLessThan(500);
    expect(answer.headers['cache-control']).toBe('private, no-store');
  });
});

describe('finding 6: deeply nested JSON', () => {
  it.each([
    ['a 1 MB array 400,000 levels deep', '['.repeat(400_000) + ']'.repeat(400_000)],
    ['objects 200,000 levels deep', '{"a":'.repeat(200_000) + '1' + '}'.repeat(200_000)],
  ])('refuses %s with 400 before parsing it, the event loop free', async (_case, payload) => {
    const token = await owner.csrfToken();
    // The checkout takes bodies of 1 MB (every other route 64 KB at most, refused by their length).
    const cost = await bestLoopCostOf(store.app, () =>
      owner.request({ method: 'POST', url: '/api/account/checkout', payload: payload.slice(0, 1024 * 1024 - 1), headers: { 'content-type': 'application/json', 'x-csrf-token': token } }),
    );
    expect(cost.result.statusCode).toBe(400);
    expect(cost.result.json().message).toBe('The JSON body is nested more than 64 levels deep');
    expect(overBudget(cost, FINDING_LOOP_BUDGET_MS)).toEqual([]);
  });

  it('still reads JSON with deep strings and 64 levels', async () => {
    const token = await owner.csrfToken();
    const deepButFine = `${'['.repeat(64)}"[[[[{{{{"${']'.repeat(64)}`;
    const answer = await owner.request({ method: 'PATCH', url: '/api/account/profile', payload: deepButFine, headers: { 'content-type': 'application/json', 'x-csrf-token': token } });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).not.toMatch(/nested/);
  });
});

describe('a body of 80,000 keys (the review of 2026-11-28)', () => {
  const manyKeys = `{${Array.from({ length: 80_000 }, (_, index) => `"${index.toString(36)}":0`).join(',')}}`;

  it('is refused by its length before it is read where a route takes 64 KB, even without a token or a route', async () => {
    for (const url of ['/api/auth/signout', '/api/no-such-route']) {
      const cost = await bestLoopCostOf(store.app, () =>
        store.app.inject({ method: 'POST', url, payload: manyKeys, headers: { 'content-type': 'application/json' }, remoteAddress: freshClientAddress() }),
      );
      expect(cost.result.statusCode).toBe(413);
      expect(overBudget(cost, FINDING_LOOP_BUDGET_MS)).toEqual([]);
    }
  });

  it('is refused by its count of values before it is parsed where a route takes 1 MB', async () => {
    const token = await owner.csrfToken();
    const cost = await bestLoopCostOf(store.app, () =>
      owner.request({ method: 'POST', url: '/api/account/checkout', payload: manyKeys, headers: { 'content-type': 'application/json', 'x-csrf-token': token } }),
    );
    expect(cost.result.statusCode).toBe(400);
    expect(cost.result.json().message).toBe('The JSON body holds more than 16,384 values');
    expect(overBudget(cost, FINDING_LOOP_BUDGET_MS)).toEqual([]);
  });
});

describe('the budget test’s own finding: a body of thousands of bad values', () => {
  it('names the first 10 problems and reads no further, the event loop free', async () => {
    const token = await owner.csrfToken();
    const item = {
      productId: 'verified-mark-certificate',
      domains: 250,
      years: 1,
      details: { organizationId: '', domains: Array.from({ length: 250 }, () => ''), logoSvg: '', contacts: { legal: '', technical: '', billing: '' } },
    };
    const payload = JSON.stringify({ items: Array.from({ length: 12 }, () => item) });
    const cost = await bestLoopCostOf(store.app, () =>
      owner.request({ method: 'POST', url: '/api/account/checkout', payload, headers: { 'content-type': 'application/json', 'x-csrf-token': token } }),
    );
    expect(cost.result.statusCode).toBe(400);
    const { message } = cost.result.json() as { message: string };
    expect(message.split('; ')).toHaveLength(10);
    expect(message).toMatch(/^items\.0\.details\.organizationId: /);
    expect(overBudget(cost, FINDING_LOOP_BUDGET_MS)).toEqual([]);
  });
});
