import fp from 'fastify-plugin';
import { publicBaseUrl } from '../../../config';
import { mailOrder, renewalReminderMail } from '../../../services/mail/order-mails';
import { isCertificateOrder } from '../../../services/orders/order-status';

/**
 * Renewal reminders, 30 and 7 days before a yearly order renews (or ends, when renewal is off):
 * the `renewal-reminders` job (plugins/app/platform/job-schedule.ts: at start and every hour), which
 * answers how many went; which are due goes by the bff's clock. Each reminder is claimed in the
 * database before it is mailed, so two bff processes never both send it, and released when the
 * mail did not go, so the next run tries again. Certificate reminders follow the user's
 * "Certificate expiry reminders" preference.
 */
export default fp(
  async function renewalReminders(fastify) {
    const baseUrl = publicBaseUrl(fastify.config);

    async function sendDue(): Promise<number> {
      let sent = 0;
      for (const reminder of await fastify.orders.dueRenewalReminders()) {
        const row = await fastify.orders.row(reminder.orderId);
        if (!row) continue;
        const who = await fastify.users.mailRecipient(reminder.userId, isCertificateOrder(row.product_id) ? 'certificateExpiry' : null);
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

    fastify.jobs.handle('renewal-reminders', sendDue);
  },
  { name: 'renewal-reminders', dependencies: ['orders', 'mailer', 'jobs'] },
);
