import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpFixture {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  /** Every message received, parsed, in order. */
  messages: ParsedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback that keeps every message it receives, parsed. `refuses` names the
 * recipients it refuses (550 at RCPT TO); `port` restarts one on a known port (a mail server back up).
 */
export async function startSmtpServer(options: { refuses?: (recipient: string) => boolean; port?: number } = {}): Promise<SmtpFixture> {
  const { refuses = () => false, port = 0 } = options;
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refuses(address.address)) return callback();
      callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        messages.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${address.port}`, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
