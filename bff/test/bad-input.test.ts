import { Browser, signedInUser, startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';

/** Bodies a client may send by mistake or on purpose: none of them is a server error. */
const BAD_JSON_BODIES: unknown[] = [null, [], 'text', 42, true, {}, { email: { $gt: '' } }, { name: 'x'.repeat(100_000) }, { token: ['a'], password: 7 }];

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

describe.each(storageEngines())('bad input on $name', (engine) => {
  let store: IdentityStore;
  let jane: Browser;
  beforeAll(async () => {
    store = await startIdentityStore(engine, { SIGNUP_RATE_LIMIT_PER_HOUR: '1000' });
    jane = await signedInUser(store, 'Jane Doe', 'jane@example.com');
  });
  afterAll(async () => {
    await store.cleanUp();
  });

  it.each(WRITES)('%s %s answers every malformed body with a 4xx and a message, never a 5xx', async (method, url) => {
    const token = await jane.csrfToken();
    for (const body of BAD_JSON_BODIES) {
      const response = await jane.request({ method, url, json: body, headers: { 'x-csrf-token': token } });
      // 429 is a refusal too: the tighter per-route limits are reached by this loop itself.
      expect({ body, status: response.statusCode < 500 && response.statusCode >= 400 }).toEqual({ body, status: true });
      expect(typeof response.json().message).toBe('string');
    }
    const notJson = await jane.request({ method, url, headers: { 'x-csrf-token': token, 'content-type': 'application/json' } });
    expect(notJson.statusCode).toBeLessThan(500);
  });

  it.each(['/api/tools/dmarc', '/api/tools/spf', '/api/tools/dkim', '/api/tools/bimi', '/api/tools/vmc', '/api/tools/txt', '/api/tools/cname', '/api/tools/records'])(
    'GET %s answers missing, repeated, empty and nonsense query values with a 4xx',
    async (url) => {
      for (const query of ['', '?domain=a&domain=b&name=a&name=b', '?domain=&name=&url=', '?domain=%00&name=%00&selector=..', '?url=javascript:alert(1)', `?domain=${'a'.repeat(2000)}`]) {
        const response = await jane.request({ url: `${url}${query}` });
        expect({ query, status: response.statusCode >= 400 && response.statusCode < 500 }).toEqual({ query, status: true });
      }
    },
  );

  it('answers the sign-in form, url-encoded as NextAuth posts it, with 4xx when it is incomplete', async () => {
    const visitor = new Browser(store.app, '203.0.113.99');
    const token = await visitor.csrfToken();
    const forms: Record<string, string>[] = [{}, { csrfToken: token }, { csrfToken: token, email: 'jane@example.com' }, { csrfToken: token, email: 'x'.repeat(5000), password: 'p' }];
    for (const form of forms) {
      const response = await visitor.request({ method: 'POST', url: '/api/auth/callback/credentials', form });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
  });

  it('answers a body that is not JSON at all with 400', async () => {
    const token = await jane.csrfToken();
    const response = await store.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token },
      payload: '{"name": ',
    });
    expect(response.statusCode).toBe(400);
    expect(typeof response.json().message).toBe('string');
  });
});
