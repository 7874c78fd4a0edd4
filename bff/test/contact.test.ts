import { startTestStore, type TestStore } from './fixtures';

const VALID = {
  name: 'Jane Doe',
  email: 'jane.doe@example.com',
  company: 'Example Corp',
  topic: 'validation',
  message: 'Our trademark is registered in Canada only. Can we still get a VMC?',
};

function send(store: TestStore, payload: unknown, remoteAddress = '127.0.0.1') {
  return store.app.inject({ method: 'POST', url: '/api/contact', payload: payload as object, remoteAddress });
}

async function storedMessages(store: TestStore) {
  return store.app.db.selectFrom('contact_messages').select(['id', 'name', 'email', 'company', 'topic', 'message']).orderBy('id').execute();
}

describe('POST /api/contact', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await startTestStore();
  });
  afterEach(() => store.cleanUp());

  it('stores a valid message, trimmed, and answers 201 with its reference', async () => {
    const response = await send(store, { ...VALID, name: '  Jane Doe ', message: `  ${VALID.message}\n` });
    expect(response.statusCode).toBe(201);
    const receipt = response.json();
    expect(receipt.reference).toMatch(/^C-\d{6}$/);
    expect(receipt.message).toContain(receipt.reference);
    const rows = await storedMessages(store);
    expect(rows).toEqual([{ id: 1, ...VALID }]);
    expect(receipt.reference).toBe('C-000001');
  });

  it('stores a message without a company as null', async () => {
    const { company: _company, ...withoutCompany } = VALID;
    expect((await send(store, withoutCompany)).statusCode).toBe(201);
    expect((await send(store, { ...withoutCompany, company: '   ' })).statusCode).toBe(201);
    expect((await storedMessages(store)).map((row) => row.company)).toEqual([null, null]);
  });

  it.each([
    [{ ...VALID, name: '' }, 'name: Name is required'],
    [{ ...VALID, name: '   ' }, 'name: Name is required'],
    [{ ...VALID, email: 'jane@' }, 'email: Enter a valid email address'],
    [{ ...VALID, email: undefined }, 'email: Email is required'],
    [{ ...VALID, topic: 'lottery' }, 'topic: Choose a topic'],
    [{ ...VALID, message: 'Hi' }, 'message: Message must be at least 10 characters'],
    [{ ...VALID, message: 'x'.repeat(5001) }, 'message: Message must be at most 5000 characters'],
    [{ ...VALID, company: 'c'.repeat(201) }, 'company: Company must be at most 200 characters'],
    [{ ...VALID, name: 42 }, 'name: Name is required'],
  ])('refuses %j with 400 and the field at fault, storing nothing', async (payload, message) => {
    const response = await send(store, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(await storedMessages(store)).toEqual([]);
  });

  it('refuses a body that is not JSON or not an object, storing nothing', async () => {
    const broken = await store.app.inject({ method: 'POST', url: '/api/contact', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(broken.statusCode).toBe(400);
    expect(typeof broken.json().message).toBe('string');
    const list = await send(store, [VALID]);
    expect(list.statusCode).toBe(400);
    const tooLarge = await send(store, { ...VALID, message: 'x'.repeat(40 * 1024) });
    expect(tooLarge.statusCode).toBe(413);
    expect(await storedMessages(store)).toEqual([]);
  });

  it('limits each client to 5 messages in 10 minutes', async () => {
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await send(store, { ...VALID, message: `Message number ${attempt} about our VMC.` }, '203.0.113.7')).statusCode).toBe(201);
    }
    const limited = await send(store, VALID, '203.0.113.7');
    expect(limited.statusCode).toBe(429);
    // In our words with the wait rounded up to whole minutes (10-minute window), as every 429 of the bff.
    expect(limited.json().message).toBe('Too many attempts. Try again in 10 minutes.');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(540);
    expect(await storedMessages(store)).toHaveLength(5);
    expect((await send(store, VALID, '203.0.113.8')).statusCode).toBe(201);
  });
});
