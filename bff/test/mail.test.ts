import type { ParsedMail } from 'mailparser';
import { Browser, GOOD_PASSWORD, startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';
import { startSmtpServer } from './smtp-fixture';

function linkIn(mail: ParsedMail | undefined, path: string): URL {
  const link = (mail?.text ?? '')
    .match(/https?:\/\/\S+/g)
    ?.map((candidate) => new URL(candidate))
    .find((url) => url.pathname === path);
  if (!link) throw new Error(`no link to ${path} in ${mail?.text}`);
  return link;
}

describe.each(storageEngines())('mail over SMTP on $name', (engine) => {
  it('sign-up → the verification mail arrives at the SMTP server → its link verifies → sign-in', async () => {
    const smtp = await startSmtpServer();
    const store = await startIdentityStore(engine, { SMTP_URL: smtp.url, MAIL_FROM: 'BIMI Store <no-reply@store.test>' });
    try {
      const browser = new Browser(store.app);
      expect((await browser.write('POST', '/api/auth/signup', { name: 'Jane Doe', email: 'jane@example.com', password: GOOD_PASSWORD })).statusCode).toBe(201);
      expect(smtp.messages).toHaveLength(1);
      const [mail] = smtp.messages;
      expect(mail?.to && 'text' in mail.to ? mail.to.text : '').toBe('jane@example.com');
      expect(mail?.from?.value).toEqual([{ name: 'BIMI Store', address: 'no-reply@store.test' }]);
      expect(mail?.subject).toBe('Verify your email address for BIMI Store');
      const link = linkIn(mail, '/auth/verify');
      expect(link.origin).toBe('http://store.test');

      // The page at the link posts its token, as the account client does.
      expect((await browser.write('POST', '/api/auth/verify', { token: link.searchParams.get('token') })).statusCode).toBe(200);
      expect((await browser.signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
      expect((await browser.session()).user).toMatchObject({ email: 'jane@example.com' });

      // Nothing went to the development outbox.
      expect(await store.app.db.selectFrom('outbox_messages').select('id').execute()).toEqual([]);
    } finally {
      await store.cleanUp();
      await smtp.close();
    }
  });

  it('answers sign-up with 503 and a way forward when the mail server refuses, keeping the account; signing up again then works', async () => {
    const refused = new Set(['jane@example.com']);
    const smtp = await startSmtpServer({ refuses: (recipient) => refused.has(recipient) });
    const store = await startIdentityStore(engine, { SMTP_URL: smtp.url });
    try {
      const browser = new Browser(store.app);
      const response = await browser.write('POST', '/api/auth/signup', { name: 'Jane', email: 'jane@example.com', password: GOOD_PASSWORD });
      expect(response.statusCode).toBe(503);
      // Words that fit a new and an existing account alike.
      expect(response.json()).toEqual({ message: 'The email to this address could not be sent just now. Please try again in a few minutes.' });
      expect(await store.app.db.selectFrom('users').select('email').execute()).toEqual([{ email: 'jane@example.com' }]);

      // Once mail flows, signing up again sends a fresh link to the account made then.
      refused.clear();
      expect((await browser.write('POST', '/api/auth/signup', { name: 'Jane', email: 'jane@example.com', password: GOOD_PASSWORD })).statusCode).toBe(201);
      expect(smtp.messages.map((mail) => mail.subject)).toEqual(['Verify your email address for BIMI Store']);
      expect((await browser.write('POST', '/api/auth/verify', { token: linkIn(smtp.messages[0], '/auth/verify').searchParams.get('token') })).statusCode).toBe(200);
      expect(await store.app.db.selectFrom('users').select('email').execute()).toEqual([{ email: 'jane@example.com' }]);
    } finally {
      await store.cleanUp();
      await smtp.close();
    }
  });
});

describe.each(storageEngines())('sign-up with a taken address and text in mail headers, over SMTP on $name', (engine) => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let store: IdentityStore;
  let jane: Browser;

  beforeEach(async () => {
    smtp = await startSmtpServer();
    store = await startIdentityStore(engine, { SMTP_URL: smtp.url });
    jane = new Browser(store.app);
    await jane.write('POST', '/api/auth/signup', { name: 'Jane', email: 'jane@example.com', password: GOOD_PASSWORD });
    expect((await jane.write('POST', '/api/auth/verify', { token: linkIn(smtp.messages.at(-1), '/auth/verify').searchParams.get('token') })).statusCode).toBe(200);
    expect((await jane.signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
  });
  afterEach(async () => {
    await store.cleanUp();
    await smtp.close();
  });

  it('answers a sign-up with a verified address as a new one, and the owner gets a "someone tried" mail with sign-in and reset links (finding 5)', async () => {
    const visitor = new Browser(store.app, '192.0.2.40');
    const fresh = await visitor.write('POST', '/api/auth/signup', { name: 'Joe', email: 'joe@example.com', password: GOOD_PASSWORD });
    const taken = await visitor.write('POST', '/api/auth/signup', { name: 'Joe', email: 'jane@example.com', password: GOOD_PASSWORD });
    expect([fresh.statusCode, taken.statusCode]).toEqual([201, 201]);
    expect(taken.body.replaceAll('jane@example.com', 'x')).toBe(fresh.body.replaceAll('joe@example.com', 'x'));

    const [toJoe, toJane] = smtp.messages.slice(-2);
    expect(toJoe?.subject).toBe('Verify your email address for BIMI Store');
    expect(toJane?.to && 'text' in toJane.to ? toJane.to.text : '').toBe('jane@example.com');
    expect(toJane?.subject).toBe('Someone tried to sign up for BIMI Store with your address');
    expect(toJane?.text).toContain('Hello Jane,');
    expect(linkIn(toJane, '/auth/signin').searchParams.get('email')).toBe('jane@example.com');
    expect(linkIn(toJane, '/forgot-password').origin).toBe('http://store.test');
    expect(toJane?.text).not.toMatch(/\/auth\/verify/);
  });

  it('carries a legitimate organization name into the invitation subject unchanged, and refuses one with a line break (finding 8)', async () => {
    const name = 'مؤسسة النور 🚀 Zoë 山田';
    const organization = (await jane.write('POST', '/api/account/organizations', { name })).json();
    expect(organization.name).toBe(name);
    expect((await jane.write('POST', `/api/account/organizations/${organization.id}/invites`, { email: 'joe@example.com', role: 'member' })).statusCode).toBe(201);
    expect(smtp.messages.at(-1)?.subject).toBe(`Jane invited you to ${name} on BIMI Store`);

    const sent = smtp.messages.length;
    for (const hostile of ['Acme\r\nBcc: victim@example.com', 'Acme \u202Egnp.exe', 'Acme\u0000', 'Acme\uD800']) {
      const refused = await jane.write('PATCH', `/api/account/organizations/${organization.id}`, { name: hostile });
      expect(refused.statusCode).toBe(400);
      // A NUL is refused before any route looks at the body (PostgreSQL cannot store it).
      expect(refused.json().message).toMatch(hostile.includes('\u0000') ? /NUL character/ : /^name: Organization name /);
    }
    expect((await jane.request({ url: '/api/account/organizations' })).json().organizations.map((row: { name: string }) => row.name)).toEqual([name]);
    expect(smtp.messages).toHaveLength(sent);
  });

  it('one-lines a name stored before the rules in the invitation subject: no header is added', async () => {
    const organization = (await jane.write('POST', '/api/account/organizations', { name: 'Acme' })).json();
    await store.app.db.updateTable('organizations').set({ name: 'Acme\r\nBcc: victim@example.com \u202Egnp.exe' }).where('id', '=', organization.id).execute();
    await store.app.db.updateTable('users').set({ name: 'Jane\nX-Injected: yes' }).where('email', '=', 'jane@example.com').execute();
    expect((await jane.write('POST', `/api/account/organizations/${organization.id}/invites`, { email: 'joe@example.com', role: 'member' })).statusCode).toBe(201);
    const mail = smtp.messages.at(-1);
    expect(mail?.subject).toBe('Jane X-Injected: yes invited you to Acme Bcc: victim@example.com gnp.exe on BIMI Store');
    expect(mail?.headers.has('bcc')).toBe(false);
    expect(mail?.headers.has('x-injected')).toBe(false);
  });

  it('refuses, in the mailer itself, a header with a line break or control character: nothing reaches the server', async () => {
    const sent = smtp.messages.length;
    for (const message of [
      { to: 'joe@example.com', subject: 'Hello\r\nBcc: victim@example.com', text: 'x' },
      { to: 'joe@example.com\nBcc: victim@example.com', subject: 'Hello', text: 'x' },
      { to: 'joe@example.com', subject: 'Hello\u0000', text: 'x' },
    ]) {
      expect(await store.app.mailer.trySend(message)).toBe(false);
    }
    expect(smtp.messages).toHaveLength(sent);
    expect(store.logs.entries.filter((entry) => entry.msg === 'mail could not be sent')).toHaveLength(3);
  });
});

describe.each(storageEngines())('mail the server refuses, on $name', (engine) => {
  /** Recipients the SMTP server refuses while the test says so. */
  const refused = new Set<string>();
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let store: IdentityStore;
  let jane: Browser;

  beforeEach(async () => {
    refused.clear();
    smtp = await startSmtpServer({ refuses: (recipient) => refused.has(recipient) });
    store = await startIdentityStore(engine, { SMTP_URL: smtp.url });
    jane = new Browser(store.app);
    await jane.write('POST', '/api/auth/signup', { name: 'Jane', email: 'jane@example.com', password: GOOD_PASSWORD });
    expect((await jane.write('POST', '/api/auth/verify', { token: linkIn(smtp.messages.at(-1), '/auth/verify').searchParams.get('token') })).statusCode).toBe(200);
    expect((await jane.signIn('jane@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
  });
  afterEach(async () => {
    await store.cleanUp();
    await smtp.close();
  });

  async function pendingEmailChanges(): Promise<string[]> {
    const rows = await store.app.db.selectFrom('email_tokens').select('email').where('purpose', '=', 'email-change').where('used_at', 'is', null).orderBy('email').execute();
    return rows.map((row) => row.email);
  }

  it('answers an email change with 503 and changes nothing; a retry then works', async () => {
    refused.add('jane@new.example');
    const failed = await jane.write('POST', '/api/account/profile/email', { newEmail: 'jane@new.example', currentPassword: GOOD_PASSWORD });
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toEqual({ message: 'We could not send the confirmation link to jane@new.example just now, so your email address was not changed. Try again in a few minutes.' });
    expect((await jane.request({ url: '/api/account/profile' })).json()).toMatchObject({ email: 'jane@example.com', pendingEmail: null });
    expect(await pendingEmailChanges()).toEqual([]);
    expect(store.logs.entries.some((entry) => entry.msg === 'mail could not be sent' && entry.to === 'jane@new.example')).toBe(true);

    refused.clear();
    const retried = await jane.write('POST', '/api/account/profile/email', { newEmail: 'jane@new.example', currentPassword: GOOD_PASSWORD });
    expect(retried.statusCode).toBe(202);
    expect(retried.json()).toMatchObject({ pendingEmail: 'jane@new.example' });
    const mail = smtp.messages.at(-1);
    expect(mail?.to && 'text' in mail.to ? mail.to.text : '').toBe('jane@new.example');
    expect((await jane.write('POST', '/api/auth/verify', { token: linkIn(mail, '/auth/verify').searchParams.get('token') })).json()).toMatchObject({ email: 'jane@new.example' });
  });

  it('keeps an earlier pending email change when a later one cannot be mailed', async () => {
    expect((await jane.write('POST', '/api/account/profile/email', { newEmail: 'jane@new.example', currentPassword: GOOD_PASSWORD })).statusCode).toBe(202);
    const firstLink = linkIn(smtp.messages.at(-1), '/auth/verify');
    refused.add('jane@other.example');
    expect((await jane.write('POST', '/api/account/profile/email', { newEmail: 'jane@other.example', currentPassword: GOOD_PASSWORD })).statusCode).toBe(503);
    expect((await jane.request({ url: '/api/account/profile' })).json()).toMatchObject({ pendingEmail: 'jane@new.example' });
    expect(await pendingEmailChanges()).toEqual(['jane@new.example']);
    expect((await jane.write('POST', '/api/auth/verify', { token: firstLink.searchParams.get('token') })).json()).toMatchObject({ email: 'jane@new.example' });
  });

  it('answers an invitation with 503 and saves no invitation; a retry then works', async () => {
    const acme = (await jane.write('POST', '/api/account/organizations', { name: 'Acme' })).json();
    refused.add('joe@example.com');
    const failed = await jane.write('POST', `/api/account/organizations/${acme.id}/invites`, { email: 'joe@example.com', role: 'member' });
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toEqual({ message: 'We could not send the invitation to joe@example.com just now, so nobody was invited. Try again in a few minutes.' });
    expect((await jane.request({ url: `/api/account/organizations/${acme.id}/invites` })).json()).toEqual({ invites: [] });
    expect(await store.app.db.selectFrom('organization_invites').select('id').execute()).toEqual([]);

    refused.clear();
    const retried = await jane.write('POST', `/api/account/organizations/${acme.id}/invites`, { email: 'joe@example.com', role: 'member' });
    expect(retried.statusCode).toBe(201);
    expect((await jane.request({ url: `/api/account/organizations/${acme.id}/invites` })).json()).toEqual({ invites: [retried.json()] });
    expect(linkIn(smtp.messages.at(-1), '/account/settings/organizations').searchParams.get('invite')).toBeTruthy();
  });

  it('answers 503 the same when the mail server is down altogether', async () => {
    const acme = (await jane.write('POST', '/api/account/organizations', { name: 'Acme' })).json();
    await smtp.close();
    expect((await jane.write('POST', `/api/account/organizations/${acme.id}/invites`, { email: 'joe@example.com', role: 'member' })).statusCode).toBe(503);
    expect((await jane.write('POST', '/api/account/profile/email', { newEmail: 'jane@new.example', currentPassword: GOOD_PASSWORD })).statusCode).toBe(503);
    expect(await store.app.db.selectFrom('organization_invites').select('id').execute()).toEqual([]);
    expect(await pendingEmailChanges()).toEqual([]);
    smtp = await startSmtpServer();
  });
});

describe('the development outbox', () => {
  const [sqlite] = storageEngines();

  it('lists mails with their links at /dev/outbox and prints them in the log', async () => {
    const store = await startIdentityStore(sqlite!);
    try {
      await new Browser(store.app).write('POST', '/api/auth/signup', { name: 'Jane', email: 'jane@example.com', password: GOOD_PASSWORD });
      const outbox = (await store.app.inject({ url: '/dev/outbox' })).json();
      expect(outbox.mailer).toBe('outbox');
      expect(outbox.messages[0]).toMatchObject({ to: 'jane@example.com', links: [expect.stringMatching(/^http:\/\/store\.test\/auth\/verify\?token=/)] });
      expect(store.logs.entries.some((entry) => String(entry.msg).startsWith('mail written to the development outbox') && String(entry.text).includes('/auth/verify?token='))).toBe(true);
    } finally {
      await store.cleanUp();
    }
  });

  it('answers only clients on this machine, and says so at start-up (issue 31)', async () => {
    const store = await startIdentityStore(sqlite!);
    try {
      await new Browser(store.app).write('POST', '/api/auth/signup', { name: 'Jane', email: 'jane@example.com', password: GOOD_PASSWORD });
      expect(store.logs.entries.some((entry) => String(entry.msg).startsWith('development outbox: GET /dev/outbox lists every mail') && String(entry.msg).includes('loopback'))).toBe(true);
      for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        expect({ remoteAddress, status: (await store.app.inject({ url: '/dev/outbox', remoteAddress })).statusCode }).toEqual({ remoteAddress, status: 200 });
      }
      for (const remoteAddress of ['203.0.113.9', '10.0.0.2', '::ffff:192.0.2.1', '2001:db8::1']) {
        const answer = await store.app.inject({ url: '/dev/outbox', remoteAddress });
        expect({ remoteAddress, status: answer.statusCode }).toEqual({ remoteAddress, status: 404 });
        expect(answer.body).not.toContain('jane@example.com');
      }
      // A proxy on this machine forwarding a visitor (TRUST_PROXY unset): not a local client.
      const proxied = await store.app.inject({ url: '/dev/outbox', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '198.51.100.7' } });
      expect(proxied.statusCode).toBe(404);
    } finally {
      await store.cleanUp();
    }
  });

  it('does not exist in production', async () => {
    const store = await startIdentityStore(sqlite!, { NODE_ENV: 'production', SESSION_SECRET: 'a production secret of at least 32 characters' });
    try {
      expect((await store.app.inject({ url: '/dev/outbox' })).statusCode).toBe(404);
    } finally {
      await store.cleanUp();
    }
  });
});
