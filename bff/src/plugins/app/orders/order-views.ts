import { FILTER_STATUS_OF, ORDER_STATE_ACTIONS, canCancel, type OrderState } from '@bimi/contracts/order-lifecycle';
import type { OrderDetail, OrderSummary, Transaction as TransactionView } from '@bimi/contracts/orders';
import type { Kysely } from 'kysely';
import type { StoreDatabase } from '../../../db/schema';
import { orderNumber, parseDetails, productName, type OrderRow, type StepRow } from '../../../services/orders/order-rows';
import { isCertificateOrder, lifecycleState, needsAction, validationSteps } from '../../../services/orders/order-status';
import { transactionViews } from './transactions';

/** Before a payment (or closed without one), nothing renews. */
const UNPAID_STATES = new Set<OrderState>(['awaiting-payment', 'payment-failed', 'cancelled', 'superseded']);

/** How the account area shows orders: each one's lifecycle state, its one action, what is left to do. */
export function createOrderViews(db: Kysely<StoreDatabase>, now: () => number) {
  /** The order's payments and refunds, each with every order it paid (a checkout of several lines is one payment). */
  async function transactionsOfOrder(orderId: string): Promise<TransactionView[]> {
    const rows = await db
      .selectFrom('transaction_lines')
      .innerJoin('transactions', 'transactions.id', 'transaction_lines.transaction_id')
      .selectAll('transactions')
      .where('transaction_lines.order_id', '=', orderId)
      .orderBy('transactions.date', 'desc')
      .execute();
    return transactionViews(db, rows);
  }

  async function summaries(rows: OrderRow[]): Promise<{ summary: OrderSummary; row: OrderRow; steps: StepRow[]; sessionUrl: string | null }[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const checkoutIds = [...new Set(rows.map((row) => row.checkout_id))];
    const steps = await db.selectFrom('order_validation_steps').selectAll().where('order_id', 'in', ids).execute();
    const checkouts = await db.selectFrom('checkouts').select(['id', 'status', 'session_url']).where('id', 'in', checkoutIds).execute();
    const sizes = await db
      .selectFrom('orders')
      .select(['checkout_id', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('checkout_id', 'in', checkoutIds)
      .groupBy('checkout_id')
      .execute();
    const at = now();
    // By key, not searched per row: a buyer's list holds every try and can run to a thousand orders.
    const stepsOf = new Map<string, StepRow[]>();
    for (const step of steps) stepsOf.set(step.order_id, [...(stepsOf.get(step.order_id) ?? []), step]);
    const checkoutOf = new Map(checkouts.map((checkout) => [checkout.id, checkout]));
    const sizeOf = new Map(sizes.map((size) => [size.checkout_id, Number(size.count)]));
    return rows.map((row) => {
      const own = stepsOf.get(row.id) ?? [];
      const checkout = checkoutOf.get(row.checkout_id);
      const alone = sizeOf.get(row.checkout_id) === 1;
      const state = lifecycleState(row, at);
      // Only an open page that charges this order alone is its payment page; any other (a page for
      // several orders, a failed one) gives way to a page of its own (POST …/pay).
      const sessionUrl = state === 'awaiting-payment' && alone && checkout?.status === 'open' ? (checkout.session_url ?? null) : null;
      return {
        row,
        steps: own,
        sessionUrl,
        summary: {
          id: row.id,
          number: orderNumber(row.number),
          productId: row.product_id,
          productName: productName(row.product_id),
          description: row.description,
          status: FILTER_STATUS_OF[state],
          state,
          action: ORDER_STATE_ACTIONS[state],
          canCancel: canCancel(state),
          createdAt: row.created_at,
          amount: row.amount,
          currency: 'usd',
          billingPeriod: { interval: row.billing_interval, count: row.billing_interval_count },
          // Nothing renews before it is paid (an unpaid, declined or closed try).
          renews: row.renews === 1 && row.ended_at === null && !UNPAID_STATES.has(state),
          currentPeriodEnd: row.current_period_end,
          needsAction: needsAction(row, state, own),
        },
      };
    });
  }

  async function detail(row: OrderRow): Promise<OrderDetail> {
    const [view] = await summaries([row]);
    if (!view) throw new Error('unreachable');
    const certificate = isCertificateOrder(row.product_id);
    return {
      ...view.summary,
      lines: [{ description: `${productName(row.product_id)} — ${row.description}`, quantity: row.quantity, unitAmount: row.unit_amount, amount: row.amount }],
      details: parseDetails(row.details),
      validationSteps: certificate ? validationSteps(view.steps) : [],
      transactions: await transactionsOfOrder(row.id),
      paymentUrl: view.sessionUrl,
    };
  }

  return { summaries, detail };
}
