import { transition } from '@bimi/contracts/order-lifecycle';
import type { Insertable, Updateable } from 'kysely';
import type { OrdersTable, StoreDatabase } from '../../../db/schema';
import { iso } from '../../../lib/iso';
import { newId } from '../../../lib/tokens';
import type { CheckoutClosed, CheckoutCompleted, InvoiceLine, InvoicePaid, InvoicePaymentFailed, PaymentEvent, SubscriptionChanged } from '../../../services/payments/provider';
import { compareKeys, version, type OrderRow, type TransactionRow } from '../../../services/orders/order-rows';
import { isCertificateOrder, lifecycleState, orderKind } from '../../../services/orders/order-status';
import type { EventWork } from './payment-event-work';

/**
 * What each payment event does to the checkouts, orders and transactions it names, within the
 * EventWork of its transaction (rows locked and kept, changes written together). Exactly once and
 * in any order: the applier (payment-event-applier.ts) claims each event id in the same
 * transaction, and per object a state older than the last applied is ignored.
 */

/** Provider subscription states that wait for a payment. */
const UNPAID_SUBSCRIPTION = new Set(['incomplete', 'past_due', 'unpaid']);

/**
 * The orders an invoice's lines charge (by the item's metadata.order_id, else by subscription
 * item), locked. Their checkouts are locked first: every event locks checkout, then orders, so two
 * events about one purchase applied at the same moment wait for each other instead of deadlocking.
 */
async function ordersOfLines(work: EventWork, lines: InvoiceLine[], subscriptionRef: string | null, checkoutId: string | null): Promise<OrderRow[]> {
  if (checkoutId) await work.checkout(checkoutId);
  const ids = new Set<string>();
  for (const line of lines) {
    if (line.orderId) ids.add(line.orderId);
    else if (line.itemRef) {
      const found = await (await work.raw()).selectFrom('orders').select('id').where('item_ref', '=', line.itemRef).executeTakeFirst();
      if (found) ids.add(found.id);
    }
  }
  if (ids.size === 0 && checkoutId) return work.checkoutOrders(checkoutId);
  if (ids.size === 0 && subscriptionRef) {
    const rows = await (await work.raw()).selectFrom('orders').select('id').where('subscription_ref', '=', subscriptionRef).execute();
    for (const row of rows) ids.add(row.id);
  }
  if (ids.size === 0) return [];
  // A renewal invoice names no checkout: its orders' checkouts are locked instead (an order's checkout never changes).
  if (!checkoutId) {
    const owners = await work.trx
      .selectFrom('orders')
      .select('checkout_id')
      .where('id', 'in', [...ids])
      .execute();
    for (const id of [...new Set(owners.map((owner) => owner.checkout_id))].sort(compareKeys)) await work.checkout(id);
  }
  return work.ordersById(ids);
}

/** The checkout becomes paid (once): the buyer gets the order confirmation. */
async function markCheckoutPaid(work: EventWork, checkoutId: string, at: number): Promise<void> {
  const checkout = await work.checkout(checkoutId);
  if (!checkout || checkout.status === 'paid') return;
  work.changeCheckout(checkout, { status: 'paid', failure_message: null, status_version: Math.max(at, version(checkout.status_version)) });
  work.effects.push({ kind: 'order-confirmation', userId: checkout.user_id, checkoutId });
}

/** An order's first payment (or a renewal's) is in: paid, unless a newer payment state is stored. */
function markOrderPaid(work: EventWork, order: OrderRow, at: number, refs: { subscriptionRef: string | null; itemRef: string | null; periodEnd?: number }) {
  const changes: Updateable<OrdersTable> = {};
  // A paid period only ever moves the end forward.
  if (refs.periodEnd && (order.current_period_end === null || Date.parse(order.current_period_end) < refs.periodEnd)) changes.current_period_end = iso(refs.periodEnd);
  if (refs.subscriptionRef && !order.subscription_ref) changes.subscription_ref = refs.subscriptionRef;
  if (refs.itemRef && !order.item_ref) changes.item_ref = refs.itemRef;
  if (order.subscription_status !== null && UNPAID_SUBSCRIPTION.has(order.subscription_status) && at >= version(order.subscription_version)) {
    // A paid invoice makes its subscription active, as at the provider; that event may come later, or first.
    changes.subscription_status = 'active';
    changes.subscription_version = at;
  }
  const newer = at >= version(order.payment_version);
  if (newer && order.payment_status !== 'paid') {
    changes.payment_status = 'paid';
    changes.failure_message = null;
    changes.payment_version = at;
    if (order.payment_status !== 'past_due' && isCertificateOrder(order.product_id) && order.details !== null) {
      work.effects.push({ kind: 'submit-for-validation', orderId: order.id });
    }
  } else if (newer && Object.keys(changes).length > 0) {
    // Paid again (checkout.completed after invoice.paid): the version moves only with another change.
    changes.payment_version = at;
  }
  work.changeOrder(order, changes);
}

async function applyCheckoutCompleted(work: EventWork, event: CheckoutCompleted) {
  const checkout = await work.checkout(event.checkoutId);
  if (!checkout) return;
  if (!checkout.session_ref) work.changeCheckout(checkout, { session_ref: event.checkoutRef });
  const paid = event.paymentStatus !== 'unpaid';
  for (const order of await work.checkoutOrders(checkout.id)) {
    const itemRef = event.items.find((item) => item.orderId === order.id)?.itemRef ?? null;
    if (paid) {
      markOrderPaid(work, order, event.occurredAt, { subscriptionRef: event.subscriptionRef, itemRef });
    } else {
      const changes: Updateable<OrdersTable> = {};
      if (event.subscriptionRef && !order.subscription_ref) changes.subscription_ref = event.subscriptionRef;
      if (itemRef && !order.item_ref) changes.item_ref = itemRef;
      work.changeOrder(order, changes);
    }
  }
  if (paid) await markCheckoutPaid(work, checkout.id, event.occurredAt);
}

async function applyCheckoutClosed(work: EventWork, event: CheckoutClosed) {
  const checkout = await work.checkout(event.checkoutId);
  // Paid, or closed by the buyer (cancelled, superseded): its page's end changes nothing.
  if (!checkout || !['open', 'failed'].includes(checkout.status) || event.occurredAt < version(checkout.status_version)) return;
  const status = event.kind === 'checkout.expired' ? 'expired' : 'failed';
  work.changeCheckout(checkout, { status, failure_message: event.failureMessage, status_version: event.occurredAt });
  const lifecycleEvent = event.kind === 'checkout.expired' ? 'payment-page-expired' : 'payment-failed';
  for (const order of await work.checkoutOrders(checkout.id)) {
    if (event.occurredAt < version(order.payment_version)) continue;
    if (!transition(lifecycleState(order, work.ctx.now()), lifecycleEvent, orderKind(order)).ok) continue;
    work.changeOrder(order, { payment_status: status, failure_message: event.failureMessage, payment_version: event.occurredAt });
  }
}

/** The user an invoice is for: its orders' owner, else the provider customer's. */
async function invoiceUser(work: EventWork, orders: OrderRow[], customerRef: string): Promise<string | undefined> {
  if (orders[0]) return orders[0].user_id;
  const customer = await work.trx.selectFrom('payment_customers').select('user_id').where('customer_ref', '=', customerRef).executeTakeFirst();
  return customer?.user_id;
}

/**
 * The invoice's transaction, created on first sight; an existing one is locked and handed back so
 * its state is only moved by a newer event (and never away from paid).
 */
async function upsertTransaction(
  work: EventWork,
  event: InvoicePaid | InvoicePaymentFailed,
  userId: string,
  orders: OrderRow[],
  fields: Pick<TransactionRow, 'status' | 'amount' | 'currency' | 'number' | 'failure_message' | 'receipt_pdf_url' | 'hosted_url' | 'date'> &
    Partial<Pick<TransactionRow, 'card_brand' | 'card_last4'>>,
): Promise<{ id: string; changed: boolean }> {
  const id = newId();
  const description = event.lines.map((line) => line.description).join('; ') || 'Payment';
  const row = {
    id,
    user_id: userId,
    invoice_ref: event.invoiceRef,
    kind: 'charge' as const,
    status_version: event.occurredAt,
    description: description.slice(0, 500),
    test_payment: work.ctx.providerName?.() === 'test' ? (1 as const) : (0 as const),
    created_at: iso(work.ctx.now()),
    ...fields,
  };
  const lineRows = () => {
    const known = new Set(orders.map((order) => order.id));
    const rows = new Map<string, Insertable<StoreDatabase['transaction_lines']>>();
    for (const line of event.lines) {
      const orderId = line.orderId && known.has(line.orderId) ? line.orderId : orders.find((order) => order.item_ref !== null && order.item_ref === line.itemRef)?.id;
      if (!orderId || rows.has(orderId)) continue;
      rows.set(orderId, {
        transaction_id: id,
        order_id: orderId,
        description: line.description.slice(0, 500),
        amount: line.amount,
        period_start: line.periodStart ? iso(line.periodStart) : null,
        period_end: line.periodEnd ? iso(line.periodEnd) : null,
      });
    }
    // An invoice without per-order lines (it happens with one-line subscriptions) still belongs to its orders.
    if (event.lines.length === 0) {
      for (const order of orders) rows.set(order.id, { transaction_id: id, order_id: order.id, description: order.description, amount: order.amount, period_start: null, period_end: null });
    }
    return [...rows.values()];
  };
  let existing = work.invoice(event.invoiceRef);
  if (existing === undefined) {
    work.addTransaction(row, lineRows());
    return { id, changed: true };
  }
  if (existing === 'unknown') {
    // Not looked up under a checkout's lock (a renewal's invoice): inserted now, so another event
    // about the invoice applied at this moment finds it, or waits for it.
    const trx = await work.raw();
    const inserted = await trx
      .insertInto('transactions')
      .values(row)
      .onConflict((conflict) => conflict.column('invoice_ref').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) {
      const lines = lineRows();
      if (lines.length > 0) await trx.insertInto('transaction_lines').values(lines).execute();
      work.keepInvoice(event.invoiceRef, row);
      return { id, changed: true };
    }
    const query = trx.selectFrom('transactions').select(['id', 'status', 'status_version']).where('invoice_ref', '=', event.invoiceRef);
    existing = await (work.ctx.sqlite ? query.executeTakeFirstOrThrow() : query.forUpdate().executeTakeFirstOrThrow());
    work.keepInvoice(event.invoiceRef, existing);
  }
  if (existing.status === 'paid' || event.occurredAt < version(existing.status_version) || existing.status === fields.status) {
    return { id: existing.id, changed: false };
  }
  work.changeTransaction(event.invoiceRef, existing, { ...fields, status_version: event.occurredAt });
  return { id: existing.id, changed: true };
}

async function applyInvoicePaid(work: EventWork, event: InvoicePaid) {
  const orders = await ordersOfLines(work, event.lines, event.subscriptionRef, event.checkoutId);
  const userId = await invoiceUser(work, orders, event.customerRef);
  if (!userId) return;
  const card = (event as InvoicePaid & { paymentMethod?: { brand?: string; last4?: string } | null }).paymentMethod;
  const transaction = await upsertTransaction(work, event, userId, orders, {
    status: 'paid',
    amount: event.amountPaid,
    currency: event.currency,
    number: event.number,
    failure_message: null,
    receipt_pdf_url: event.receipt.pdfUrl,
    hosted_url: event.receipt.hostedUrl,
    date: iso(event.paidAt),
    card_brand: card?.brand ?? null,
    card_last4: card?.last4 ?? null,
  });
  if (transaction.changed) work.effects.push({ kind: 'payment-receipt', userId, transactionId: transaction.id });
  for (const order of orders) {
    const line = event.lines.find((candidate) => candidate.orderId === order.id) ?? event.lines.find((candidate) => candidate.itemRef !== null && candidate.itemRef === order.item_ref);
    markOrderPaid(work, order, event.occurredAt, { subscriptionRef: event.subscriptionRef, itemRef: line?.itemRef ?? null, periodEnd: line?.periodEnd });
  }
  const checkoutIds = new Set(event.checkoutId ? [event.checkoutId] : []);
  if (!event.checkoutId) for (const order of orders) checkoutIds.add(order.checkout_id);
  for (const checkoutId of checkoutIds) await markCheckoutPaid(work, checkoutId, event.occurredAt);
}

async function applyInvoicePaymentFailed(work: EventWork, event: InvoicePaymentFailed) {
  const orders = await ordersOfLines(work, event.lines, event.subscriptionRef, event.checkoutId);
  const userId = await invoiceUser(work, orders, event.customerRef);
  if (!userId) return;
  const transaction = await upsertTransaction(work, event, userId, orders, {
    status: 'failed',
    amount: event.amountDue,
    currency: event.currency,
    number: null,
    failure_message: event.failureMessage,
    receipt_pdf_url: null,
    hosted_url: null,
    date: iso(event.occurredAt),
  });
  const failedOrders: string[] = [];
  for (const order of orders) {
    if (event.occurredAt < version(order.payment_version)) continue;
    // A try closed meanwhile (cancelled, superseded, expired) stays closed.
    if (!transition(lifecycleState(order, work.ctx.now()), 'payment-failed', orderKind(order)).ok) continue;
    const status = order.payment_status === 'paid' || order.payment_status === 'past_due' ? 'past_due' : 'failed';
    work.changeOrder(order, { payment_status: status, failure_message: event.failureMessage, payment_version: event.occurredAt });
    failedOrders.push(order.id);
  }
  if (event.checkoutId) {
    const checkout = await work.checkout(event.checkoutId);
    if (checkout && (checkout.status === 'open' || checkout.status === 'failed') && event.occurredAt >= version(checkout.status_version)) {
      work.changeCheckout(checkout, { status: 'failed', failure_message: event.failureMessage, status_version: event.occurredAt });
    }
  }
  if (transaction.changed && failedOrders.length > 0) {
    work.effects.push({ kind: 'payment-failed', userId, orderIds: failedOrders, amount: event.amountDue, failureMessage: event.failureMessage });
  }
}

export async function applyEvent(work: EventWork, event: PaymentEvent) {
  switch (event.kind) {
    case 'checkout.completed':
      return applyCheckoutCompleted(work, event);
    case 'checkout.expired':
    case 'checkout.failed':
      return applyCheckoutClosed(work, event);
    case 'invoice.paid':
      return applyInvoicePaid(work, event);
    case 'invoice.payment_failed':
      return applyInvoicePaymentFailed(work, event);
    case 'subscription.updated':
    case 'subscription.deleted':
      return applySubscriptionChanged(work, event);
  }
}

async function applySubscriptionChanged(work: EventWork, event: SubscriptionChanged) {
  const deleted = event.kind === 'subscription.deleted';
  const byOrderId = new Map(event.items.filter((item) => item.orderId).map((item) => [item.orderId as string, item]));
  // An item found by its ref only when it names no order: a shared item (lines at one price)
  // names each of its orders, and an order it no longer names has left it.
  const byItemRef = new Map(event.items.filter((item) => !item.orderId).map((item) => [item.itemRef, item]));
  const candidates = await (
    await work.raw()
  )
    .selectFrom('orders')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('subscription_ref', '=', event.subscriptionRef),
        ...(byOrderId.size > 0 ? [eb('id', 'in', [...byOrderId.keys()])] : []),
        ...(byItemRef.size > 0 ? [eb('item_ref', 'in', [...byItemRef.keys()])] : []),
      ]),
    )
    .execute();
  for (const order of await work.ordersById(candidates.map((row) => row.id))) {
    const stored = version(order.subscription_version);
    if (event.occurredAt < stored) continue;
    // At the same instant an ending wins over an update.
    if (event.occurredAt === stored && order.ended_at !== null && !deleted) continue;
    const item = byOrderId.get(order.id) ?? (order.item_ref ? byItemRef.get(order.item_ref) : undefined);
    const changes: Updateable<OrdersTable> = { subscription_version: event.occurredAt, subscription_ref: event.subscriptionRef, subscription_status: event.status };
    if (item) {
      changes.item_ref = item.itemRef;
      changes.renews = deleted ? 0 : item.renews ? 1 : 0;
      if (item.currentPeriodEnd) changes.current_period_end = iso(item.currentPeriodEnd);
      if (deleted) changes.ended_at = iso(event.occurredAt);
      else if (event.status !== 'canceled' && event.status !== 'incomplete_expired') changes.ended_at = null;
    } else if (order.subscription_ref === event.subscriptionRef && order.item_ref !== null) {
      // The order's item is no longer on the subscription: it was removed (renewal off at period
      // end; the renewal job removes it during the last day, before the next invoice). The buyer
      // paid up to the period's end: the order ends then, not when the item was removed.
      changes.renews = 0;
      const paidUntil = order.current_period_end ? Date.parse(order.current_period_end) : 0;
      changes.ended_at = iso(Math.max(event.occurredAt, paidUntil));
    } else {
      continue;
    }
    work.changeOrder(order, changes);
  }
}
