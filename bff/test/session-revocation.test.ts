import { SESSION_IDLE_LIMIT_MS } from '@bimi/contracts/auth';
import { Browser, GOOD_PASSWORD, linkFromOutbox, signedInUser, startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';

const NEW_PASSWORD = 'a brand new secret 7';

/** The session id inside the signed `bimi.session` cookie. */
function sessionId(browser: Browser): string {
  const cookie = decodeURIComponent(browser.cookies.get('bimi.session') ?? '');
  return cookie.slice(0, cookie.lastIndexOf('.'));
}

describe.each(storageEngines())('ending a user’s sessions on $name', (engine) => {
  let store: IdentityStore;
  /** Jane on her laptop and on her phone: two sessions of one user. */
  let laptop: Browser;
  let phone: Browser;
  let joe: Browser;
  beforeEach(async () => {
    store = await startIdentityStore(engine);
    laptop = await signedInUser(store, 'Jane', 'jane@example.com', '203.0.113.1');
    phone = new Browser(store.app, '203.0.113.2');
    expect((await phone.signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
    joe = await signedInUser(store, 'Joe', 'joe@example.com', '203.0.113.3');
    // The change comes later than the sign-ins (the bff's clock stands still otherwise).
    store.advance(60_000);
  });
  afterEach(async () => {
    await store.cleanUp();
  });

  async function janeId(): Promise<string> {
    return (await store.app.db.selectFrom('users').select('id').where('email', 'like', 'jane@%').executeTakeFirstOrThrow()).id;
  }

  /** How many sessions of Jane the store still holds. */
  async function storedSessionsOfJane(): Promise<number> {
    const id = await janeId();
    if (engine.redis) return (await store.app.redis?.zcard(`${store.app.config.redisKeyPrefix}user-sessions:${id}`)) ?? 0;
    return (await store.app.db.selectFrom('sessions').select('sid').where('user_id', '=', id).execute()).length;
  }

  async function expectSignedOut(browser: Browser): Promise<void> {
    expect(await browser.session()).toEqual({});
    const profile = await browser.request({ url: '/api/account/profile' });
    expect(profile.statusCode).toBe(401);
    expect(profile.json()).toEqual({ message: 'Sign in to continue' });
  }

  async function expectSignedInAs(browser: Browser, email: string): Promise<void> {
    expect((await browser.session()).user).toMatchObject({ email });
    expect((await browser.request({ url: '/api/account/profile' })).json()).toMatchObject({ email });
  }

  it('a password change ends the other session and keeps this one, under a new id', async () => {
    expect(await storedSessionsOfJane()).toBe(2);
    const laptopIdBefore = sessionId(laptop);
    const changed = await laptop.write('POST', '/api/account/profile/password', { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().message).toMatch(/signed out everywhere else/);

    await expectSignedOut(phone);
    await expectSignedInAs(laptop, 'jane@example.com');
    expect(sessionId(laptop)).not.toBe(laptopIdBefore);
    // The laptop's old id is worthless too.
    const oldCookie = new Browser(store.app);
    oldCookie.cookies.set('bimi.session', encodeURIComponent(`${laptopIdBefore}.x`));
    expect(await oldCookie.session()).toEqual({});
    // The store holds only the laptop's new session, which keeps working for the full idle limit.
    expect(await storedSessionsOfJane()).toBe(1);
    // Another user is untouched.
    await expectSignedInAs(joe, 'joe@example.com');
    store.advance(SESSION_IDLE_LIMIT_MS - 1);
    await expectSignedInAs(laptop, 'jane@example.com');
    // The phone signs in again, with the new password only.
    expect((await phone.signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(401);
    expect((await phone.signIn('jane@example.com', NEW_PASSWORD)).statusCode).toBe(200);
    await expectSignedInAs(phone, 'jane@example.com');
  });

  it('forgets ended sessions, so the index of a user’s sessions holds only live ones', async () => {
    expect(await storedSessionsOfJane()).toBe(2);
    store.advance(SESSION_IDLE_LIMIT_MS);
    expect((await new Browser(store.app, '203.0.113.9').signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
    expect(await storedSessionsOfJane()).toBe(1);
  });

  it('a refused password change (wrong current password) ends nothing', async () => {
    const refused = await laptop.write('POST', '/api/account/profile/password', { currentPassword: 'not my password 1', newPassword: NEW_PASSWORD });
    expect(refused.statusCode).toBe(400);
    await expectSignedInAs(phone, 'jane@example.com');
    await expectSignedInAs(laptop, 'jane@example.com');
  });

  it('a session written back by a request in flight during the change stays ended', async () => {
    const phoneId = sessionId(phone);
    const key = `${store.app.config.redisKeyPrefix}session:${phoneId}`;
    // What the phone's request, loaded before the change, would save after it.
    const stale = engine.redis ? await store.app.redis?.get(key) : await store.app.db.selectFrom('sessions').selectAll().where('sid', '=', phoneId).executeTakeFirstOrThrow();
    expect(stale).toBeTruthy();
    expect((await laptop.write('POST', '/api/account/profile/password', { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD })).statusCode).toBe(200);
    if (engine.redis) await store.app.redis?.set(key, stale as string, 'PX', 60_000);
    else
      await store.app.db
        .insertInto('sessions')
        .values(stale as { sid: string; user_id: string | null; data: string; expires_at: string })
        .execute();
    await expectSignedOut(phone);
    await expectSignedInAs(laptop, 'jane@example.com');
  });

  it('a password reset ends every session of the account, the one that reset it too', async () => {
    const stranger = new Browser(store.app, '198.51.100.20');
    await stranger.write('POST', '/api/auth/forgot-password', { email: 'jane@example.com' });
    const token = new URL(await linkFromOutbox(store.app, 'jane@example.com', '/auth/reset-password')).searchParams.get('token');
    // Jane follows the link on her phone, still signed in there.
    const reset = await phone.write('POST', '/api/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().message).toMatch(/signed out everywhere/);
    await expectSignedOut(phone);
    await expectSignedOut(laptop);
    expect(await storedSessionsOfJane()).toBe(0);
    await expectSignedInAs(joe, 'joe@example.com');
    expect((await laptop.signIn('jane@example.com', NEW_PASSWORD)).statusCode).toBe(200);
    await expectSignedInAs(laptop, 'jane@example.com');
  });

  it('a reset link that is refused ends nothing', async () => {
    const reset = await new Browser(store.app).write('POST', '/api/auth/reset-password', { token: 'a'.repeat(43), password: NEW_PASSWORD });
    expect(reset.statusCode).toBe(400);
    await expectSignedInAs(phone, 'jane@example.com');
    await expectSignedInAs(laptop, 'jane@example.com');
  });

  it('completing an email change ends the other sessions and keeps the one that followed the link', async () => {
    expect((await laptop.write('POST', '/api/account/profile/email', { newEmail: 'jane@new.example', currentPassword: GOOD_PASSWORD })).statusCode).toBe(202);
    // Asking is not enough: the phone stays signed in until the new address is confirmed.
    await expectSignedInAs(phone, 'jane@example.com');
    const token = new URL(await linkFromOutbox(store.app, 'jane@new.example', '/auth/verify')).searchParams.get('token');
    expect((await laptop.write('POST', '/api/auth/verify', { token })).json()).toMatchObject({ purpose: 'email-change', email: 'jane@new.example' });
    await expectSignedOut(phone);
    await expectSignedInAs(laptop, 'jane@new.example');
    await expectSignedInAs(joe, 'joe@example.com');
  });

  it('an email change confirmed from a signed-out browser ends every session', async () => {
    await laptop.write('POST', '/api/account/profile/email', { newEmail: 'jane@new.example', currentPassword: GOOD_PASSWORD });
    const token = new URL(await linkFromOutbox(store.app, 'jane@new.example', '/auth/verify')).searchParams.get('token');
    // The mail opened on another computer, signed in as Joe: Joe's session is his own business.
    expect((await joe.write('POST', '/api/auth/verify', { token })).statusCode).toBe(200);
    await expectSignedOut(phone);
    await expectSignedOut(laptop);
    await expectSignedInAs(joe, 'joe@example.com');
    expect((await laptop.signIn('jane@new.example', GOOD_PASSWORD)).statusCode).toBe(200);
  });
});
