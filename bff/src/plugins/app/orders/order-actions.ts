import { CLOSED_CHECKOUT_STATUS, CLOSED_PAYMENT_STATUS, transition, type OrderEvent } from '@bimi/contracts/order-lifecycle';
import { CertificateDetails } from '@bimi/contracts/orders';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { CheckoutsTable, OrdersTable, PaymentProviderName, StoreDatabase } from '../../../db/schema';
import { newId } from '../../../lib/tokens';
import { isCertificateOrder, lifecycleState, orderKind } from '../../../services/orders/order-status';
import type { NewOrderLine } from '../../../services/orders/order-rows';
import { iso } from '../../../lib/iso';
import { isSqlite } from '../platform/db';

type OrderRow = Selectable<OrdersTable>;
type CheckoutRow = Selectable<CheckoutsTable>;
type Trx = Transaction<StoreDatabase>;

/**
 * What a buyer does to unpaid orders, as the order lifecycle allows it (@bimi/contracts/order-lifecycle):
 * cancel one, open a payment page of its own for one, and a new checkout of the cart supersedes the
 * unpaid tries before it. A checkout's payment page charges a fixed set of orders: when one of them
 * leaves it (cancelled, superseded, paid on a page of its own) the page is closed, here and at the
 * provider (`closedPages`), so no page ever charges for an order it no longer holds.
 */

/** A payment page to close at the provider once the change is committed. */
export interface ClosedPage {
  checkoutId: string;
  provider: PaymentProviderName | null;
  sessionRef: string;
}

export type ActionOutcome<T> = ({ ok: true } & T) | { ok: false; status: 404 | 409; message: string };

/** An order the line would buy again: an identical certificate the buyer has (active or pending), or the same configuration paid in the last day. */
export interface DuplicateOf {
  item: number;
  orderId: string;
  number: number;
  kind: 'certificate' | 'recently-paid';
}

export interface OrderActions {
  /** The buyer cancels an unpaid order (awaiting payment or payment failed). */
  cancelUnpaid(userId: string, orderId: string): Promise<ActionOutcome<{ closedPages: ClosedPage[] }>>;
  /** The open payment pages of the buyer's unpaid tries: what a new checkout of the cart replaces. */
  openPagesOfUnpaid(userId: string): Promise<ClosedPage[]>;
  /**
   * The open payment page of the order's checkout, and whether the order's Pay goes back to it
   * (`reusable`: opened for this order alone; else a page of the order's own replaces it); undefined
   * when there is none.
   */
  openPageOf(userId: string, orderId: string): Promise<{ page: ClosedPage; reusable: boolean } | undefined>;
  /** Every unpaid try of the buyer but those of `keepCheckoutId` becomes superseded (a new checkout of the cart). */
  supersedeUnpaid(userId: string, keepCheckoutId: string): Promise<{ orderIds: string[]; closedPages: ClosedPage[] }>;
  /**
   * A checkout of its own for one unpaid order, so its page charges exactly that order; the open page
   * opened for this order alone is reused (`reuse`). A declined page it leaves closes (`closedPages`).
   */
  checkoutForOrder(userId: string, orderId: string): Promise<ActionOutcome<{ checkoutId: string; order: OrderRow; reuse: string | null; closedPages: ClosedPage[] }>>;
  /**
   * Orders of the buyer paid since `since` with the same product and configuration as a line to buy
   * (paid alone from the order's page while the cart still held it, then the cart paid too).
   */
  recentlyPaidSame(userId: string, lines: readonly NewOrderLine[], since: number): Promise<DuplicateOf[]>;
  /** Certificates of the buyer identical (same product and domains) to a line to buy, active or pending. */
  identicalCertificates(userId: string, lines: { productId: string; domains?: readonly string[] }[]): Promise<DuplicateOf[]>;
  /** Checkouts that failed (a declined card) before `before` and still hold unpaid orders: their tries close. */
  failedCheckoutsBefore(before: number, limit: number): Promise<{ checkoutId: string; page: ClosedPage | null }[]>;
}

const NOT_FOUND = 'Order not found';

export function createOrderActions(db: Kysely<StoreDatabase>, now: () => number): OrderActions {
  const sqlite = isSqlite(db);

  /** Checkouts, then their orders, locked in id order (as the payment events lock them). */
  async function lockCheckouts(trx: Trx, ids: string[]): Promise<CheckoutRow[]> {
    if (ids.length === 0) return [];
    const query = trx
      .selectFrom('checkouts')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .orderBy('id');
    return sqlite ? query.execute() : query.forUpdate().execute();
  }
  async function lockOrdersOf(trx: Trx, checkoutIds: string[]): Promise<OrderRow[]> {
    if (checkoutIds.length === 0) return [];
    const query = trx.selectFrom('orders').selectAll().where('checkout_id', 'in', checkoutIds).orderBy('id');
    return sqlite ? query.execute() : query.forUpdate().execute();
  }

  /**
   * Closes `orders` by `event` (those the lifecycle lets it close) and the pages of their checkouts.
   * The payment version is left as it was: a payment the provider took meanwhile is still recorded.
   */
  async function close(trx: Trx, checkouts: CheckoutRow[], orders: OrderRow[], event: OrderEvent): Promise<{ orderIds: string[]; closedPages: ClosedPage[] }> {
    const at = iso(now());
    const closing = orders.filter((order) => transition(lifecycleState(order, now()), event, orderKind(order)).ok);
    const paymentStatus = CLOSED_PAYMENT_STATUS[event];
    const checkoutStatus = CLOSED_CHECKOUT_STATUS[event];
    if (!paymentStatus || !checkoutStatus) throw new Error(`${event} does not close orders`);
    if (closing.length > 0) {
      await trx
        .updateTable('orders')
        .set({ payment_status: paymentStatus, updated_at: at })
        .where(
          'id',
          'in',
          closing.map((order) => order.id),
        )
        .execute();
    }
    const touched = new Set(closing.map((order) => order.checkout_id));
    const closedPages: ClosedPage[] = [];
    for (const checkout of checkouts) {
      if (!touched.has(checkout.id) || (checkout.status !== 'open' && checkout.status !== 'failed')) continue;
      await trx.updateTable('checkouts').set({ status: checkoutStatus, updated_at: at }).where('id', '=', checkout.id).execute();
      // A declined page closes too: opened again, it must not send the buyer to pay orders that are closed.
      if (checkout.session_ref) closedPages.push({ checkoutId: checkout.id, provider: checkout.provider, sessionRef: checkout.session_ref });
    }
    return { orderIds: closing.map((order) => order.id), closedPages };
  }

  async function ownOrder(trx: Trx, userId: string, orderId: string) {
    const found = await trx.selectFrom('orders').select('checkout_id').where('id', '=', orderId).where('user_id', '=', userId).executeTakeFirst();
    if (!found) return undefined;
    const [checkout] = await lockCheckouts(trx, [found.checkout_id]);
    const orders = await lockOrdersOf(trx, [found.checkout_id]);
    const order = orders.find((row) => row.id === orderId);
    return checkout && order ? { checkout, orders, order } : undefined;
  }

  /** The checkouts of the buyer's unpaid tries (orders awaiting payment or declined), but `except`. */
  async function unpaidTries(executor: Kysely<StoreDatabase> | Trx, userId: string, except?: string): Promise<string[]> {
    let query = executor.selectFrom('orders').select('checkout_id').where('user_id', '=', userId).where('payment_status', 'in', ['unpaid', 'failed']);
    if (except) query = query.where('checkout_id', '!=', except);
    return [...new Set((await query.execute()).map((row) => row.checkout_id))];
  }

  /** The open checkouts' pages among `checkoutIds`. */
  async function openPages(checkoutIds: string[]): Promise<ClosedPage[]> {
    if (checkoutIds.length === 0) return [];
    const rows = await db
      .selectFrom('checkouts')
      .select(['id', 'provider', 'session_ref'])
      .where('id', 'in', [...new Set(checkoutIds)])
      .where('status', '=', 'open')
      .where('session_ref', 'is not', null)
      .execute();
    return rows.map((row) => ({ checkoutId: row.id, provider: row.provider, sessionRef: row.session_ref as string }));
  }

  return {
    async openPagesOfUnpaid(userId) {
      return openPages(await unpaidTries(db, userId));
    },

    async openPageOf(userId, orderId) {
      const own = await db.selectFrom('orders').select('checkout_id').where('id', '=', orderId).where('user_id', '=', userId).executeTakeFirst();
      const [page] = own ? await openPages([own.checkout_id]) : [];
      if (!own || !page) return undefined;
      const held = await db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('checkout_id', '=', own.checkout_id)
        .executeTakeFirstOrThrow();
      const { opened_for } = await db.selectFrom('checkouts').select('opened_for').where('id', '=', own.checkout_id).executeTakeFirstOrThrow();
      return { page, reusable: Number(held.n) === 1 && opened_for === 'order' };
    },

    async cancelUnpaid(userId, orderId) {
      return db.transaction().execute(async (trx) => {
        const own = await ownOrder(trx, userId, orderId);
        if (!own) return { ok: false as const, status: 404 as const, message: NOT_FOUND };
        const allowed = transition(lifecycleState(own.order, now()), 'cancelled-by-buyer', orderKind(own.order));
        if (!allowed.ok) return { ok: false as const, status: 409 as const, message: allowed.reason };
        const { closedPages } = await close(trx, [own.checkout], [own.order], 'cancelled-by-buyer');
        return { ok: true as const, closedPages };
      });
    },

    async supersedeUnpaid(userId, keepCheckoutId) {
      return db.transaction().execute(async (trx) => {
        const checkoutIds = await unpaidTries(trx, userId, keepCheckoutId);
        const checkouts = await lockCheckouts(trx, checkoutIds);
        const orders = await lockOrdersOf(trx, checkoutIds);
        return close(trx, checkouts, orders, 'superseded-by-checkout');
      });
    },

    async checkoutForOrder(userId, orderId) {
      return db.transaction().execute(async (trx) => {
        const own = await ownOrder(trx, userId, orderId);
        if (!own) return { ok: false as const, status: 404 as const, message: NOT_FOUND };
        const { checkout, orders, order } = own;
        const allowed = transition(lifecycleState(order, now()), 'payment-page-opened', orderKind(order));
        if (!allowed.ok) return { ok: false as const, status: 409 as const, message: allowed.reason };
        // Back to the open page only when it was opened for this order: a one-line cart's page returns to the cart's success page, which empties the cart.
        if (checkout.status === 'open' && checkout.session_url && orders.length === 1 && checkout.opened_for === 'order') {
          return { ok: true as const, checkoutId: checkout.id, order, reuse: checkout.session_url, closedPages: [] };
        }
        const at = iso(now());
        const checkoutId = newId();
        await trx
          .insertInto('checkouts')
          .values({
            id: checkoutId,
            user_id: userId,
            provider: checkout.provider,
            session_ref: null,
            session_url: null,
            status: 'open',
            failure_message: null,
            opened_for: 'order',
            created_at: at,
            updated_at: at,
          })
          .execute();
        await trx.updateTable('orders').set({ checkout_id: checkoutId, payment_status: 'unpaid', failure_message: null, updated_at: at }).where('id', '=', order.id).execute();
        const closedPages: ClosedPage[] = [];
        if (checkout.status === 'open') {
          // The old page charges the orders it was opened with, this one among them: it closes.
          await trx.updateTable('checkouts').set({ status: 'superseded', updated_at: at }).where('id', '=', checkout.id).execute();
          if (checkout.session_ref) closedPages.push({ checkoutId: checkout.id, provider: checkout.provider, sessionRef: checkout.session_ref });
        } else if (checkout.status === 'failed' && orders.length === 1 && checkout.session_ref) {
          // A declined page of this order alone: opened again, it must not ask to pay there.
          closedPages.push({ checkoutId: checkout.id, provider: checkout.provider, sessionRef: checkout.session_ref });
        }
        return { ok: true as const, checkoutId, order: { ...order, checkout_id: checkoutId, payment_status: 'unpaid' as const, failure_message: null }, reuse: null, closedPages };
      });
    },

    async recentlyPaidSame(userId, lines, since) {
      const rows = await db
        .selectFrom('orders')
        .select(['id', 'number', 'product_id', 'domains', 'years', 'logos', 'email_volume', 'billing_period', 'copies'])
        .where('user_id', '=', userId)
        .where('payment_status', '=', 'paid')
        .where('updated_at', '>=', iso(since))
        .where(
          'product_id',
          'in',
          lines.map((line) => line.productId),
        )
        .orderBy('number')
        .execute();
      return lines.flatMap((line, item) => {
        const same = rows.find(
          (row) =>
            row.product_id === line.productId &&
            row.domains === (line.domains ?? null) &&
            row.years === (line.years ?? null) &&
            row.logos === (line.logos ?? null) &&
            row.email_volume === (line.emailVolume ?? null) &&
            row.billing_period === (line.billingPeriod ?? null) &&
            row.copies === line.copies,
        );
        return same ? [{ item, orderId: same.id, number: same.number, kind: 'recently-paid' as const }] : [];
      });
    },

    async identicalCertificates(userId, lines) {
      const wanted = lines.map((line, item) => ({ ...line, item })).filter((line) => isCertificateOrder(line.productId) && line.domains && line.domains.length > 0);
      if (wanted.length === 0) return [];
      const rows = await db
        .selectFrom('orders')
        .selectAll()
        .where('user_id', '=', userId)
        .where(
          'product_id',
          'in',
          wanted.map((line) => line.productId),
        )
        .where('details', 'is not', null)
        .orderBy('number')
        .execute();
      const key = (domains: readonly string[]) => [...new Set(domains.map((domain) => domain.trim().toLowerCase()))].sort().join(' ');
      const duplicates: DuplicateOf[] = [];
      for (const line of wanted) {
        const same = rows.find((row) => {
          if (row.product_id !== line.productId) return false;
          const state = lifecycleState(row, now());
          if (state !== 'validating' && state !== 'active' && state !== 'expiring' && state !== 'overdue') return false;
          const details = CertificateDetails.safeParse(JSON.parse(row.details ?? 'null'));
          return details.success && key(details.data.domains) === key(line.domains ?? []);
        });
        if (same) duplicates.push({ item: line.item, orderId: same.id, number: same.number, kind: 'certificate' });
      }
      return duplicates;
    },

    async failedCheckoutsBefore(before, limit) {
      const rows = await db
        .selectFrom('checkouts')
        .select(['id', 'provider', 'session_ref'])
        .where('status', '=', 'failed')
        .where('updated_at', '<', iso(before))
        .where((eb) => eb.exists(eb.selectFrom('orders').select('orders.id').whereRef('orders.checkout_id', '=', 'checkouts.id').where('orders.payment_status', '=', 'failed')))
        .orderBy('updated_at')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ checkoutId: row.id, page: row.session_ref ? { checkoutId: row.id, provider: row.provider, sessionRef: row.session_ref } : null }));
    },
  };
}
