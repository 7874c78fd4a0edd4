// A real SMTP server on loopback for the e2e run: the bff sends its mail here through
// nodemailer (SMTP_URL), exactly as it would to a provider, and every message is parsed and
// written as JSON into <run dir>/mail/, where the flows read it (support/mail.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

/** Starts the server; resolves with the SMTP_URL pointing at it and a function that stops it. */
export async function startSmtpSink(mailDir) {
  mkdirSync(mailDir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    // Loopback only: no TLS certificate to trust and no credentials to check.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          count += 1;
          const message = {
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            receivedAt: new Date().toISOString(),
          };
          writeFileSync(path.join(mailDir, `${String(count).padStart(5, '0')}.json`), JSON.stringify(message, null, 2));
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.server.address();
  return { smtpUrl: `smtp://127.0.0.1:${port}`, stop: () => new Promise((resolve) => server.close(resolve)) };
}
