import { shownMessage, showsCodeName } from '@bimi/contracts/api-error';
import { snapshotDatabase } from './db-snapshot';
import { Browser, freshClientAddress, signedInUser, startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';

// The real bff hashes passwords (argon2id) for each account: seconds, not milliseconds, on a busy machine.

/** Bodies a client may send by mistake or on purpose: none of them is a server error. */
const BAD_JSON_BODIES: unknown[] = [null, [], 'text', 42, true, {}, { email: { $gt: '' } }, { name: 'x'.repeat(100_000) }, { token: ['a'], password: 7 }];
/** Over the body limit (64 KB unless a route sets its own, 32 or 96 KB on some): those answer 413 before validation, the rest 400. */
const OVERSIZED = BAD_JSON_BODIES[7];

/** Every write the bff takes as JSON; the account ones with a session, all of them with a good CSRF token. */
const WRITES: [string, string][] = [
  ['POST', '/api/auth/signup'],
  ['POST', '/api/auth/verify'],
  ['POST', '/api/auth/resend-verification'],
  ['POST', '/api/auth/forgot-password'],
  ['POST', '/api/auth/reset-password'],
  ['POST', '/api/auth/partner-signup'],
  ['POST', '/api/auth/_log'],
  ['POST', '/api/contact'],
  ['POST', '/api/cart/quote'],
  ['POST', '/api/tools/vmc'],
  ['PATCH', '/api/account/profile'],
  ['POST', '/api/account/profile/email'],
  ['POST', '/api/account/profile/password'],
  ['PUT', '/api/account/notifications'],
  ['POST', '/api/account/organizations'],
  ['PATCH', '/api/account/organizations/not-an-id'],
  ['PATCH', '/api/account/organizations/00000000-0000-4000-8000-000000000000/members/00000000-0000-4000-8000-000000000000'],
  ['POST', '/api/account/organizations/00000000-0000-4000-8000-000000000000/invites'],
  ['POST', '/api/account/invites/accept'],
  ['POST', '/api/account/contacts'],
  ['PUT', '/api/account/contacts/00000000-0000-4000-8000-000000000000'],
  ['POST', '/api/account/support/tickets'],
];

/**
 * Issue 32: what a page shows of a refusal (`shownMessage`: the field's code name taken off, for
 * the form to place the words under that field) never carries a field's code name.
 */
function expectNoCodeName(where: string, message: string) {
  const shown = shownMessage(message).text;
  expect({ where, shown, codeName: showsCodeName(shown) }).toEqual({ where, shown, codeName: false });
}

describe.each(storageEngines())('bad input on $name', (engine) => {
  let store: IdentityStore;
  let jane: Browser;
  beforeAll(async () => {
    // Tool lookups, should any get past validation, go to a closed local port, never to the network.
    store = await startIdentityStore(engine, { SIGNUP_RATE_LIMIT_PER_HOUR: '1000', DNS_SERVERS: '127.0.0.1:9', TOOLS_DNS_TIMEOUT_MS: '100' });
    jane = await signedInUser(store, 'Jane Doe', 'jane@example.com');
  });
  afterAll(async () => {
    await store.cleanUp();
  });

  // Each request comes from an address of its own, so no per-address rate limit answers 429 before
  // the body is validated: every bad body below is refused by validation itself.
  it.each(WRITES)('%s %s answers every malformed body with 400 and a message, and writes nothing', async (method, url) => {
    const token = await jane.csrfToken();
    const before = await snapshotDatabase(store.app.db);
    for (const body of BAD_JSON_BODIES) {
      const response = await jane.request({ method, url, json: body, headers: { 'x-csrf-token': token }, ip: freshClientAddress() });
      const allowed = body === OVERSIZED ? [400, 413] : [400];
      expect({ body, status: response.statusCode }).toEqual({ body, status: allowed.includes(response.statusCode) ? response.statusCode : allowed });
      expect(response.json()).toEqual({ message: expect.stringMatching(/\S/) });
      expectNoCodeName(url, response.json().message);
    }
    const notJson = await jane.request({ method, url, headers: { 'x-csrf-token': token, 'content-type': 'application/json' }, ip: freshClientAddress() });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toEqual({ message: expect.stringMatching(/\S/) });
    expect(await snapshotDatabase(store.app.db)).toEqual(before);
  });

  it.each(['/api/tools/dmarc', '/api/tools/spf', '/api/tools/dkim', '/api/tools/bimi', '/api/tools/vmc', '/api/tools/txt', '/api/tools/cname', '/api/tools/records'])(
    'GET %s answers missing, repeated, empty and nonsense query values with 400 and a message',
    async (url) => {
      const before = await snapshotDatabase(store.app.db);
      for (const query of ['', '?domain=a&domain=b&name=a&name=b', '?domain=&name=&url=', '?domain=%00&name=%00&selector=..', '?url=javascript:alert(1)', `?domain=${'a'.repeat(2000)}`]) {
        const response = await jane.request({ url: `${url}${query}`, ip: freshClientAddress() });
        expect({ query, status: response.statusCode }).toEqual({ query, status: 400 });
        expect(response.json()).toEqual({ message: expect.stringMatching(/\S/) });
        expectNoCodeName(`${url}${query}`, response.json().message);
      }
      expect(await snapshotDatabase(store.app.db)).toEqual(before);
    },
  );

  it('answers the sign-in form, url-encoded as NextAuth posts it, with 403 without a CSRF token and 401 when it is incomplete', async () => {
    const visitor = new Browser(store.app, '203.0.113.99');
    const token = await visitor.csrfToken();
    const before = await snapshotDatabase(store.app.db);
    const forms: [Record<string, string>, number][] = [
      [{}, 403],
      [{ csrfToken: token }, 401],
      [{ csrfToken: token, email: 'jane@example.com' }, 401],
      [{ csrfToken: token, email: 'x'.repeat(5000), password: 'p' }, 401],
    ];
    for (const [form, status] of forms) {
      const response = await visitor.request({ method: 'POST', url: '/api/auth/callback/credentials', form, ip: freshClientAddress() });
      expect({ form: Object.keys(form), status: response.statusCode }).toEqual({ form: Object.keys(form), status });
      expect(response.json()).toEqual({ url: expect.stringContaining('/auth/signin?error='), message: expect.stringMatching(/\S/) });
    }
    expect(await visitor.session()).toEqual({});
    expect(await snapshotDatabase(store.app.db)).toEqual(before);
  });

  it('answers a body that is not JSON at all with 400', async () => {
    const token = await jane.csrfToken();
    const before = await snapshotDatabase(store.app.db);
    const response = await store.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token },
      payload: '{"name": ',
      remoteAddress: freshClientAddress(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: expect.stringMatching(/\S/) });
    expect(await snapshotDatabase(store.app.db)).toEqual(before);
  });

  it('says why valid JSON with a __proto__ key is refused, and where a body is not JSON', async () => {
    const token = await jane.csrfToken();
    const send = (payload: string) =>
      store.app.inject({ method: 'POST', url: '/api/cart/quote', headers: { 'content-type': 'application/json', 'x-csrf-token': token }, payload, remoteAddress: freshClientAddress() });
    const poisoned = await send('{"items":[],"__proto__":{"admin":true}}');
    expect(poisoned.statusCode).toBe(400);
    expect(poisoned.json().message).toBe('The JSON body has a "__proto__" or "constructor" key, which no field accepts');
    const broken = await send('{"items": ');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/^The body is not valid JSON: /);
  });

  // Found by the fuzz suite: PostgreSQL cannot store U+0000, so these answered 500 there (SQLite stored it).
  it.each([
    ['POST', '/api/analytics/pageview', { path: '/a\u0000b', title: 'Home' }],
    ['POST', '/api/client-errors', { kind: 'shell', message: 'a\u0000b' }],
    ['GET', '/api/account/checkout/a%00b', undefined],
    ['GET', '/api/account/monitors/r%00/assistant', undefined],
    ['PATCH', '/api/account/profile', { name: 'Jane\u0000Doe' }],
    ['GET', '/api/tools/dmarc?domain=example.com%00', undefined],
  ] as const)('refuses a NUL character in %s %s with 400, and writes nothing', async (method, url, json) => {
    const token = await jane.csrfToken();
    const before = await snapshotDatabase(store.app.db);
    const response = await jane.request({ method, url, json, headers: { 'x-csrf-token': token }, ip: freshClientAddress() });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: expect.stringMatching(/NUL|U\+0000|control/) });
    expect(await snapshotDatabase(store.app.db)).toEqual(before);
  });
});
