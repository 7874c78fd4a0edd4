import { NOTIFICATION_DEFAULTS, NotificationPreferences, type NotificationTopic } from '@bimi/contracts/account';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Selectable } from 'kysely';
import { publicBaseUrl } from '../../config';
import type { OrdersTable } from '../../db/schema';
import { orderConfirmationMail, paymentFailedMail, paymentReceiptMail, type MailOrder } from '../../lib/order-mail-texts';
import { isCertificateOrder } from '../../services/orders/order-status';
import type { MailMessage } from './mailer';
import { orderNumber, productName, type OrderEffect } from './orders';

export function mailOrder(row: Selectable<OrdersTable>): MailOrder {
  return {
    id: row.id,
    number: orderNumber(row.number),
    productName: productName(row.product_id),
    description: row.description,
    amount: row.amount,
    interval: row.billing_interval,
    intervalCount: row.billing_interval_count,
    needsDetails: isCertificateOrder(row.product_id) && row.details === null,
  };
}

/** The user's address, name and whether they want mail on `topic` (NOTIFICATION_DEFAULTS when unreadable). */
export async function recipient(fastify: FastifyInstance, userId: string, topic: NotificationTopic | null) {
  const user = await fastify.db.selectFrom('users').select(['email', 'name', 'notification_preferences']).where('id', '=', userId).executeTakeFirst();
  if (!user) return undefined;
  let preferences = NOTIFICATION_DEFAULTS;
  try {
    const parsed = NotificationPreferences.safeParse(JSON.parse(user.notification_preferences));
    if (parsed.success) preferences = parsed.data;
  } catch {
    // An unreadable stored value: the defaults.
  }
  return { email: user.email, name: user.name, wants: topic === null || preferences[topic] };
}

/**
 * What applied payment events lead to, once their transaction has committed: the order
 * confirmation, the payment receipt, the payment-failed mail, and handing a paid, described
 * certificate order to fulfilment. A failure here is logged and never undoes the event.
 */
export default fp(
  async function orderNotifications(fastify) {
    const baseUrl = publicBaseUrl(fastify.config);

    async function send(userId: string, topic: NotificationTopic, build: (to: string, name: string) => Promise<MailMessage | undefined> | MailMessage | undefined) {
      const who = await recipient(fastify, userId, topic);
      if (!who) return;
      if (!who.wants) {
        fastify.log.info({ userId, topic }, 'order mail not sent: the user turned this notification off');
        return;
      }
      const message = await build(who.email, who.name);
      if (message) await fastify.mailer.trySend(message);
    }

    async function handle(effect: OrderEffect) {
      switch (effect.kind) {
        case 'order-confirmation':
          return send(effect.userId, 'orderUpdates', async (to, name) => {
            const rows = await fastify.db.selectFrom('orders').selectAll().where('checkout_id', '=', effect.checkoutId).orderBy('number').execute();
            return rows.length > 0 ? orderConfirmationMail(to, name, baseUrl, rows.map(mailOrder)) : undefined;
          });
        case 'payment-receipt':
          return send(effect.userId, 'billingReceipts', async (to, name) => {
            const receipt = await fastify.transactions.receipt(effect.userId, effect.transactionId);
            if (!receipt) return undefined;
            const { transaction, lines } = receipt;
            return paymentReceiptMail(to, name, baseUrl, {
              receiptNumber: transaction.number ?? `R-${transaction.id.slice(0, 8).toUpperCase()}`,
              date: transaction.date,
              amount: transaction.amount,
              orderNumbers: lines.map((line) => line.orderNumber),
              lines: lines.length > 0 ? lines : [{ description: transaction.description, amount: transaction.amount }],
              testPayment: transaction.test_payment === 1,
            });
          });
        case 'payment-failed':
          return send(effect.userId, 'billingReceipts', async (to, name) => {
            const rows = effect.orderIds.length > 0 ? await fastify.db.selectFrom('orders').select(['id', 'number']).where('id', 'in', effect.orderIds).orderBy('number').execute() : [];
            return paymentFailedMail(to, name, baseUrl, {
              amount: effect.amount,
              failureMessage: effect.failureMessage,
              orders: rows.map((row) => ({ id: row.id, number: orderNumber(row.number) })),
            });
          });
        case 'submit-for-validation':
          return fastify.fulfilment.submit(effect.orderId);
      }
    }

    fastify.onOrderEffects(async (effects) => {
      for (const effect of effects) {
        try {
          await handle(effect);
        } catch (error) {
          fastify.log.error({ err: error, effect: effect.kind }, 'an order notification failed (the payment event stays applied)');
        }
      }
    });
  },
  { name: 'order-notifications', dependencies: ['orders', 'transactions', 'mailer', 'fulfilment'] },
);
