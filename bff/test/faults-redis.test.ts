import { SITE_API_PATHS } from '@bimi/contracts/api-paths';
import { ReadinessResponse } from '@bimi/contracts/health';
import { Redis } from 'ioredis';
import { SESSIONS_UNAVAILABLE } from '../src/lib/unavailable';
import { SIGN_IN_LIMITS } from '../src/lib/sign-in-limits';
import { expectServedWithout } from './faults-fixtures';
import { wallMsOf } from './timing';
import { startToolFixtures, type ToolFixtures } from './fixtures/tools/start';
import { Browser, describePostgres, freshClientAddress, GOOD_PASSWORD, signedInUser, startIdentityStore, type IdentityStore } from './identity-fixtures';
import { startOwnRedis, type OwnRedis } from './own-services';

jest.setTimeout(60_000);

/** How long any request may take while Redis is gone (refused at once) or hung (one command timeout, 1 s). */
const NO_WAIT_MS = 1500;
const PREFIX = 'faults:';

/**
 * Issue 16, "faults survived": Redis down under a running bff whose sessions and rate-limit
 * counters are in Redis. The bff runs on a redis-server of this test's own (test/own-services.ts),
 * which the test kills, freezes and starts again; its database is a schema of the machine's shared
 * PostgreSQL, as the replicas' setup is. Runs with the PostgreSQL suites.
 */
describePostgres('Redis down under a running bff', () => {
  let redis: OwnRedis;
  let fixtures: ToolFixtures;
  let store: IdentityStore;
  let ada: Browser;

  /** Until the bff's readiness says 200 again (ioredis reconnects every 2 s at most). */
  async function readyAgain(): Promise<void> {
    for (let tries = 0; (await store.app.inject({ url: SITE_API_PATHS.ready })).statusCode !== 200; tries += 1) {
      if (tries > 60) throw new Error('the bff did not reconnect to Redis within 6 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    [redis, fixtures] = await Promise.all([startOwnRedis(), startToolFixtures()]);
    store = await startIdentityStore(
      { name: 'PostgreSQL', postgres: true, redis: false },
      { ...fixtures.env, REDIS_URL: redis.url, REDIS_KEY_PREFIX: PREFIX, SIGNUP_RATE_LIMIT_PER_HOUR: '1000' },
    );
    ada = await signedInUser(store, 'Ada Lovelace', 'ada@redis-faults.test', freshClientAddress());
  });
  // A test that failed with Redis stopped or frozen leaves it running for the next.
  afterEach(async () => {
    redis.resume();
    if (!redis.running) await redis.start();
    await readyAgain();
  });
  afterAll(async () => {
    await store?.cleanUp();
    await Promise.all([redis?.remove(), fixtures?.close()]);
  });

  it('signs everyone out with a clear message while Redis is down, breaks nothing else, and the same cookie is signed in again when it returns', async () => {
    expect((await ada.session()).user).toMatchObject({ email: 'ada@redis-faults.test' });
    await redis.stop('kill');

    // Signed out, not an error: the session endpoint answers as for a visitor, and the cookie stays.
    const session = await wallMsOf(() => ada.request({ url: '/api/auth/session' }));
    expect([session.result.statusCode, session.result.json()]).toEqual([200, {}]);
    expect(session.ms).toBeLessThan(NO_WAIT_MS);
    expect(ada.cookies.has('bimi.session')).toBe(true);

    // What needs a session says why it cannot have one, at once.
    const stranger = new Browser(store.app, freshClientAddress());
    for (const [name, request] of [
      ['account', () => ada.request({ url: '/api/account/profile' })],
      ['sign-in', () => stranger.signIn('ada@redis-faults.test', GOOD_PASSWORD)],
    ] as const) {
      const { result: response, ms } = await wallMsOf(request);
      expect({ name, status: response.statusCode, body: response.json() as unknown }).toEqual({ name, status: 503, body: { message: SESSIONS_UNAVAILABLE } });
      expect(response.headers['retry-after']).toBeDefined();
      expect({ name, fast: ms < NO_WAIT_MS }).toEqual({ name, fast: true });
    }
    expect(stranger.cookies.has('bimi.session')).toBe(false);

    // Nothing else breaks: signing up (its limit counted in memory meanwhile), signing out, the tools,
    // the cart quote, the public config, the pages, liveness.
    const signUp = await wallMsOf(() => stranger.write('POST', '/api/auth/signup', { name: 'Bo Newcomer', email: 'bo@redis-faults.test', password: GOOD_PASSWORD }));
    expect(signUp.result.statusCode).toBe(201);
    expect(signUp.ms).toBeLessThan(NO_WAIT_MS);
    await expectServedWithout(store.app, 'Redis');
    const ready = await wallMsOf(() => store.app.inject({ url: SITE_API_PATHS.ready }));
    expect(ready.result.statusCode).toBe(503);
    expect(ready.ms).toBeLessThan(NO_WAIT_MS);
    const { checks } = ReadinessResponse.parse(ready.result.json());
    expect(checks.redis).toEqual({ status: 'failing', detail: expect.stringMatching(/^Redis does not answer/) });
    expect(checks.database.status).toBe('ok');

    // Redis back (with what it had written): the same cookie is the same session, without a sign-in.
    await redis.start();
    await readyAgain();
    expect((await ada.session()).user).toMatchObject({ email: 'ada@redis-faults.test' });
    expect((await ada.request({ url: '/api/account/profile' })).statusCode).toBe(200);
    expect((await stranger.signIn('ada@redis-faults.test', GOOD_PASSWORD)).statusCode).toBe(200);
    expect((await stranger.session()).user).toMatchObject({ email: 'ada@redis-faults.test' });
    expect(store.logs.messages().filter((message) => message === 'request failed')).toEqual([]);
  });

  it('signs out while Redis is down: the cookie goes, and does not come back with Redis', async () => {
    const bea = await signedInUser(store, 'Bea Leaving', 'bea@redis-faults.test', freshClientAddress());
    await redis.stop('kill');
    const csrfToken = await bea.csrfToken();
    const signOut = await bea.request({ method: 'POST', url: '/api/auth/signout', form: { csrfToken, callbackUrl: '/', json: 'true' }, headers: { origin: 'http://store.test' } });
    expect(signOut.statusCode).toBe(200);
    expect(bea.cookies.has('bimi.session')).toBe(false);
    await redis.start();
    await readyAgain();
    expect(await bea.session()).toEqual({});
  });

  it('keeps the sign-in limits while Redis is down, counting in memory, then counts in Redis again', async () => {
    await redis.stop('kill');
    const guesser = new Browser(store.app, freshClientAddress());
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= SIGN_IN_LIMITS.failuresPerAccountAndAddress; attempt += 1) {
      const { result: response, ms } = await wallMsOf(() => guesser.signIn('ada@redis-faults.test', 'wrong password 1'));
      statuses.push(response.statusCode);
      expect(ms).toBeLessThan(NO_WAIT_MS);
    }
    // Five wrong passwords, then refused: the limit held without Redis (neither 500s nor unlimited).
    expect(statuses).toEqual([...Array<number>(SIGN_IN_LIMITS.failuresPerAccountAndAddress).fill(401), 429]);

    await redis.start();
    await readyAgain();
    // Back in Redis (shared by every replica again) within the fallback's 5 s.
    const address = freshClientAddress();
    const inspector = new Redis(redis.url);
    try {
      for (let tries = 0; ; tries += 1) {
        await new Browser(store.app, address).signIn('someone@redis-faults.test', 'wrong password 2');
        if ((await inspector.keys(`${PREFIX}rate-limit:*${address}*`)).length > 0) break;
        if (tries > 30) throw new Error('the sign-in counters did not go back to Redis within 6 s');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      await inspector.quit();
    }
  });

  it('makes no request wait on a Redis that stops answering', async () => {
    redis.pause();
    const visitor = new Browser(store.app, freshClientAddress());
    const answers = {
      session: await wallMsOf(() => ada.request({ url: '/api/auth/session' })),
      signIn: await wallMsOf(() => visitor.signIn('ada@redis-faults.test', 'wrong password 3')),
      tool: await wallMsOf(() => store.app.inject({ url: '/api/tools/dmarc?domain=good.example' })),
      ready: await wallMsOf(() => store.app.inject({ url: SITE_API_PATHS.ready })),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, { result }]) => [name, result.statusCode]))).toEqual({ session: 200, signIn: 401, tool: 200, ready: 503 });
    expect(answers.session.result.json()).toEqual({});
    // One command timeout at most, never a wait for Redis to come back.
    for (const [name, { ms }] of Object.entries(answers)) expect({ [name]: ms < 2500 }).toEqual({ [name]: true });

    redis.resume();
    await readyAgain();
    expect((await ada.session()).user).toMatchObject({ email: 'ada@redis-faults.test' });
  });
});
