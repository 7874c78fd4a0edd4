import { SITE_API_PATHS } from '@bimi/contracts/api-paths';
import { CONTACT_TOPICS } from '@bimi/contracts/contact';
import { ReadinessResponse } from '@bimi/contracts/health';
import { Client } from 'pg';
import { DATABASE_UNAVAILABLE } from '../src/lib/unavailable';
import { SIGN_UP_MAIL_FAILED } from '../src/routes/api/auth/sign-up';
import { startFaultStore, expectServedWithout } from './faults-fixtures';
import { wallMsOf } from './timing';
import { startToolFixtures, type ToolFixtures } from './fixtures/tools/start';
import { Browser, describePostgres, freshClientAddress, GOOD_PASSWORD, signedInUser, type IdentityStore } from './identity-fixtures';
import { startOwnPostgres, type OwnPostgres } from './own-services';
import { MIXED_CART, startCheckout } from './payments-fixtures';

jest.setTimeout(60_000);

const DAY = 24 * 60 * 60 * 1000;
/** How long a request that needs the database may take to fail while it is down. */
const FAIL_FAST_MS = 2000;
const TOPIC = CONTACT_TOPICS[0]?.value;

/**
 * Issue 16, "faults survived": PostgreSQL restarted under a running bff. The bff runs on a
 * PostgreSQL of this test's own (test/own-services.ts), which the test stops and starts; the
 * machine's shared server (TEST_DATABASE_URL) is never touched. Runs with the PostgreSQL suites.
 */
describePostgres('PostgreSQL restarted under a running bff', () => {
  let postgres: OwnPostgres;
  let fixtures: ToolFixtures;
  let store: IdentityStore;
  let buyer: Browser;

  /** A connection to the test's server for looking at the tables (not the bff's pool). */
  async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
    const client = new Client({ connectionString: postgres.url });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    [postgres, fixtures] = await Promise.all([startOwnPostgres(), startToolFixtures()]);
    store = await startFaultStore({ ...fixtures.env, DATABASE_URL: postgres.url, MONITOR_SCHEDULER_SECONDS: '0' });
    buyer = await signedInUser(store, 'Ada Buyer', 'ada@faults.test', freshClientAddress());
  });
  // A test that failed with the server stopped leaves it running for the next.
  afterEach(async () => {
    if (!postgres.running) await postgres.start();
  });
  afterAll(async () => {
    await store?.cleanUp();
    await Promise.all([postgres?.remove(), fixtures?.close()]);
  });

  it('answers 503 at once where the database is needed while it is down, serves the rest, and recovers by itself', async () => {
    expect((await buyer.request({ url: '/api/account/profile' })).statusCode).toBe(200);
    await postgres.stop('fast');

    // What needs the database: a 503 in our words, quickly, never a hang on the pool or a 500.
    const stranger = new Browser(store.app, freshClientAddress());
    const needy = [
      ['profile', () => buyer.request({ url: '/api/account/profile' })],
      ['orders', () => buyer.request({ url: '/api/account/orders' })],
      ['sign-up', () => stranger.write('POST', '/api/auth/signup', { name: 'Bo Newcomer', email: 'bo@faults.test', password: GOOD_PASSWORD })],
      ['sign-in', () => stranger.signIn('ada@faults.test', GOOD_PASSWORD)],
      [
        'contact',
        () =>
          stranger.request({
            method: 'POST',
            url: '/api/contact',
            headers: { origin: 'http://store.test' },
            json: { name: 'Bo', email: 'bo@faults.test', topic: TOPIC, message: 'A question about certificates, please.' },
          }),
      ],
    ] as const;
    for (const [name, request] of needy) {
      const { result: response, ms } = await wallMsOf(request);
      expect({ name, status: response.statusCode, body: response.json() as unknown }).toEqual({ name, status: 503, body: { message: DATABASE_UNAVAILABLE } });
      expect(response.headers['retry-after']).toBeDefined();
      expect({ name, fast: ms < FAIL_FAST_MS }).toEqual({ name, fast: true });
    }
    // Many at once do not queue up behind each other either.
    const burst = await wallMsOf(() => Promise.all(Array.from({ length: 30 }, () => buyer.request({ url: '/api/account/profile' }))));
    expect(new Set(burst.result.map((response) => response.statusCode))).toEqual(new Set([503]));
    expect(burst.ms).toBeLessThan(2 * FAIL_FAST_MS);

    // The session cookie is not dropped while its store is away: asked, the session is signed out.
    expect(await buyer.session()).toEqual({});
    expect(buyer.cookies.has('bimi.session')).toBe(true);

    await expectServedWithout(store.app, 'PostgreSQL');
    const ready = await store.app.inject({ url: SITE_API_PATHS.ready });
    expect(ready.statusCode).toBe(503);
    const { checks } = ReadinessResponse.parse(ready.json());
    expect(checks.database.status).toBe('failing');
    expect(checks.database.detail).toMatch(/PostgreSQL/);

    // Back: the same bff, not restarted, answers again from its first request, the same session too.
    await postgres.start();
    const profile = await buyer.request({ url: '/api/account/profile' });
    expect(profile.statusCode).toBe(200);
    expect((await buyer.session()).user).toMatchObject({ email: 'ada@faults.test' });
    expect((await store.app.inject({ url: SITE_API_PATHS.ready })).statusCode).toBe(200);
    const signUp = await stranger.write('POST', '/api/auth/signup', { name: 'Bo Newcomer', email: 'bo@faults.test', password: GOOD_PASSWORD });
    expect(signUp.statusCode).toBe(201);
    // Nothing answered 500 meanwhile.
    expect(store.logs.messages().filter((message) => message === 'request failed')).toEqual([]);
  });

  it('leaves no half-written sign-up or checkout when it stops in the middle of their transactions', async () => {
    const buyers = await Promise.all(['Cy', 'Di'].map((name) => signedInUser(store, `${name} Buyer`, `${name.toLowerCase()}@faults.test`, freshClientAddress())));
    const checkoutsBefore = await query<{ n: string }>('select count(*) as n from checkouts');

    // Another session holds both tables the transactions write last, so each sign-up has written
    // its user and each checkout its checkout and order numbers when PostgreSQL stops.
    const locker = new Client({ connectionString: postgres.url });
    locker.on('error', () => undefined);
    await locker.connect();
    await locker.query('begin');
    await locker.query('lock table email_tokens, orders in share row exclusive mode');

    const newcomers = ['eve', 'fay', 'gus'];
    const signUps = newcomers.map((name) =>
      new Browser(store.app, freshClientAddress()).write('POST', '/api/auth/signup', { name: `${name} Newcomer`, email: `${name}@faults.test`, password: GOOD_PASSWORD }),
    );
    const checkouts = buyers.map((browser) => startCheckout(browser, MIXED_CART));
    const waiting = async () => Number((await query<{ n: string }>(`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock'`))[0]?.n);
    for (let tries = 0; (await waiting()) < 5; tries += 1) {
      if (tries > 200) throw new Error(`only ${await waiting()} of 5 transactions reached the lock`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const { result: answers, ms } = await wallMsOf(async () => {
      await postgres.stop('fast');
      return Promise.all([...signUps, ...checkouts]);
    });
    expect(ms).toBeLessThan(FAIL_FAST_MS);
    const unavailable = [503, { message: DATABASE_UNAVAILABLE }];
    // PostgreSQL's fast shutdown ends the sessions in no set order: when the locker's ends first, a
    // sign-up waiting for its lock can commit before its own session ends. Its account is then whole
    // and only its mail fails (the development outbox is in the same database), which it says.
    const mailFailed = [503, { message: SIGN_UP_MAIL_FAILED }];
    const seen = answers.map((response) => [response.statusCode, response.json() as unknown]);
    for (const answer of seen.slice(0, newcomers.length)) expect([unavailable, mailFailed]).toContainEqual(answer);
    expect(seen.slice(newcomers.length)).toEqual(checkouts.map(() => unavailable));
    const committed = newcomers.filter((_, index) => JSON.stringify(seen[index]) === JSON.stringify(mailFailed)).map((name) => ({ email: `${name}@faults.test` }));
    await locker.end().catch(() => undefined);

    await postgres.start();
    // Whole or absent: no user without the verification link its sign-up wrote, none of these
    // three but those whose transaction committed; no checkout without its orders.
    expect(await query(`select email from users where email = any($1) order by email`, [newcomers.map((name) => `${name}@faults.test`)])).toEqual(committed);
    expect(await query(`select u.email from users u where u.email_verified_at is null and not exists (select 1 from email_tokens t where t.user_id = u.id)`)).toEqual([]);
    expect(await query(`select c.id from checkouts c where (select count(*) from orders o where o.checkout_id = c.id) <> $1`, [MIXED_CART.length])).toEqual([]);
    expect(await query<{ n: string }>('select count(*) as n from checkouts')).toEqual(checkoutsBefore);

    // And the same buyers can check out now, on the same bff.
    for (const browser of buyers) expect((await startCheckout(browser, MIXED_CART)).statusCode).toBe(201);
  });

  it('keeps running monitor jobs through pg-boss after PostgreSQL comes back', async () => {
    const owner = await signedInUser(store, 'Mo Owner', 'mo@faults.test', freshClientAddress());
    expect((await owner.write('POST', '/api/account/monitors/create', { domain: 'good.example' })).statusCode).toBe(201);
    const jobs = () => store.app.jobs;
    /** A day later, the monitor is due: queued through pg-boss and run. */
    const nextDay = async () => {
      store.advance(DAY + 1000);
      expect(await jobs().runNow('monitor-schedule')).toBe(1);
      await Promise.race([jobs().idle(), new Promise((_, reject) => setTimeout(() => reject(new Error('the monitor job did not run within 15 s')), 15_000).unref())]);
    };
    await nextDay();
    expect(jobs().runs('monitor-check').finished).toBe(1);

    await postgres.stop('fast');
    // Long enough for pg-boss's fetch loop and maintenance to meet the closed server.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await store.app.inject({ url: SITE_API_PATHS.ready })).statusCode).toBe(503);
    await postgres.start();

    await nextDay();
    expect(jobs().runs('monitor-check').finished).toBe(2);
    const ready = ReadinessResponse.parse((await store.app.inject({ url: SITE_API_PATHS.ready })).json());
    expect(ready).toMatchObject({ status: 'ready', checks: { jobs: { status: 'ok', detail: 'pg-boss is running' } } });
  });
});
