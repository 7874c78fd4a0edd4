import fp from 'fastify-plugin';
import { publicBaseUrl } from '../../config';
import { renewalReminderMail } from '../../services/mail/order-mails';
import { isCertificateOrder } from '../../services/orders/order-status';
import { mailOrder, recipient } from '../mail/order-notifications';

const HOUR = 60 * 60 * 1000;

export interface RenewalReminders {
  /** Sends every reminder due now (30 and 7 days before a yearly period ends), each once; answers how many went. */
  run(): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    renewalReminders: RenewalReminders;
  }
}

/**
 * Renewal reminders, 30 and 7 days before a yearly order renews (or ends, when renewal is off):
 * a job in the bff's own process that runs at start and every hour by the bff's clock. Each
 * reminder is claimed in the database before it is mailed, so two bff processes never both send
 * it, and released when the mail did not go, so the next run tries again. Certificate reminders
 * follow the user's "Certificate expiry reminders" preference.
 */
export default fp(
  async function renewalReminders(fastify) {
    const baseUrl = publicBaseUrl(fastify.config);
    let current: Promise<number> | undefined;

    async function sendDue(): Promise<number> {
      let sent = 0;
      for (const reminder of await fastify.orders.dueRenewalReminders()) {
        const row = await fastify.orders.row(reminder.orderId);
        if (!row) continue;
        const who = await recipient(fastify, reminder.userId, isCertificateOrder(row.product_id) ? 'certificateExpiry' : null);
        if (!who || !(await fastify.orders.claimReminder(reminder))) continue;
        // Turned off: claimed all the same, so it is not reconsidered every hour.
        if (!who.wants) continue;
        const message = renewalReminderMail(who.email, who.name, baseUrl, { order: mailOrder(row), periodEnd: reminder.periodEnd, daysAhead: reminder.daysAhead, renews: row.renews === 1 });
        if (await fastify.mailer.trySend(message)) sent += 1;
        else await fastify.orders.releaseReminder(reminder);
      }
      if (sent > 0) fastify.log.info({ sent }, 'renewal reminders sent');
      return sent;
    }

    const run = async (): Promise<number> => {
      // One run at a time; a run asked for during another starts after it, with the clock as it is then.
      while (current) await current.catch(() => undefined);
      current = sendDue().finally(() => {
        current = undefined;
      });
      return current;
    };

    fastify.decorate('renewalReminders', { run });
    let timer: NodeJS.Timeout | undefined;
    const runLogged = () => {
      run().catch((error: unknown) => fastify.log.error({ err: error }, 'renewal reminders failed'));
    };
    fastify.addHook('onReady', async () => {
      runLogged();
      timer = setInterval(runLogged, HOUR);
      timer.unref();
    });
    fastify.addHook('onClose', async () => {
      clearInterval(timer);
      await current?.catch(() => undefined);
    });
  },
  { name: 'renewal-reminders', dependencies: ['orders', 'mailer'] },
);
