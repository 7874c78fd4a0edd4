import type { NotificationTopic } from '@bimi/contracts/account';
import fp from 'fastify-plugin';
import type { ExpressionBuilder, Selectable } from 'kysely';
import { publicBaseUrl } from '../../../config';
import type { OrderNotificationsTable, StoreDatabase } from '../../../db/schema';
import { mailOrder, orderConfirmationMail, paymentFailedMail, paymentReceiptMail } from '../../../services/mail/order-mails';
import { wantsMail, type MailMessage } from '../../../services/mail/message';
import { orderNumber, receiptNumber, type OrderEffect } from '../../../services/orders/order-rows';
import { iso } from '../../../lib/iso';
import { isSqlite } from '../platform/db';

/** A notification that failed is tried again later, then given up (logged as an error). */
const MAX_ATTEMPTS = 10;
const BATCH = 100;
/** A claim older than this belongs to a process that stopped while sending: another may take it. */
const CLAIM_LEASE_MS = 10 * 60 * 1000;

/** 1, 2, 4 … minutes after each failed attempt, at most 6 hours. */
export function retryDelay(attempts: number): number {
  return Math.min(2 ** Math.max(0, attempts - 1) * 60 * 1000, 6 * 60 * 60 * 1000);
}

/**
 * What applied payment events lead to: the order confirmation, the payment receipt, the
 * payment-failed mail, and handing a paid, described certificate order to fulfilment.
 * `applyPaymentEvent` records them in `order_notifications` in the event's own transaction; the
 * `order-mail` job (plugins/app/platform/job-schedule.ts) carries them out after the webhook has
 * answered, so a slow mail server never holds Stripe's delivery. Each row is claimed by one sender (an UPDATE of rows whose `claimed_at`
 * is null, with SKIP LOCKED on PostgreSQL), so with two bff processes each mail goes once; a failed
 * one is released and retried later; rows left by a stopped process are taken again after a lease.
 * A failure here never undoes the event.
 */
export default fp(
  async function orderNotifications(fastify) {
    const baseUrl = publicBaseUrl(fastify.config);
    const sqlite = isSqlite(fastify.db);

    /** What the mails of some effects read, one query per kind for all of them: recipients, confirmed orders, receipts. */
    async function readFor(effects: readonly OrderEffect[]) {
      const checkoutIds = [...new Set(effects.flatMap((effect) => (effect.kind === 'order-confirmation' ? [effect.checkoutId] : [])))];
      const failedOrderIds = [...new Set(effects.flatMap((effect) => (effect.kind === 'payment-failed' ? effect.orderIds : [])))];
      const [who, confirmed, failed, receipts] = await Promise.all([
        fastify.users.mailRecipients(effects.flatMap((effect) => (effect.kind === 'submit-for-validation' ? [] : [effect.userId]))),
        checkoutIds.length > 0 ? fastify.db.selectFrom('orders').selectAll().where('checkout_id', 'in', checkoutIds).orderBy('number').execute() : [],
        failedOrderIds.length > 0 ? fastify.db.selectFrom('orders').select(['id', 'number']).where('id', 'in', failedOrderIds).orderBy('number').execute() : [],
        fastify.transactions.receipts(effects.flatMap((effect) => (effect.kind === 'payment-receipt' ? [effect.transactionId] : []))),
      ]);
      return { who, confirmed, failed, receipts };
    }
    type Read = Awaited<ReturnType<typeof readFor>>;

    /** The mail for `userId` on `topic`, unless they turned that mail off. */
    function mailFor(read: Read, userId: string, topic: NotificationTopic, build: (to: string, name: string) => MailMessage | undefined): MailMessage | undefined {
      const who = read.who.get(userId);
      if (!who) return undefined;
      if (!wantsMail(who.preferences, topic)) {
        fastify.log.info({ userId, topic }, 'order mail not sent: the user turned this notification off');
        return undefined;
      }
      return build(who.email, who.name);
    }

    /** Carries out an effect: fulfilment at once; a mail is handed back to be sent (undefined when none is owed). */
    async function prepare(effect: OrderEffect, read: Read): Promise<MailMessage | undefined> {
      switch (effect.kind) {
        case 'order-confirmation':
          return mailFor(read, effect.userId, 'orderUpdates', (to, name) => {
            const rows = read.confirmed.filter((row) => row.checkout_id === effect.checkoutId);
            return rows.length > 0 ? orderConfirmationMail(to, name, baseUrl, rows.map(mailOrder)) : undefined;
          });
        case 'payment-receipt':
          return mailFor(read, effect.userId, 'billingReceipts', (to, name) => {
            const receipt = read.receipts.get(effect.transactionId);
            if (receipt?.transaction.user_id !== effect.userId) return undefined;
            const { transaction, lines } = receipt;
            return paymentReceiptMail(to, name, baseUrl, {
              receiptNumber: receiptNumber(transaction),
              date: transaction.date,
              amount: transaction.amount,
              orderNumbers: lines.map((line) => line.orderNumber),
              lines: lines.length > 0 ? lines : [{ description: transaction.description, amount: transaction.amount }],
              testPayment: transaction.test_payment === 1,
            });
          });
        case 'payment-failed':
          return mailFor(read, effect.userId, 'billingReceipts', (to, name) =>
            paymentFailedMail(to, name, baseUrl, {
              amount: effect.amount,
              failureMessage: effect.failureMessage,
              orders: read.failed.filter((row) => effect.orderIds.includes(row.id)).map((row) => ({ id: row.id, number: orderNumber(row.number) })),
            }),
          );
        case 'submit-for-validation':
          await fastify.fulfilment.submit(effect.orderId);
          return undefined;
      }
    }

    /** Up to BATCH rows due now, claimed by this sender, oldest first. */
    async function claim() {
      const at = fastify.now();
      const stale = iso(at - CLAIM_LEASE_MS);
      const unclaimed = (eb: ExpressionBuilder<StoreDatabase, 'order_notifications'>) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', stale)]);
      const due = fastify.db
        .selectFrom('order_notifications')
        .select('id')
        .where('done_at', 'is', null)
        .where('next_attempt_at', '<=', iso(at))
        .where(unclaimed)
        .orderBy('created_at')
        .orderBy('position')
        .limit(BATCH);
      const rows = await fastify.db
        .updateTable('order_notifications')
        .set((eb) => ({ claimed_at: iso(at), attempts: eb('attempts', '+', 1) }))
        .where('id', 'in', sqlite ? due : due.forUpdate().skipLocked())
        // Checked again on the row itself: a row another sender claimed meanwhile is not taken.
        .where('done_at', 'is', null)
        .where(unclaimed)
        .returningAll()
        .execute();
      return rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.position - b.position);
    }

    /**
     * Carries out claimed rows: what their mails read is read for all of them at once, and the rows
     * carried out are marked done in one statement (a process that stops before that sends those
     * mails again after the lease, as it would one row).
     */
    async function carryOut(rows: Selectable<OrderNotificationsTable>[]) {
      const effects = rows.map((row) => JSON.parse(row.payload) as OrderEffect);
      let read: Read;
      try {
        read = await readFor(effects);
      } catch (error) {
        for (const row of rows) await failed(row, error);
        return;
      }
      const done: string[] = [];
      const mails: { row: Selectable<OrderNotificationsTable>; message: MailMessage }[] = [];
      for (const [index, row] of rows.entries()) {
        try {
          const message = await prepare(effects[index] as OrderEffect, read);
          if (message) mails.push({ row, message });
          else done.push(row.id);
        } catch (error) {
          await failed(row, error);
        }
      }
      const errors = await fastify.mailer.sendEach(mails.map((mail) => mail.message));
      for (const [index, { row }] of mails.entries()) {
        const error = errors[index];
        if (error) await failed(row, error);
        else done.push(row.id);
      }
      if (done.length > 0)
        await fastify.db
          .updateTable('order_notifications')
          .set({ done_at: iso(fastify.now()), last_error: null })
          .where('id', 'in', done)
          .execute();
    }

    /** A row that could not be carried out: released to be tried again later, or given up after MAX_ATTEMPTS. */
    async function failed(row: Selectable<OrderNotificationsTable>, error: unknown) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      const givenUp = row.attempts >= MAX_ATTEMPTS;
      fastify.log.error(
        { err: error, notification: row.id, kind: row.kind, attempts: row.attempts },
        givenUp ? 'an order notification failed for the last time: given up' : 'an order notification failed: it will be tried again (the payment event stays applied)',
      );
      await fastify.db
        .updateTable('order_notifications')
        .set(givenUp ? { done_at: iso(fastify.now()), last_error: reason } : { claimed_at: null, next_attempt_at: iso(fastify.now() + retryDelay(row.attempts)), last_error: reason })
        .where('id', '=', row.id)
        .execute();
    }

    /**
     * The `order-mail` job: claims and carries out batches until one is not full (what arrives
     * meanwhile wakes the job again, which gathers it first); answers how many rows it handled.
     */
    fastify.jobs.handle('order-mail', async function sendDue(): Promise<number> {
      let handled = 0;
      for (;;) {
        const batch = await claim();
        if (batch.length > 0) await carryOut(batch);
        handled += batch.length;
        if (batch.length < BATCH) return handled;
      }
    });

    // Stored details submit the order at once (the buyer's own request); payment events wake the sender.
    fastify.onOrderEffects(
      async (effects) => {
        const read = await readFor(effects);
        for (const effect of effects) {
          try {
            const message = await prepare(effect, read);
            if (message) await fastify.mailer.send(message);
          } catch (error) {
            fastify.log.error({ err: error, effect: effect.kind }, 'an order notification failed (the details stay stored)');
          }
        }
      },
      () => fastify.jobs.wake('order-mail'),
    );
  },
  { name: 'order-notifications', dependencies: ['users', 'orders', 'transactions', 'mailer', 'fulfilment', 'jobs'] },
);
