import { sql, type Kysely } from 'kysely';
import type { OrdersTable, PaymentProviderName, StoreDatabase } from '../../../db/schema';
import { newId } from '../../../lib/tokens';
import { createFulfilmentRows } from './order-fulfilment-rows';
import { effectsInOrder, parseOrderNumber, toCreatedOrder, version, type OrderEffect, type OrderRow } from '../../../services/orders/order-rows';
import { countByFilter, matchesFilter } from '../../../services/orders/order-status';
import { createOrderViews } from './order-views';
import { lockOrders } from './payment-event-work';
import type { Orders } from './orders';
import { iso } from '../../../lib/iso';
import { isSqlite } from '../platform/db';

/**
 * The orders' reads and plain writes (SQL only): checkouts and their orders stored, the account's
 * list and detail views (each order's lifecycle state, its one action), certificate details,
 * renewal, the operator's fulfilment and the renewal reminders. Payment events are applied by
 * payment-event-applier.ts; buyer actions on unpaid orders by order-actions.ts.
 */

/** Every column of an order but its certificate details (a Record, so a column added later is listed or the type check fails). */
const LISTED_COLUMNS: Record<Exclude<keyof OrdersTable, 'details'>, true> = {
  id: true,
  number: true,
  user_id: true,
  checkout_id: true,
  product_id: true,
  domains: true,
  years: true,
  logos: true,
  email_volume: true,
  billing_period: true,
  copies: true,
  quantity: true,
  unit_amount: true,
  amount: true,
  currency: true,
  billing_interval: true,
  billing_interval_count: true,
  description: true,
  price_id: true,
  payment_status: true,
  payment_version: true,
  failure_message: true,
  subscription_ref: true,
  item_ref: true,
  subscription_status: true,
  subscription_version: true,
  renews: true,
  current_period_end: true,
  ended_at: true,
  issued_at: true,
  certificate_expires_at: true,
  created_at: true,
  updated_at: true,
};
const ORDER_COLUMNS_BUT_DETAILS = Object.keys(LISTED_COLUMNS) as (keyof typeof LISTED_COLUMNS)[];

export interface RepositoryOptions {
  now: () => number;
  providerName?: () => PaymentProviderName | undefined;
  onEffects?: (effects: OrderEffect[]) => Promise<void>;
}

export type OrdersRepository = Omit<Orders, 'applyPaymentEvent' | keyof import('./order-actions').OrderActions>;

export function createOrdersRepository(db: Kysely<StoreDatabase>, options: RepositoryOptions): OrdersRepository {
  const { now } = options;
  const sqlite = isSqlite(db);
  const runEffects = async (effects: OrderEffect[]) => {
    if (effects.length === 0 || !options.onEffects) return;
    await options.onEffects(effectsInOrder(effects));
  };

  const { summaries, detail } = createOrderViews(db, now);

  async function ownRow(userId: string, orderId: string): Promise<OrderRow | undefined> {
    return db.selectFrom('orders').selectAll().where('id', '=', orderId).where('user_id', '=', userId).executeTakeFirst();
  }

  return {
    async createCheckout({ userId, lines }) {
      const checkoutId = newId();
      const createdAt = iso(now());
      const rows = await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('checkouts')
          .values({
            id: checkoutId,
            user_id: userId,
            provider: options.providerName?.() ?? null,
            session_ref: null,
            session_url: null,
            status: 'open',
            failure_message: null,
            opened_for: 'cart',
            created_at: createdAt,
            updated_at: createdAt,
          })
          .execute();
        const created: OrderRow[] = [];
        for (const line of lines) {
          const { id: number } = await trx.insertInto('order_numbers').values({ created_at: createdAt }).returning('id').executeTakeFirstOrThrow();
          const row = await trx
            .insertInto('orders')
            .values({
              id: newId(),
              number,
              user_id: userId,
              checkout_id: checkoutId,
              product_id: line.productId,
              domains: line.domains ?? null,
              years: line.years ?? null,
              logos: line.logos ?? null,
              email_volume: line.emailVolume ?? null,
              billing_period: line.billingPeriod ?? null,
              copies: line.copies,
              quantity: line.quantity,
              unit_amount: line.unitAmount,
              amount: line.amount,
              currency: 'usd',
              billing_interval: line.interval,
              billing_interval_count: line.intervalCount,
              description: line.description,
              price_id: line.priceId,
              payment_status: 'unpaid',
              failure_message: null,
              subscription_ref: null,
              item_ref: null,
              subscription_status: null,
              current_period_end: null,
              ended_at: null,
              details: line.details ? JSON.stringify(line.details) : null,
              issued_at: null,
              certificate_expires_at: null,
              created_at: createdAt,
              updated_at: createdAt,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          created.push(row);
        }
        return created;
      });
      return { checkoutId, orders: rows.map(toCreatedOrder) };
    },

    async attachProviderSession(checkoutId, ref, url, provider) {
      const attached = await db
        .updateTable('checkouts')
        .set({ session_ref: ref, session_url: url, ...(provider ? { provider } : {}), updated_at: iso(now()) })
        .where('id', '=', checkoutId)
        .where('status', '=', 'open')
        .executeTakeFirst();
      return Number(attached.numUpdatedRows) === 1;
    },

    async countPlacedSince(userId, since) {
      const row = await db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('created_at', '>=', iso(since))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async checkoutsWithoutPaymentPage(createdBefore, limit) {
      const rows = await db
        .selectFrom('checkouts')
        .select('id')
        .where('status', '=', 'open')
        .where('session_ref', 'is', null)
        .where('created_at', '<', iso(createdBefore))
        .orderBy('created_at')
        .limit(limit)
        .execute();
      return rows.map((row) => row.id);
    },

    async checkoutState(userId, checkoutId) {
      const checkout = await db.selectFrom('checkouts').selectAll().where('id', '=', checkoutId).where('user_id', '=', userId).executeTakeFirst();
      if (!checkout) return undefined;
      const orders = await db.selectFrom('orders').select('id').where('checkout_id', '=', checkoutId).orderBy('number').execute();
      return { checkoutId, status: checkout.status, orderIds: orders.map((order) => order.id), failureMessage: checkout.failure_message };
    },

    async checkoutForPayment(key) {
      const query = db.selectFrom('checkouts').selectAll();
      const checkout = await ('checkoutId' in key ? query.where('id', '=', key.checkoutId) : query.where('session_ref', '=', key.sessionRef)).executeTakeFirst();
      if (!checkout) return undefined;
      const orders = await db.selectFrom('orders').selectAll().where('checkout_id', '=', checkout.id).orderBy('number').execute();
      return {
        id: checkout.id,
        userId: checkout.user_id,
        status: checkout.status,
        sessionRef: checkout.session_ref,
        sessionUrl: checkout.session_url,
        failureMessage: checkout.failure_message,
        orders: orders.map(toCreatedOrder),
      };
    },

    async list(userId, filter) {
      // Every column but the certificate details (up to a few hundred KB each, and a list names no
      // detail): whether there are any is all a summary needs of them.
      const rows = await db
        .selectFrom('orders')
        .select(ORDER_COLUMNS_BUT_DETAILS)
        .select(sql<string | null>`case when details is null then null else '' end`.as('details'))
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('number', 'desc')
        .execute();
      const views = await summaries(rows);
      const statuses = views.map((view) => view.summary.status);
      return { orders: views.map((view) => view.summary).filter((summary) => matchesFilter(summary.status, filter)), counts: countByFilter(statuses) };
    },

    async get(userId, orderId) {
      const row = await ownRow(userId, orderId);
      return row ? detail(row) : undefined;
    },

    async setDetails(userId, orderId, details) {
      const row = await ownRow(userId, orderId);
      if (!row) return undefined;
      await db
        .updateTable('orders')
        .set({ details: JSON.stringify(details), updated_at: iso(now()) })
        .where('id', '=', orderId)
        .execute();
      // Paid and now described: validation can start (the first time the details arrive).
      if (row.details === null && row.payment_status === 'paid') await runEffects([{ kind: 'submit-for-validation', orderId }]);
      const updated = await ownRow(userId, orderId);
      return updated ? detail(updated) : undefined;
    },

    async renewalTarget(userId, orderId) {
      const row = await ownRow(userId, orderId);
      if (!row) return undefined;
      return { orderId, subscriptionRef: row.subscription_ref, itemRef: row.item_ref, renews: row.renews === 1, currentPeriodEnd: row.current_period_end };
    },

    async setRenewal(orderId, renew, currentPeriodEnd) {
      await db.transaction().execute(async (trx) => {
        const [row] = await lockOrders(trx, [orderId], sqlite);
        if (!row) return;
        // The provider's events from before this change carry older state: they must not undo it.
        await trx
          .updateTable('orders')
          .set({
            renews: renew ? 1 : 0,
            subscription_version: Math.max(version(row.subscription_version), now()),
            ...(currentPeriodEnd ? { current_period_end: currentPeriodEnd } : {}),
            updated_at: iso(now()),
          })
          .where('id', '=', orderId)
          .execute();
      });
    },

    async findByNumber(text) {
      const number = parseOrderNumber(text);
      const query = db.selectFrom('orders').selectAll();
      return number !== undefined ? query.where('number', '=', number).executeTakeFirst() : query.where('id', '=', text).executeTakeFirst();
    },

    async operatorList(filter) {
      const rows = await db.selectFrom('orders').selectAll().orderBy('number', 'desc').execute();
      const views = await summaries(rows);
      return views.filter((view) => matchesFilter(view.summary.status, filter)).map((view) => ({ row: view.row, status: view.summary.status }));
    },

    async operatorGet(orderId) {
      const row = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
      return row ? detail(row) : undefined;
    },

    ...createFulfilmentRows(db, now),

    async row(orderId) {
      return db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
    },
  };
}
