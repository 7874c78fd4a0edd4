import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { Browser, GOOD_PASSWORD, startIdentityStore, storageEngines } from './identity-fixtures';

/** A real SMTP server on loopback that keeps every message it receives, parsed. */
async function startSmtpServer(): Promise<{ url: string; messages: ParsedMail[]; close(): Promise<void> }> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        messages.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function linkIn(mail: ParsedMail | undefined, path: string): URL {
  const link = (mail?.text ?? '').match(/https?:\/\/\S+/g)?.map((candidate) => new URL(candidate)).find((url) => url.pathname === path);
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

  it('answers sign-up with 503 and a way forward when the mail server refuses, keeping the account', async () => {
    const smtp = await startSmtpServer();
    await smtp.close();
    const store = await startIdentityStore(engine, { SMTP_URL: smtp.url });
    try {
      const response = await new Browser(store.app).write('POST', '/api/auth/signup', { name: 'Jane', email: 'jane@example.com', password: GOOD_PASSWORD });
      expect(response.statusCode).toBe(503);
      expect(response.json().message).toMatch(/could not be sent/);
      expect(await store.app.db.selectFrom('users').select('email').execute()).toEqual([{ email: 'jane@example.com' }]);
    } finally {
      await store.cleanUp();
    }
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

  it('does not exist in production', async () => {
    const store = await startIdentityStore(sqlite!, { NODE_ENV: 'production', SESSION_SECRET: 'a production secret of at least 32 characters' });
    try {
      expect((await store.app.inject({ url: '/dev/outbox' })).statusCode).toBe(404);
    } finally {
      await store.cleanUp();
    }
  });
});
