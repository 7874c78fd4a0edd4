import type { Kysely, Transaction } from 'kysely';
import type { StoreDatabase } from '../../../db/schema';
import type { ProviderPaymentMethod } from '../../../services/payments/provider';
import type { TestCardStore, TestSession, TestSessionStore, TestSetupStore, TestSubscription } from './test-provider';
import { iso } from '../../../lib/iso';

/** Where the built-in test payments keep their cards, pages and subscriptions: the database every bff replica shares. */

/** Saves a card in `trx`; the customer's first card becomes the default. A card saved before (same ref) stays as it is. */
async function addCard(trx: Transaction<StoreDatabase>, customerRef: string, card: Omit<ProviderPaymentMethod, 'isDefault'>, at: number): Promise<void> {
  const hasDefault = await trx.selectFrom('test_payment_methods').select('id').where('customer_ref', '=', customerRef).where('is_default', '=', 1).executeTakeFirst();
  await trx
    .insertInto('test_payment_methods')
    .values({
      id: card.ref,
      customer_ref: customerRef,
      brand: card.brand,
      last4: card.last4,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      is_default: hasDefault ? 0 : 1,
      created_at: iso(at),
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
}

/** Saved test cards in the test_payment_methods table: they outlive a restart, as Stripe's do. */
export function testCardStore(db: Kysely<StoreDatabase>, now: () => number): TestCardStore {
  const list = async (customerRef: string) =>
    (await db.selectFrom('test_payment_methods').selectAll().where('customer_ref', '=', customerRef).orderBy('created_at').orderBy('id').execute()).map((row) => ({
      ref: row.id,
      brand: row.brand,
      last4: row.last4,
      expMonth: row.exp_month,
      expYear: row.exp_year,
      isDefault: row.is_default === 1,
    }));
  return {
    list,
    async add(customerRef, card) {
      await db.transaction().execute((trx) => addCard(trx, customerRef, card, now()));
    },
    async setDefault(customerRef, ref) {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('test_payment_methods').set({ is_default: 0 }).where('customer_ref', '=', customerRef).execute();
        await trx.updateTable('test_payment_methods').set({ is_default: 1 }).where('customer_ref', '=', customerRef).where('id', '=', ref).execute();
      });
    },
    async remove(customerRef, ref) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('test_payment_methods').where('customer_ref', '=', customerRef).where('id', '=', ref).execute();
        const oldest = await trx.selectFrom('test_payment_methods').select(['id', 'is_default']).where('customer_ref', '=', customerRef).orderBy('created_at').orderBy('id').execute();
        if (oldest.length > 0 && !oldest.some((row) => row.is_default === 1)) {
          await trx
            .updateTable('test_payment_methods')
            .set({ is_default: 1 })
            .where('id', '=', oldest[0]?.id ?? '')
            .execute();
        }
      });
    },
  };
}

/** Test payment pages in the test_payment_sessions table (migration 0009): they outlive a restart. */
export function testSessionStore(db: Kysely<StoreDatabase>, now: () => number): TestSessionStore {
  return {
    async markPaid(ref, customerRef, card) {
      return db.transaction().execute(async (trx) => {
        const moved = await trx.updateTable('test_payment_sessions').set({ status: 'paid' }).where('ref', '=', ref).where('status', '=', 'open').executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return false;
        await addCard(trx, customerRef, card, now());
        return true;
      });
    },
    async paidWithUnpaidCheckout(createdBefore, limit) {
      const rows = await db
        .selectFrom('test_payment_sessions')
        .innerJoin('checkouts', 'checkouts.id', 'test_payment_sessions.checkout_id')
        .select('test_payment_sessions.ref')
        .where('test_payment_sessions.status', '=', 'paid')
        .where('checkouts.status', '!=', 'paid')
        .where('test_payment_sessions.created_at', '<', iso(createdBefore))
        .orderBy('test_payment_sessions.created_at')
        .limit(limit)
        .execute();
      return rows.map((row) => row.ref);
    },
    async add(session, expiresAt) {
      await db
        .insertInto('test_payment_sessions')
        .values({
          ref: session.ref,
          checkout_id: session.checkout.checkoutId,
          user_id: session.checkout.user.id,
          form_token: session.formToken,
          status: session.status,
          checkout: JSON.stringify(session.checkout),
          created_at: iso(session.createdAt),
          expires_at: iso(expiresAt),
        })
        .execute();
    },
    async get(ref) {
      const row = await db.selectFrom('test_payment_sessions').selectAll().where('ref', '=', ref).executeTakeFirst();
      if (!row) return undefined;
      const session: TestSession = {
        ref: row.ref,
        checkout: JSON.parse(row.checkout) as TestSession['checkout'],
        formToken: row.form_token,
        status: row.status,
        createdAt: Date.parse(row.created_at),
      };
      return session;
    },
    async move(ref, from, to) {
      const result = await db.updateTable('test_payment_sessions').set({ status: to }).where('ref', '=', ref).where('status', '=', from).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async openEndedBy(at, limit) {
      const rows = await db
        .selectFrom('test_payment_sessions')
        .select(['ref', 'checkout_id'])
        .where('status', '=', 'open')
        .where('expires_at', '<=', iso(at))
        .orderBy('expires_at')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ ref: row.ref, checkoutId: row.checkout_id }));
    },
    async forgetClosedEndedBefore(at) {
      const result = await db.deleteFrom('test_payment_sessions').where('status', '!=', 'open').where('expires_at', '<=', iso(at)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** Add-a-card pages in the test_payment_setups table (migration 0010): any bff replica serves and takes them. */
export function testSetupStore(db: Kysely<StoreDatabase>, now: () => number): TestSetupStore {
  return {
    async add(setup, expiresAt) {
      await db
        .insertInto('test_payment_setups')
        .values({
          ref: setup.ref,
          customer_ref: setup.customerRef,
          return_url: setup.returnUrl,
          form_token: setup.formToken,
          created_at: iso(now()),
          expires_at: iso(expiresAt),
        })
        .execute();
    },
    async get(ref, at) {
      const row = await db.selectFrom('test_payment_setups').selectAll().where('ref', '=', ref).where('expires_at', '>', iso(at)).executeTakeFirst();
      return row && { ref: row.ref, customerRef: row.customer_ref, returnUrl: row.return_url, formToken: row.form_token };
    },
    async take(ref) {
      const result = await db.deleteFrom('test_payment_setups').where('ref', '=', ref).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
    async forgetEndedBy(at) {
      const result = await db.deleteFrom('test_payment_setups').where('expires_at', '<=', iso(at)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** A test subscription read from the orders it charges: the one record every bff replica shares. */
export async function testSubscriptionFromOrders(db: Kysely<StoreDatabase>, subscriptionRef: string): Promise<TestSubscription | undefined> {
  const rows = await db
    .selectFrom('orders')
    .leftJoin('payment_customers', (join) => join.onRef('payment_customers.user_id', '=', 'orders.user_id').on('payment_customers.provider', '=', 'test'))
    .select(['orders.id', 'orders.item_ref', 'orders.current_period_end', 'orders.renews', 'payment_customers.customer_ref'])
    .where('orders.subscription_ref', '=', subscriptionRef)
    .where('orders.ended_at', 'is', null)
    .orderBy('orders.number')
    .execute();
  if (rows.length === 0) return undefined;
  const items = rows.map((row) => ({
    itemRef: row.item_ref ?? row.id,
    orderId: row.id,
    currentPeriodEnd: row.current_period_end ? Date.parse(row.current_period_end) : 0,
    renews: row.renews === 1,
  }));
  return { ref: subscriptionRef, customerRef: rows[0]?.customer_ref ?? '', cancelAtPeriodEnd: items.length === 1 && !items[0]?.renews, items };
}
