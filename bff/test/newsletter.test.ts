import { startTestStore, type TestStore } from './fixtures';

function subscribe(store: TestStore, query: Record<string, string>, remoteAddress = '127.0.0.1') {
  return store.app.inject({ url: '/api/newsletter/subscribe', query, remoteAddress });
}

async function storedAddresses(store: TestStore): Promise<string[]> {
  const rows = await store.app.db.selectFrom('newsletter_subscribers').select('email').orderBy('id').execute();
  return rows.map((row) => row.email);
}

describe('GET /api/newsletter/subscribe', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await startTestStore();
  });
  afterEach(() => store.cleanUp());

  it('answers like a mailing-list provider and stores the address lowercased', async () => {
    const response = await subscribe(store, { email: '  Jane.Doe@Example.COM ', c: 'jsonp_1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.body).toBe('jsonp_1({"result":"success","msg":"Thanks for joining our newsletter!"})');
    expect(await storedAddresses(store)).toEqual(['jane.doe@example.com']);
  });

  it('stores an address once, answering success again', async () => {
    await subscribe(store, { email: 'jane@example.com', c: 'cb' });
    const again = await subscribe(store, { email: 'JANE@example.com', c: 'cb' });
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe('cb({"result":"success","msg":"Thanks for joining our newsletter!"})');
    expect(await storedAddresses(store)).toEqual(['jane@example.com']);
  });

  it.each([
    [{ email: 'not-an-email' }, 'Enter a valid email address'],
    [{}, 'Email is required'],
    [{ email: '' }, 'Email is required'],
    [{ email: `${'a'.repeat(250)}@example.com` }, 'Email must be at most 256 characters'],
  ])('answers %j with an error result the page can show, status 200', async (query, msg) => {
    const response = await subscribe(store, { ...query, c: 'cb' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(`cb(${JSON.stringify({ result: 'error', msg })})`);
    expect(await storedAddresses(store)).toEqual([]);
  });

  it.each([
    [{ email: 'jane@example.com' }, 'a missing callback'],
    [{ email: 'jane@example.com', c: 'alert(1);cb' }, 'a callback that is not a plain name'],
    // Names that already mean something in the page (issue 31), and one past the length cap.
    [{ email: 'jane@example.com', c: 'eval' }, 'a callback naming a built-in'],
    [{ email: 'jane@example.com', c: 'alert' }, 'a callback naming a built-in'],
    [{ email: 'jane@example.com', c: 'location' }, 'a callback naming a built-in'],
    [{ email: 'jane@example.com', c: `cb_${'a'.repeat(20)}_${'b'.repeat(20)}_${'c'.repeat(21)}` }, 'a callback past the length cap'],
  ])('answers %j (%s) with 400 JSON', async (query: Record<string, string>, _case: string) => {
    const response = await subscribe(store, query);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json().message).toMatch(/^c: /);
    expect(await storedAddresses(store)).toEqual([]);
  });

  it('limits each client to 10 sign-ups a minute', async () => {
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expect((await subscribe(store, { email: `reader${attempt}@example.com`, c: 'cb' }, '203.0.113.7')).statusCode).toBe(200);
    }
    const limited = await subscribe(store, { email: 'reader11@example.com', c: 'cb' }, '203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe('Too many attempts. Try again in 1 minute.');
    expect(await storedAddresses(store)).not.toContain('reader11@example.com');

    expect((await subscribe(store, { email: 'neighbour@example.com', c: 'cb' }, '203.0.113.8')).statusCode).toBe(200);
  });
});
