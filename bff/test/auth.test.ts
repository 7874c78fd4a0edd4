import { SIGN_UP_ATTEMPT_COOKIE } from '../src/routes/api/auth/sign-up';
import { PASSWORD_MESSAGES, SESSION_ABSOLUTE_LIMIT_MS, SESSION_IDLE_LIMIT_MS } from '@bimi/contracts/auth';
import { Browser, GOOD_PASSWORD, linkFromOutbox, signedInUser, startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';

describe.each(storageEngines())('authentication on $name', (engine) => {
  let store: IdentityStore;
  beforeEach(async () => {
    store = await startIdentityStore(engine);
  });
  afterEach(async () => {
    await store.cleanUp();
  });

  describe('the NextAuth client conformance', () => {
    it("sends the client's fallback pages (/api/auth/signin, /api/auth/error) to our sign-in page with a known error code", async () => {
      const cases: [string, string][] = [
        ['/api/auth/error', '/auth/signin?error=Configuration'],
        ['/api/auth/error?error=SessionRequired', '/auth/signin?error=SessionRequired'],
        ['/api/auth/error?error=%3Cscript%3E', '/auth/signin?error=Configuration'],
        ['/api/auth/signin', '/auth/signin'],
        ['/api/auth/signin/credentials?callbackUrl=%2Faccount%2Forders', '/auth/signin?callbackUrl=%2Faccount%2Forders'],
      ];
      for (const [url, location] of cases) {
        const response = await store.app.inject({ url });
        expect({ url, status: response.statusCode, location: response.headers.location }).toEqual({ url, status: 302, location });
      }
      expect((await store.app.inject({ url: `/api/auth/error?error=${'x'.repeat(100)}` })).statusCode).toBe(400);
    });

    it('csrf → providers → callback/credentials (form, json=true) → session → signout, as next-auth/react does', async () => {
      await signedInUser(store, 'Setup', 'setup@example.com');
      const browser = new Browser(store.app);
      await browser.write('POST', '/api/auth/signup', { name: 'Jane Doe', email: 'jane@example.com', password: GOOD_PASSWORD });
      const token = new URL(await linkFromOutbox(store.app, 'jane@example.com', '/auth/verify')).searchParams.get('token');
      await browser.write('POST', '/api/auth/verify', { token });

      // useSession on a signed-out page
      const signedOut = await browser.request({ url: '/api/auth/session' });
      expect(signedOut.statusCode).toBe(200);
      expect(signedOut.json()).toEqual({});

      // signIn(): getProviders, then getCsrfToken, then the form post
      const providers = (await browser.request({ url: '/api/auth/providers' })).json();
      expect(providers.credentials).toEqual({
        id: 'credentials',
        name: 'Credentials',
        type: 'credentials',
        signinUrl: 'http://store.test/api/auth/signin/credentials',
        callbackUrl: 'http://store.test/api/auth/callback/credentials',
      });
      browser.cookies.delete('next-auth.csrf-token');
      const csrf = await browser.request({ url: '/api/auth/csrf' });
      const { csrfToken } = csrf.json();
      expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
      const csrfCookie = csrf.cookies.find((cookie) => cookie.name === 'next-auth.csrf-token');
      expect(decodeURIComponent(csrfCookie?.value ?? '')).toMatch(new RegExp(`^${csrfToken}\\|[0-9a-f]{64}$`));
      expect(csrfCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

      const signIn = await browser.request({
        method: 'POST',
        url: '/api/auth/callback/credentials',
        form: { email: 'jane@example.com', password: GOOD_PASSWORD, redirect: 'false', callbackUrl: 'http://store.test/account/orders', csrfToken, json: 'true' },
      });
      expect(signIn.statusCode).toBe(200);
      expect(signIn.json()).toEqual({ url: 'http://store.test/account/orders' });
      const sessionCookie = signIn.cookies.find((cookie) => cookie.name === 'bimi.session');
      expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(sessionCookie?.secure).toBeFalsy();

      const session = await browser.session();
      expect(session).toEqual({ user: { name: 'Jane Doe', email: 'jane@example.com', image: null }, expires: new Date(store.clock.now + SESSION_IDLE_LIMIT_MS).toISOString() });

      // signOut(): getCsrfToken, then the form post; the answer's url is where the client goes
      const signOut = await browser.request({
        method: 'POST',
        url: '/api/auth/signout',
        form: { csrfToken: await browser.csrfToken(), callbackUrl: '/auth/signin', json: 'true' },
      });
      expect(signOut.statusCode).toBe(200);
      expect(signOut.json()).toEqual({ url: 'http://store.test/auth/signin' });
      expect(await browser.session()).toEqual({});

      // the client's log beacon
      const log = await browser.request({ method: 'POST', url: '/api/auth/_log', form: { level: 'error', code: 'CLIENT_FETCH_ERROR', message: 'boom', injected: 'x'.repeat(4000) } });
      expect(log.statusCode).toBe(200);
      // Logged at warn (anyone may post one), with the browser's level beside it, and only the fields the client sends.
      const line = store.logs.entries.find((entry) => entry.msg === 'authentication client log' && entry.code === 'CLIENT_FETCH_ERROR');
      expect(line).toMatchObject({ level: 40, clientLevel: 'error', clientMessage: 'boom' });
      expect(JSON.stringify(line)).not.toContain('injected');
      // A beacon of a megabyte is refused, not written to the log.
      const logged = store.logs.entries.length;
      const huge = await browser.request({ method: 'POST', url: '/api/auth/_log', form: { level: 'error', code: 'x', message: 'm'.repeat(1024 * 1024) } });
      expect(huge.statusCode).toBe(413);
      expect(store.logs.entries.slice(logged).some((entry) => entry.msg === 'authentication client log')).toBe(false);
    });

    it('answers a wrong password with 401 and a url carrying error=CredentialsSignin, and an unknown email the same', async () => {
      await signedInUser(store, 'Jane', 'jane@example.com');
      const browser = new Browser(store.app);
      for (const email of ['jane@example.com', 'nobody@example.com']) {
        const response = await browser.signIn(email, 'wrong password 1');
        expect(response.statusCode).toBe(401);
        expect(new URL(response.json().url).searchParams.get('error')).toBe('CredentialsSignin');
      }
      expect(await browser.session()).toEqual({});
    });

    it('keeps a callbackUrl to another site from redirecting there', async () => {
      const browser = await signedInUser(store, 'Jane', 'jane@example.com');
      const response = await browser.signIn('jane@example.com', GOOD_PASSWORD, 'https://evil.example/steal');
      expect(response.json()).toEqual({ url: 'http://store.test/account/dashboard' });
    });
  });

  describe('CSRF', () => {
    it('refuses a sign-in without the token, with a forged token, or with a cookie from another secret', async () => {
      await signedInUser(store, 'Jane', 'jane@example.com');
      const browser = new Browser(store.app);
      const form = { email: 'jane@example.com', password: GOOD_PASSWORD, json: 'true' };
      const noToken = await browser.request({ method: 'POST', url: '/api/auth/callback/credentials', form });
      expect(noToken.statusCode).toBe(403);
      expect(new URL(noToken.json().url).searchParams.get('error')).toBe('MissingCSRF');

      await browser.csrfToken();
      const forged = await browser.request({ method: 'POST', url: '/api/auth/callback/credentials', form: { ...form, csrfToken: 'a'.repeat(64) } });
      expect(forged.statusCode).toBe(403);

      const attacker = new Browser(store.app);
      attacker.cookies.set('next-auth.csrf-token', encodeURIComponent(`${'b'.repeat(64)}|${'c'.repeat(64)}`));
      const planted = await attacker.request({ method: 'POST', url: '/api/auth/callback/credentials', form: { ...form, csrfToken: 'b'.repeat(64) } });
      expect(planted.statusCode).toBe(403);
      expect(await attacker.session()).toEqual({});
    });

    it('refuses JSON writes without the X-CSRF-Token header, and sign-out without the form token', async () => {
      const browser = await signedInUser(store, 'Jane', 'jane@example.com');
      const signUp = await browser.request({ method: 'POST', url: '/api/auth/signup', json: { name: 'X', email: 'x@example.com', password: GOOD_PASSWORD } });
      expect(signUp.statusCode).toBe(403);
      expect(await store.app.db.selectFrom('users').select('id').where('email', '=', 'x@example.com').executeTakeFirst()).toBeUndefined();
      const rename = await browser.request({ method: 'PATCH', url: '/api/account/profile', json: { name: 'Changed' } });
      expect(rename.statusCode).toBe(403);
      expect(rename.json().message).toMatch(/CSRF/);
      const signOut = await browser.request({ method: 'POST', url: '/api/auth/signout', form: { csrfToken: 'nope', json: 'true' } });
      expect(signOut.statusCode).toBe(403);
      expect((await browser.session()).user).toMatchObject({ name: 'Jane' });
    });
  });

  describe('sessions', () => {
    it('gives a new session id at sign-in, so a planted session id is worthless (no fixation)', async () => {
      const attacker = await signedInUser(store, 'Mallory', 'mallory@example.com');
      const plantedId = attacker.cookies.get('bimi.session') ?? '';
      await attacker.request({ method: 'POST', url: '/api/auth/signout', form: { csrfToken: await attacker.csrfToken(), json: 'true' } });

      await signedInUser(store, 'Jane', 'jane@example.com');
      const victim = new Browser(store.app, '198.51.100.7');
      victim.cookies.set('bimi.session', plantedId);
      const before = victim.cookies.get('bimi.session');
      const signIn = await victim.signIn('jane@example.com', GOOD_PASSWORD);
      expect(signIn.statusCode).toBe(200);
      const after = victim.cookies.get('bimi.session');
      expect(after).toBeDefined();
      expect(after).not.toBe(before);

      const withPlantedId = new Browser(store.app);
      withPlantedId.cookies.set('bimi.session', plantedId);
      expect(await withPlantedId.session()).toEqual({});
    });

    it('ends after two idle hours, enforced by the server', async () => {
      const browser = await signedInUser(store, 'Jane', 'jane@example.com');
      store.advance(SESSION_IDLE_LIMIT_MS - 60_000);
      expect((await browser.session()).user).toBeDefined();
      store.advance(SESSION_IDLE_LIMIT_MS - 1);
      expect((await browser.session()).user).toBeDefined();
      store.advance(SESSION_IDLE_LIMIT_MS);
      expect(await browser.session()).toEqual({});
      expect((await browser.request({ url: '/api/account/profile' })).statusCode).toBe(401);
    });

    it('ends at the absolute limit however active the user is', async () => {
      const browser = await signedInUser(store, 'Jane', 'jane@example.com');
      const started = store.clock.now;
      while (store.clock.now + SESSION_IDLE_LIMIT_MS / 2 < started + SESSION_ABSOLUTE_LIMIT_MS) {
        store.advance(SESSION_IDLE_LIMIT_MS / 2);
        expect((await browser.session()).user).toBeDefined();
      }
      const last = await browser.session();
      expect(last.expires).toBe(new Date(started + SESSION_ABSOLUTE_LIMIT_MS).toISOString());
      store.advance(started + SESSION_ABSOLUTE_LIMIT_MS - store.clock.now);
      expect(await browser.session()).toEqual({});
    });

    it('stores sessions where the configuration says', async () => {
      await signedInUser(store, 'Jane', 'jane@example.com');
      const rows = await store.app.db.selectFrom('sessions').select('sid').execute();
      if (engine.redis) {
        expect(rows).toHaveLength(0);
        expect((await store.app.redis?.keys(`${store.app.config.redisKeyPrefix}session:*`))?.length).toBeGreaterThan(0);
      } else {
        expect(rows.length).toBeGreaterThan(0);
      }
    });
  });

  describe('sign-in and sign-up limits', () => {
    const OWNER = '198.51.100.7';
    const wrong = (email: string, ip: string) => new Browser(store.app, ip).signIn(email, 'wrong password 1');
    // Tens of sign-ins each (argon2id at OWASP cost) on a shared 2-core machine.
    const MANY_SIGN_INS_MS = 60_000;

    it(
      'never lets wrong passwords from other addresses lock the owner out (finding 4)',
      async () => {
        await signedInUser(store, 'Jane', 'jane@example.com', OWNER);
        // One attacker address reaches its limit on this account…
        const attacker = new Browser(store.app, '192.0.2.66');
        for (let attempt = 0; attempt < 5; attempt++) expect((await attacker.signIn('jane@example.com', 'wrong password 1')).statusCode).toBe(401);
        const blocked = await attacker.signIn('jane@example.com', GOOD_PASSWORD);
        expect(blocked.statusCode).toBe(429);
        expect(blocked.json()).toEqual({ url: 'http://store.test/auth/signin?error=TooManyAttempts', message: 'Too many attempts. Try again in 15 minutes.' });
        expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(14 * 60);
        expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
        // …and ten more addresses fail five times each, while the owner signs in from home.
        for (let address = 1; address <= 10; address++) {
          for (let attempt = 0; attempt < 5; attempt++) expect((await wrong('jane@example.com', `192.0.2.${address}`)).statusCode).toBe(401);
        }
        const owner = new Browser(store.app, OWNER);
        expect((await owner.signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
        expect((await owner.session()).user).toMatchObject({ email: 'jane@example.com' });
        // A new address of the owner's (a phone on mobile data) works as well.
        expect((await new Browser(store.app, '203.0.113.99').signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
      },
      MANY_SIGN_INS_MS,
    );

    it(
      'counts failures only, and a success clears the failures of that account from that address',
      async () => {
        await signedInUser(store, 'Jane', 'jane@example.com', OWNER);
        const owner = new Browser(store.app, OWNER);
        // Successes never use up the allowance (they counted toward 5 before).
        for (let signIn = 0; signIn < 6; signIn++) expect((await owner.signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
        // Four typos, a success, four typos, a success: never 9 failures in a row.
        for (let round = 0; round < 2; round++) {
          for (let typo = 0; typo < 4; typo++) expect((await owner.signIn('jane@example.com', 'wrong password 1')).statusCode).toBe(401);
          expect((await owner.signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
        }
        // Five in a row do stop this address for this account, with the wait in minutes.
        for (let typo = 0; typo < 5; typo++) expect((await owner.signIn('jane@example.com', 'wrong password 1')).statusCode).toBe(401);
        expect((await owner.signIn('jane@example.com', GOOD_PASSWORD)).json().message).toBe('Too many attempts. Try again in 15 minutes.');
      },
      MANY_SIGN_INS_MS,
    );

    it(
      'lets no more than 5 guesses on one account from one address through, even sent all at once',
      async () => {
        await signedInUser(store, 'Jane', 'jane@example.com', OWNER);
        const attacker = new Browser(store.app, '192.0.2.67');
        await attacker.csrfToken();
        const answers = await Promise.all(Array.from({ length: 15 }, () => attacker.signIn('jane@example.com', 'wrong password 1')));
        const statuses = answers.map((answer) => answer.statusCode).sort();
        expect(statuses.filter((status) => status === 401)).toHaveLength(5);
        expect(statuses.filter((status) => status === 429)).toHaveLength(10);
      },
      MANY_SIGN_INS_MS,
    );

    it(
      'stops one address after 20 failures whatever the accounts; other addresses go on',
      async () => {
        await signedInUser(store, 'Jane', 'jane@example.com', OWNER);
        const browser = new Browser(store.app, '192.0.2.200');
        for (let attempt = 0; attempt < 20; attempt++) expect((await browser.signIn(`user${attempt}@example.com`, 'wrong password 1')).statusCode).toBe(401);
        const blocked = await browser.signIn('other@example.com', 'wrong password 1');
        expect(blocked.statusCode).toBe(429);
        expect(blocked.json().message).toBe('Too many attempts. Try again in 15 minutes.');
        // Even the right password of a real account waits, from that address only.
        expect((await browser.signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(429);
        expect((await new Browser(store.app, OWNER).signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
      },
      MANY_SIGN_INS_MS,
    );

    it(
      'stops one address after 100 attempts in 15 minutes, successes included',
      async () => {
        await signedInUser(store, 'Jane', 'jane@example.com', OWNER);
        const browser = new Browser(store.app, '192.0.2.201');
        // signedInUser signed in once from OWNER, not from here: 100 here are allowed.
        for (let attempt = 0; attempt < 100; attempt++) expect((await browser.signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
        expect((await browser.signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(429);
        expect((await new Browser(store.app, OWNER).signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
      },
      MANY_SIGN_INS_MS,
    );

    it(
      'counts an IPv6 client by its /64, so rotating addresses in it gains nothing',
      async () => {
        for (let host = 1; host <= 5; host++) expect((await wrong('nobody@example.com', `2001:db8:0:1::${host}`)).statusCode).toBe(401);
        expect((await wrong('nobody@example.com', '2001:db8:0:1:ffff::9')).statusCode).toBe(429);
        expect((await wrong('nobody@example.com', '2001:db8:0:2::1')).statusCode).toBe(401);
      },
      MANY_SIGN_INS_MS,
    );

    it(
      'logs a warning when one account sees more than 50 failures in 15 minutes, without blocking it',
      async () => {
        await signedInUser(store, 'Jane', 'jane@example.com', OWNER);
        for (let address = 1; address <= 11; address++) {
          for (let attempt = 0; attempt < 5; attempt++) await wrong('jane@example.com', `192.0.2.${address}`);
        }
        expect(store.logs.entries.filter((entry) => String(entry.msg).startsWith('more than 50 failed sign-ins on one account')).length).toBeGreaterThan(0);
        expect((await new Browser(store.app, OWNER).signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
      },
      MANY_SIGN_INS_MS,
    );

    it(
      'allows 10 sign-ups per address and hour, answering the 11th in our words; another address is not affected',
      async () => {
        const browser = new Browser(store.app, '192.0.2.210');
        for (let index = 0; index < 10; index++) {
          const signUp = await browser.write('POST', '/api/auth/signup', { name: 'Jane Doe', email: `jane${index}@example.com`, password: GOOD_PASSWORD });
          expect(signUp.statusCode).toBe(201);
        }
        const refused = await browser.write('POST', '/api/auth/signup', { name: 'Jane Doe', email: 'jane10@example.com', password: GOOD_PASSWORD });
        expect(refused.statusCode).toBe(429);
        expect(refused.json()).toEqual({ message: 'Too many attempts. Try again in 60 minutes.' });
        const other = new Browser(store.app, '192.0.2.211');
        expect((await other.write('POST', '/api/auth/signup', { name: 'Joe', email: 'joe@example.com', password: GOOD_PASSWORD })).statusCode).toBe(201);
      },
      MANY_SIGN_INS_MS,
    );

    it(
      'allows 30 verifications per address in 15 minutes, or as many as a higher sign-up limit allows',
      async () => {
        const verifyOften = async (target: IdentityStore, address: string) => {
          const browser = new Browser(target.app, address);
          const answers: number[] = [];
          for (let index = 0; index < 31; index++) answers.push((await browser.write('POST', '/api/auth/verify', { token: `not-a-token-${index}` })).statusCode);
          return answers;
        };
        const byDefault = await verifyOften(store, '192.0.2.220');
        expect(byDefault.slice(0, 30).every((status) => status === 400)).toBe(true);
        expect(byDefault[30]).toBe(429);
        const raised = await startIdentityStore(engine, { SIGNUP_RATE_LIMIT_PER_HOUR: '40' });
        try {
          expect((await verifyOften(raised, '192.0.2.221')).every((status) => status === 400)).toBe(true);
        } finally {
          await raised.cleanUp();
        }
      },
      MANY_SIGN_INS_MS,
    );

    if (engine.redis) {
      it(
        'shares the counters between replicas through Redis',
        async () => {
          const prefix = `${store.app.config.redisKeyPrefix}replica:`;
          const first = await startIdentityStore(engine, { REDIS_KEY_PREFIX: prefix });
          const second = await startIdentityStore(engine, { REDIS_KEY_PREFIX: prefix });
          try {
            for (let attempt = 0; attempt < 3; attempt++) expect((await new Browser(first.app, '192.0.2.77').signIn('nobody@example.com', 'wrong password 1')).statusCode).toBe(401);
            for (let attempt = 0; attempt < 2; attempt++) expect((await new Browser(second.app, '192.0.2.77').signIn('nobody@example.com', 'wrong password 1')).statusCode).toBe(401);
            expect((await new Browser(first.app, '192.0.2.77').signIn('nobody@example.com', 'wrong password 1')).statusCode).toBe(429);
            expect((await new Browser(second.app, '192.0.2.78').signIn('nobody@example.com', 'wrong password 1')).statusCode).toBe(401);
          } finally {
            await first.cleanUp();
            await second.cleanUp();
            const keys = (await store.app.redis?.keys(`${prefix}*`)) ?? [];
            if (keys.length > 0) await store.app.redis?.del(...keys);
          }
        },
        MANY_SIGN_INS_MS,
      );
    }
  });

  describe('sign-up, verification and password reset', () => {
    it('refuses a weak password, a bad email and a missing name with clear messages and stores nothing', async () => {
      const browser = new Browser(store.app);
      const weak = await browser.write('POST', '/api/auth/signup', { name: 'Jane', email: 'jane@example.com', password: 'short' });
      expect(weak.statusCode).toBe(400);
      expect(weak.json().message).toContain(PASSWORD_MESSAGES.tooShort);
      const badEmail = await browser.write('POST', '/api/auth/signup', { name: 'Jane', email: 'not-an-email', password: GOOD_PASSWORD });
      expect(badEmail.json().message).toContain('email: Enter a valid email address');
      const noName = await browser.write('POST', '/api/auth/signup', { email: 'jane@example.com', password: GOOD_PASSWORD });
      expect(noName.statusCode).toBe(400);
      const notJson = await browser.request({ method: 'POST', url: '/api/auth/signup', headers: { 'content-type': 'application/json', 'x-csrf-token': await browser.csrfToken() } });
      expect(notJson.statusCode).toBe(400);
      expect(await store.app.db.selectFrom('users').select('id').execute()).toEqual([]);
    });

    it('answers a sign-up with an existing address exactly as a new one, and mails the owner instead (finding 5)', async () => {
      await signedInUser(store, 'Jane', 'jane@example.com');
      const browser = new Browser(store.app, '192.0.2.220');
      const fresh = await browser.write('POST', '/api/auth/signup', { name: 'Newcomer', email: 'new@example.com', password: GOOD_PASSWORD });
      store.advance(60_000); // the outbox tells mails apart by time
      const taken = await browser.write('POST', '/api/auth/signup', { name: 'Mallory', email: 'JANE@example.com', password: 'mallory password 9' });
      expect(taken.statusCode).toBe(fresh.statusCode);
      expect(fresh.statusCode).toBe(201);
      expect(taken.headers['content-type']).toBe(fresh.headers['content-type']);
      // The bodies differ only by the address each was given.
      expect(taken.body.replaceAll('jane@example.com', '<email>')).toBe(fresh.body.replaceAll('new@example.com', '<email>'));
      expect(fresh.json()).toEqual({ email: 'new@example.com', message: 'We sent an email to new@example.com. Open it to continue.' });

      // The owner got word of it, with a way to sign in and to reset the password; no new account, nothing changed.
      const mails = await store.app.db.selectFrom('outbox_messages').select(['subject', 'text']).where('recipient', '=', 'jane@example.com').orderBy('created_at').execute();
      expect(mails.map((mail) => mail.subject)).toEqual(['Verify your email address for BIMI Store', 'Someone tried to sign up for BIMI Store with your address']);
      expect(mails[1]?.text).toContain('Hello Jane,');
      expect(mails[1]?.text).toContain('http://store.test/auth/signin?email=jane%40example.com');
      expect(mails[1]?.text).toContain('http://store.test/forgot-password');
      expect(await store.app.db.selectFrom('users').select(['email', 'name']).orderBy('email').execute()).toEqual([
        { email: 'jane@example.com', name: 'Jane' },
        { email: 'new@example.com', name: 'Newcomer' },
      ]);
      expect((await browser.signIn('jane@example.com', 'mallory password 9')).statusCode).toBe(401);
      expect((await browser.signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
    });

    it('sends a fresh link when an unverified account signs up again; each link applies its own sign-up, and the first followed ends the others', async () => {
      const browser = new Browser(store.app, '192.0.2.221');
      const signUp = async (email: string, name: string, password: string) => {
        expect((await browser.write('POST', '/api/auth/signup', { name, email, password })).statusCode).toBe(201);
        const token = new URL(await linkFromOutbox(store.app, email, '/auth/verify')).searchParams.get('token');
        store.advance(60_000); // the outbox tells mails apart by time
        return token;
      };
      // The owner signs up, then a stranger signs up again with the owner's address: the account
      // does not change, and the owner's own link gives the owner's name and password.
      const owners = await signUp('jane@example.com', 'Jane', 'first password 1');
      const strangers = await signUp('jane@example.com', 'Mallory', 'mallory password 9');
      expect(strangers).not.toBe(owners);
      expect(await store.app.db.selectFrom('users').select(['name']).where('email', '=', 'jane@example.com').execute()).toEqual([{ name: 'Jane' }]);
      expect((await browser.write('POST', '/api/auth/verify', { token: owners })).statusCode).toBe(200);
      expect(await store.app.db.selectFrom('users').select(['name']).where('email', '=', 'jane@example.com').execute()).toEqual([{ name: 'Jane' }]);
      // Issue 32: followed again, the owner's link says the address is verified (not "invalid… get a new one"), and changes nothing.
      const again = await browser.write('POST', '/api/auth/verify', { token: owners });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ purpose: 'signup', email: 'jane@example.com', message: 'This link was already used: your email address is verified. You can sign in.' });
      expect((await browser.signIn('jane@example.com', 'mallory password 9')).statusCode).toBe(401);
      expect((await browser.signIn('jane@example.com', 'first password 1')).statusCode).toBe(200);
      // The stranger's link no longer works once the account is verified.
      expect((await browser.write('POST', '/api/auth/verify', { token: strangers })).statusCode).toBe(400);
      expect((await browser.signIn('jane@example.com', 'first password 1')).statusCode).toBe(200);

      // Someone who forgot the password they chose signs up again and follows the newest link: it gives the new one.
      const other = new Browser(store.app, '192.0.2.222');
      await signUp('joe@example.com', 'Joe', 'forgotten password 1');
      const newest = await signUp('joe@example.com', 'Joe Bloggs', GOOD_PASSWORD);
      expect(await store.app.db.selectFrom('outbox_messages').select('subject').where('recipient', '=', 'joe@example.com').execute()).toEqual([
        { subject: 'Verify your email address for BIMI Store' },
        { subject: 'Verify your email address for BIMI Store' },
      ]);
      expect((await other.write('POST', '/api/auth/verify', { token: newest })).statusCode).toBe(200);
      expect(await store.app.db.selectFrom('users').select(['name']).where('email', '=', 'joe@example.com').execute()).toEqual([{ name: 'Joe Bloggs' }]);
      expect((await other.signIn('joe@example.com', 'forgotten password 1')).statusCode).toBe(401);
      expect((await other.signIn('joe@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
    });

    it.each([
      ['first', 'before'],
      ['second', 'after'],
    ])('resends this browser’s own sign-up: a stranger who used the address %s never gets the account through the owner asking for the mail again', async (_order, when) => {
      const owner = new Browser(store.app, '192.0.2.223');
      const stranger = new Browser(store.app, '192.0.2.224');
      const signUp = async (browser: Browser, name: string, password: string) => {
        expect((await browser.write('POST', '/api/auth/signup', { name, email: 'ann@example.com', password })).statusCode).toBe(201);
        store.advance(60_000); // the outbox tells mails apart by time
      };
      if (when === 'before') await signUp(stranger, 'Mallory', 'mallory password 9');
      await signUp(owner, 'Ann', 'owner password 1');
      if (when === 'after') await signUp(stranger, 'Mallory', 'mallory password 9');
      // The owner's "send it again" on the page that said to check the mail.
      expect((await owner.write('POST', '/api/auth/resend-verification', { email: 'ann@example.com' })).statusCode).toBe(202);
      const resent = new URL(await linkFromOutbox(store.app, 'ann@example.com', '/auth/verify')).searchParams.get('token');
      expect((await owner.write('POST', '/api/auth/verify', { token: resent })).statusCode).toBe(200);
      expect((await owner.signIn('ann@example.com', 'mallory password 9')).statusCode).toBe(401);
      expect((await owner.signIn('ann@example.com', 'owner password 1')).statusCode).toBe(200);
      expect(await store.app.db.selectFrom('users').select(['name']).where('email', '=', 'ann@example.com').execute()).toEqual([{ name: 'Ann' }]);
    });

    it('sets the same kind of sign-up cookie whether or not the address has an account', async () => {
      await signedInUser(store, 'Jane', 'jane@example.com');
      const browser = new Browser(store.app, '192.0.2.225');
      const shapes: string[] = [];
      for (const email of ['jane@example.com', 'nobody-yet@example.com']) {
        const answer = await browser.write('POST', '/api/auth/signup', { name: 'Jane', email, password: 'another password 4' });
        const cookie = (answer.cookies as { name: string; value: string; path?: string; httpOnly?: boolean }[]).find((candidate) => candidate.name === SIGN_UP_ATTEMPT_COOKIE);
        shapes.push(`${cookie?.value.replace(/[A-Za-z0-9_+/=%-]/g, 'x')} ${cookie?.path} ${cookie?.httpOnly}`);
      }
      expect(shapes[0]).toBe(shapes[1]);
      expect(shapes[0]).toMatch(/ \/api\/auth\/resend-verification true$/);
    });

    it('refuses sign-in before verification, and takes each verification link once', async () => {
      const browser = new Browser(store.app);
      await browser.write('POST', '/api/auth/signup', { name: 'Jane', email: 'jane@example.com', password: GOOD_PASSWORD });
      const early = await browser.signIn('jane@example.com', GOOD_PASSWORD);
      expect(early.statusCode).toBe(403);
      expect(new URL(early.json().url).searchParams.get('error')).toBe('EmailNotVerified');
      const token = new URL(await linkFromOutbox(store.app, 'jane@example.com', '/auth/verify')).searchParams.get('token');
      expect((await browser.write('POST', '/api/auth/verify', { token })).json()).toMatchObject({ purpose: 'signup', email: 'jane@example.com' });
      // Taken once: followed again it verifies nothing more, and says the address is verified (issue 32).
      const reused = await browser.write('POST', '/api/auth/verify', { token });
      expect(reused.json()).toEqual({ purpose: 'signup', email: 'jane@example.com', message: 'This link was already used: your email address is verified. You can sign in.' });
      expect((await store.app.db.selectFrom('email_tokens').select('used_at').execute()).every((row) => row.used_at !== null)).toBe(true);
      expect((await browser.write('POST', '/api/auth/verify', { token: 'x' })).statusCode).toBe(400);
      expect((await browser.signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
    });

    it('lets a verification link expire after 24 hours', async () => {
      const browser = new Browser(store.app);
      await browser.write('POST', '/api/auth/signup', { name: 'Jane', email: 'jane@example.com', password: GOOD_PASSWORD });
      const token = new URL(await linkFromOutbox(store.app, 'jane@example.com', '/auth/verify')).searchParams.get('token');
      store.advance(24 * 60 * 60 * 1000);
      expect((await browser.write('POST', '/api/auth/verify', { token })).statusCode).toBe(400);
      expect((await browser.write('POST', '/api/auth/resend-verification', { email: 'jane@example.com' })).statusCode).toBe(202);
      const fresh = new URL(await linkFromOutbox(store.app, 'jane@example.com', '/auth/verify')).searchParams.get('token');
      expect(fresh).not.toBe(token);
      expect((await browser.write('POST', '/api/auth/verify', { token: fresh })).statusCode).toBe(200);
    });

    it('answers forgot-password the same whether the email exists or not; the link works once, for one hour', async () => {
      await signedInUser(store, 'Jane', 'jane@example.com');
      const browser = new Browser(store.app, '198.51.100.20');
      const known = await browser.write('POST', '/api/auth/forgot-password', { email: 'jane@example.com' });
      const unknown = await browser.write('POST', '/api/auth/forgot-password', { email: 'nobody@example.com' });
      expect(known.statusCode).toBe(202);
      expect(unknown.statusCode).toBe(202);
      expect(unknown.body).toBe(known.body);
      expect(await store.app.db.selectFrom('outbox_messages').select('id').where('recipient', '=', 'nobody@example.com').execute()).toEqual([]);

      const token = new URL(await linkFromOutbox(store.app, 'jane@example.com', '/auth/reset-password')).searchParams.get('token');
      const weak = await browser.write('POST', '/api/auth/reset-password', { token, password: 'weak' });
      expect(weak.statusCode).toBe(400);
      const reset = await browser.write('POST', '/api/auth/reset-password', { token, password: 'a brand new secret 7' });
      expect(reset.statusCode).toBe(200);
      expect((await browser.write('POST', '/api/auth/reset-password', { token, password: 'another secret 8' })).statusCode).toBe(400);
      expect((await browser.signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(401);
      expect((await browser.signIn('jane@example.com', 'a brand new secret 7')).statusCode).toBe(200);

      await browser.write('POST', '/api/auth/forgot-password', { email: 'jane@example.com' });
      const late = new URL(await linkFromOutbox(store.app, 'jane@example.com', '/auth/reset-password')).searchParams.get('token');
      store.advance(60 * 60 * 1000);
      expect((await browser.write('POST', '/api/auth/reset-password', { token: late, password: 'too late secret 9' })).statusCode).toBe(400);
    });

    it('stores passwords as argon2id at OWASP parameters', async () => {
      await signedInUser(store, 'Jane', 'jane@example.com');
      const row = await store.app.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('stores a partner application for review, and refuses a bad website', async () => {
      const browser = new Browser(store.app);
      const good = await browser.write('POST', '/api/auth/partner-signup', { company: 'Acme', website: 'acme.example', contactName: 'Ann', email: 'ann@acme.example' });
      expect(good.statusCode).toBe(201);
      const bad = await browser.write('POST', '/api/auth/partner-signup', { company: 'Acme', website: 'not a site', contactName: 'Ann', email: 'ann@acme.example' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('website:');
      expect(await store.app.db.selectFrom('partner_applications').select(['company', 'website', 'status']).execute()).toEqual([
        { company: 'Acme', website: 'https://acme.example', status: 'pending' },
      ]);
    });
  });
});
