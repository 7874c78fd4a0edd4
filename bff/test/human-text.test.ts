import { HOSTILE_TEXT, LEGITIMATE_TEXT, LINE_BREAKS } from '@bimi/contracts/human-text-samples';
import { Browser, GOOD_PASSWORD, signedInUser, startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';

/**
 * Finding 8: NUL, BEL, CR/LF, U+202E and lone surrogates were kept in names, organization names and
 * ticket subjects. Every human text field, through the API: each hostile input answers 400 naming
 * the field and stores nothing; real names in many scripts are stored exactly as typed.
 */
describe.each(storageEngines())('human text through the API on $name', (engine) => {
  let store: IdentityStore;
  let jane: Browser;
  let address = 0;
  /** Jane's session from a new address each time, so the per-address limits of the forms stay out of the way. */
  const asJane = () => {
    const browser = new Browser(store.app, `10.${Math.floor(address / 250)}.${address++ % 250}.1`);
    for (const [name, value] of jane.cookies) browser.cookies.set(name, value);
    return browser;
  };

  beforeAll(async () => {
    store = await startIdentityStore(engine);
    jane = await signedInUser(store, 'Jane', 'jane@example.com');
  });
  afterAll(async () => {
    await store.cleanUp();
  });

  const rowCounts = async () => {
    const count = async (table: 'users' | 'organizations' | 'contacts' | 'support_tickets' | 'contact_messages' | 'partner_applications') =>
      Number(
        (
          await store.app.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      users: await count('users'),
      organizations: await count('organizations'),
      contacts: await count('contacts'),
      tickets: await count('support_tickets'),
      contactMessages: await count('contact_messages'),
      partners: await count('partner_applications'),
    };
  };

  const forms: { what: string; method: 'POST' | 'PATCH'; url: string; valid: Record<string, unknown>; lines: string[]; multiline?: string[]; csrf?: false }[] = [
    { what: 'sign-up', method: 'POST', url: '/api/auth/signup', valid: { name: 'Joe', email: 'joe@example.com', password: GOOD_PASSWORD }, lines: ['name'] },
    { what: 'profile', method: 'PATCH', url: '/api/account/profile', valid: { name: 'Jane' }, lines: ['name'] },
    { what: 'new organization', method: 'POST', url: '/api/account/organizations', valid: { name: 'Acme' }, lines: ['name'] },
    {
      what: 'validation contact',
      method: 'POST',
      url: '/api/account/contacts',
      valid: { kind: 'technical', name: 'Ann', email: 'ann@acme.example', phone: '+12025550143', jobTitle: 'CTO', company: 'Acme' },
      lines: ['name', 'phone', 'jobTitle', 'company'],
    },
    {
      what: 'support ticket',
      method: 'POST',
      url: '/api/account/support/tickets',
      valid: { category: 'billing', subject: 'Invoice', message: 'Please resend my invoice.' },
      lines: ['subject'],
      multiline: ['message'],
    },
    {
      what: 'contact form',
      method: 'POST',
      url: '/api/contact',
      valid: { name: 'Ann', email: 'ann@acme.example', company: 'Acme', topic: 'sales', message: 'I would like a quote.' },
      lines: ['name', 'company'],
      multiline: ['message'],
      csrf: false,
    },
    {
      what: 'partner sign-up',
      method: 'POST',
      url: '/api/auth/partner-signup',
      valid: { company: 'Acme', website: 'acme.example', contactName: 'Ann', email: 'ann@acme.example', phone: '+12025550143', message: 'Hello there.' },
      lines: ['company', 'contactName', 'phone'],
      multiline: ['message'],
    },
  ];

  it.each(forms)('$what: answers 400 naming the field for every hostile input, and stores nothing', async (form) => {
    const before = await rowCounts();
    const profileBefore = (await jane.request({ url: '/api/account/profile' })).json();
    for (const field of [...form.lines, ...(form.multiline ?? [])]) {
      const inputs = form.lines.includes(field) ? [...HOSTILE_TEXT, ...LINE_BREAKS] : HOSTILE_TEXT;
      for (const [what, hostile] of inputs) {
        const payload = { ...form.valid, [field]: `${hostile} and more words` };
        const browser = asJane();
        const response =
          form.csrf === false ? await store.app.inject({ method: form.method, url: form.url, payload, remoteAddress: browser.ip }) : await browser.write(form.method, form.url, payload);
        expect({ field, what, status: response.statusCode, message: response.json().message }).toEqual({
          field,
          what,
          status: 400,
          // A NUL is refused before any route reads the body (PostgreSQL cannot store it), in words of its own.
          message: hostile.includes('\u0000')
            ? expect.stringMatching(/NUL character/)
            : expect.stringMatching(new RegExp(`^${field}: .*(control or invisible formatting characters|one line|broken character)`)),
        });
      }
    }
    expect(await rowCounts()).toEqual(before);
    expect((await jane.request({ url: '/api/account/profile' })).json()).toEqual(profileBefore);
  });

  it.each(LEGITIMATE_TEXT)('stores %s exactly as typed: account name, organization, contact, ticket subject, contact form', async (text) => {
    const browser = asJane();
    expect((await browser.write('PATCH', '/api/account/profile', { name: text })).json().name).toBe(text);
    expect((await jane.request({ url: '/api/auth/session' })).json().user.name).toBe(text);
    expect((await browser.write('POST', '/api/account/organizations', { name: text })).json().name).toBe(text);
    expect((await browser.write('POST', '/api/account/contacts', { kind: 'legal', name: text, email: 'ann@acme.example', company: text })).json()).toMatchObject({
      name: text,
      company: text,
    });
    expect((await browser.write('POST', '/api/account/support/tickets', { category: 'other', subject: text, message: `${text}\nsecond line` })).json()).toMatchObject({
      subject: text,
      message: `${text}\nsecond line`,
    });
    const contact = await store.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: text, email: 'ann@acme.example', topic: 'other', message: `A message about ${text}` },
      remoteAddress: asJane().ip,
    });
    expect(contact.statusCode).toBe(201);
    const stored = await store.app.db.selectFrom('contact_messages').select(['name', 'message']).orderBy('created_at', 'desc').execute();
    expect(stored.some((row) => row.name === text && row.message === `A message about ${text}`)).toBe(true);
  });

  it('stores a name typed in decomposed form as NFC, trimmed', async () => {
    const browser = asJane();
    expect((await browser.write('PATCH', '/api/account/profile', { name: '  Zoe\u0308 Ange\u0301lique ' })).json().name).toBe('Zoë Angélique');
  });
});
