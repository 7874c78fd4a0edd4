import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { createTransport, type Transporter } from 'nodemailer';
import { newId } from '../../../lib/tokens';
import { headerProblem, type MailMessage } from '../../../services/mail/message';
import { iso } from '../../../lib/iso';

export interface Mailer {
  /** Sends through SMTP (SMTP_URL) or drops into the development outbox; resolves once the server took it. */
  send(message: MailMessage): Promise<void>;
  /**
   * Sends several (a background sender's batch): the outbox takes them in one insert, SMTP one after
   * another. Answers, per message, the error that kept it from going, or null.
   */
  sendEach(messages: readonly MailMessage[]): Promise<(Error | null)[]>;
  /**
   * Sends, and answers whether it went: a failure is the server's, so it is logged here (to the
   * request's log when given) and the caller decides what the user hears.
   */
  trySend(message: MailMessage, log?: FastifyBaseLogger): Promise<boolean>;
  /** Where mail goes, for the start-up log and /dev/outbox. */
  readonly kind: 'smtp' | 'outbox';
  /** The development outbox's latest `limit` mails, newest first (none were written there with SMTP_URL set). */
  outbox(limit: number): Promise<OutboxMail[]>;
}

/** A mail of the development outbox, as /dev/outbox lists it. */
export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/**
 * Mail for sign-up, password reset, email change and invitations. With SMTP_URL, nodemailer
 * sends it; without, it goes to the development outbox: a table the log announces and
 * /dev/outbox lists, so every flow works end to end on a fresh machine.
 */
export default fp(
  async function mailer(fastify) {
    const { config } = fastify;
    let transport: Transporter | undefined;
    if (config.smtpUrl) {
      transport = createTransport(config.smtpUrl);
      fastify.addHook('onClose', async () => transport?.close());
    }

    const send = async (message: MailMessage): Promise<void> => {
      const problem = headerProblem(message);
      if (problem) throw new Error(problem);
      if (transport) {
        await transport.sendMail({ from: config.mailFrom, to: message.to, subject: message.subject, text: message.text });
        fastify.log.info({ to: message.to, subject: message.subject }, 'mail sent');
        return;
      }
      await fastify.db
        .insertInto('outbox_messages')
        .values({ id: newId(), recipient: message.to, subject: message.subject, text: message.text, created_at: iso(fastify.now()) })
        .execute();
      fastify.log.info({ to: message.to, subject: message.subject, text: message.text }, 'mail written to the development outbox (SMTP_URL not set)');
    };

    const sendEach = async (messages: readonly MailMessage[]): Promise<(Error | null)[]> => {
      if (transport) {
        const results: (Error | null)[] = [];
        for (const message of messages) {
          results.push(
            await send(message).then(
              () => null,
              (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
            ),
          );
        }
        return results;
      }
      const results = messages.map((message) => {
        const problem = headerProblem(message);
        return problem ? new Error(problem) : null;
      });
      const at = iso(fastify.now());
      const rows = messages
        .filter((_, index) => results[index] === null)
        .map((message) => ({ id: newId(), recipient: message.to, subject: message.subject, text: message.text, created_at: at }));
      if (rows.length > 0) {
        try {
          await fastify.db.insertInto('outbox_messages').values(rows).execute();
        } catch (error) {
          const failure = error instanceof Error ? error : new Error(String(error));
          return results.map((result) => result ?? failure);
        }
        for (const row of rows) fastify.log.info({ to: row.recipient, subject: row.subject, text: row.text }, 'mail written to the development outbox (SMTP_URL not set)');
      }
      return results;
    };

    const trySend = async (message: MailMessage, log: FastifyBaseLogger = fastify.log): Promise<boolean> => {
      try {
        await send(message);
        return true;
      } catch (error) {
        log.error({ err: error, to: message.to, subject: message.subject }, 'mail could not be sent');
        return false;
      }
    };

    const outbox = async (limit: number): Promise<OutboxMail[]> => {
      const rows = await fastify.db.selectFrom('outbox_messages').select(['recipient', 'subject', 'text', 'created_at']).orderBy('created_at', 'desc').limit(limit).execute();
      return rows.map((row) => ({ to: row.recipient, subject: row.subject, text: row.text, createdAt: row.created_at }));
    };

    fastify.decorate('mailer', { send, sendEach, trySend, kind: transport ? 'smtp' : 'outbox', outbox } satisfies Mailer);
  },
  { name: 'mailer', dependencies: ['db', 'clock'], decorators: { fastify: ['config', 'db'] } },
);
