import { PRODUCTS, isProductId } from '@bimi/catalog/products';
import { billingInterval, describeConfiguration } from '@bimi/catalog/order-lines';
import type { CartQuote } from '@bimi/catalog/quote';
import { CertificateDetails, ORDER_PATHS, VALIDATION_STEPS, type CheckoutLine, type Transaction as TransactionView, type ValidationStep } from '@bimi/contracts/orders';
import type { Selectable, Transaction } from 'kysely';
import type { CheckoutsTable, OrdersTable, StoreDatabase, TransactionsTable } from '../../db/schema';
import type { PaymentEvent } from '../payments/provider';

/**
 * The orders' shapes and the pure helpers every part of the orders code shares: the rows, the
 * numbers buyers read ("O-000123"), the order lines a checkout stores, the effects an applied
 * payment event owes. The orders plugin's repository and payment-event applier
 * (plugins/app/orders/) read and write them.
 */

export type OrderRow = Selectable<OrdersTable>;
export type CheckoutRow = Selectable<CheckoutsTable>;
export type TransactionRow = Selectable<TransactionsTable>;
export type Trx = Transaction<StoreDatabase>;

/** One order to create: a cart item's configuration and what the catalog quoted for it. */
export interface NewOrderLine {
  productId: string;
  domains?: number;
  years?: number;
  logos?: number;
  emailVolume?: number;
  billingPeriod?: 'monthly' | 'annual';
  /** The cart line's quantity (copies). */
  copies: number;
  /** Units charged per billing period (the quote's quantity), per unit and in all, in cents. */
  quantity: number;
  unitAmount: number;
  amount: number;
  interval: 'month' | 'year';
  intervalCount: number;
  /** "3 domains · 2 years". */
  description: string;
  priceId: string | null;
  /** Validation details given at checkout, already checked (checkCertificateDetails). */
  details?: CertificateDetails;
}

export interface CreatedOrder extends NewOrderLine {
  id: string;
  number: string;
}

/** The provider-facing view of a checkout (the test payment page shows it). */
export interface CheckoutForPayment {
  id: string;
  userId: string;
  status: CheckoutRow['status'];
  sessionRef: string | null;
  sessionUrl: string | null;
  failureMessage: string | null;
  orders: CreatedOrder[];
}

/** What an applied event leads to once its transaction has committed: mail and fulfilment. */
export type OrderEffect =
  | { kind: 'order-confirmation'; userId: string; checkoutId: string }
  | { kind: 'payment-receipt'; userId: string; transactionId: string }
  | { kind: 'payment-failed'; userId: string; orderIds: string[]; amount: number; failureMessage: string | null }
  | { kind: 'submit-for-validation'; orderId: string };

/** Where the provider charges one order: its subscription and item. */
export interface RenewalTarget {
  orderId: string;
  subscriptionRef: string;
  itemRef: string | null;
  renews: boolean;
  currentPeriodEnd: string | null;
}

/** A renewal reminder due: the order, how many days ahead (30 or 7), and the period end it is about. */
export interface DueReminder {
  orderId: string;
  userId: string;
  daysAhead: number;
  periodEnd: string;
}

/** "O-000123": short enough to read out on a call. */
export function orderNumber(number: number): string {
  return `O-${String(number).padStart(6, '0')}`;
}

/** A receipt's number: the provider's invoice number, else "R-" and the transaction's id's first eight characters. */
export function receiptNumber(transaction: Pick<TransactionRow, 'id' | 'number'>): string {
  return transaction.number ?? `R-${transaction.id.slice(0, 8).toUpperCase()}`;
}

export function parseOrderNumber(text: string): number | undefined {
  const match = /^(?:O-?)?(\d{1,9})$/i.exec(text.trim());
  return match ? Number(match[1]) : undefined;
}

/** The orders to create for checkout items, from the catalog's quote of the same items (same order). */
export function orderLinesFromQuote(items: readonly CheckoutLine[], quote: CartQuote): NewOrderLine[] {
  return items.map((item, index) => {
    const quoted = quote.items[index];
    if (!quoted) throw new Error(`no quote for items[${index}]`);
    return {
      productId: item.productId,
      domains: item.domains,
      years: item.years,
      logos: item.logos,
      emailVolume: item.emailVolume,
      billingPeriod: item.billingPeriod,
      copies: item.quantity ?? 1,
      quantity: quoted.quantity,
      unitAmount: quoted.unitAmount,
      amount: quoted.amount,
      ...billingInterval(item),
      description: describeConfiguration(item),
      priceId: quoted.priceId,
      details: item.details,
    };
  });
}

export function productName(productId: string): string {
  return isProductId(productId) ? PRODUCTS[productId].name : productId;
}

export function toCreatedOrder(row: OrderRow): CreatedOrder {
  return {
    id: row.id,
    number: orderNumber(row.number),
    productId: row.product_id,
    domains: row.domains ?? undefined,
    years: row.years ?? undefined,
    logos: row.logos ?? undefined,
    emailVolume: row.email_volume ?? undefined,
    billingPeriod: row.billing_period ?? undefined,
    copies: row.copies,
    quantity: row.quantity,
    unitAmount: row.unit_amount,
    amount: row.amount,
    interval: row.billing_interval,
    intervalCount: row.billing_interval_count,
    description: row.description,
    priceId: row.price_id,
    details: parseDetails(row.details) ?? undefined,
  };
}

export function parseDetails(json: string | null): CertificateDetails | null {
  if (json === null) return null;
  const parsed = CertificateDetails.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : null;
}

export const version = (value: number | string): number => Number(value);

/** The checkout an event locks first, when the event names it (the batch order); undefined for renewals and subscription changes. */
export function lockKeyOf(event: PaymentEvent): string | undefined {
  switch (event.kind) {
    case 'checkout.completed':
    case 'checkout.expired':
    case 'checkout.failed':
      return event.checkoutId;
    case 'invoice.paid':
    case 'invoice.payment_failed':
      return event.checkoutId ?? undefined;
    default:
      return undefined;
  }
}

export const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// The confirmation goes before the receipt it announces, whichever event came first.
const EFFECT_ORDER: OrderEffect['kind'][] = ['order-confirmation', 'payment-receipt', 'payment-failed', 'submit-for-validation'];
export const effectsInOrder = (effects: OrderEffect[]) => [...effects].sort((a, b) => EFFECT_ORDER.indexOf(a.kind) - EFFECT_ORDER.indexOf(b.kind));

export type StepRow = Selectable<StoreDatabase['order_validation_steps']>;

/** A stored transaction as the account area shows it. */
export function transactionView(row: TransactionRow, orders: { id: string; number: number; label?: string }[]): TransactionView {
  const single = orders.length === 1 ? orders[0] : undefined;
  return {
    id: row.id,
    date: row.date,
    orderId: single?.id ?? null,
    orderNumber: orders.length > 0 ? orders.map((order) => orderNumber(order.number)).join(', ') : null,
    orders: orders.map((order) => ({ id: order.id, number: orderNumber(order.number), label: order.label ?? orderNumber(order.number) })),
    description: row.description,
    kind: row.kind,
    status: row.status,
    amount: row.amount,
    currency: 'usd',
    receiptUrl: row.status === 'paid' || row.status === 'refunded' ? ORDER_PATHS.receipt(row.id) : null,
    hostedUrl: row.hosted_url,
  };
}

export function isValidationStep(value: string): value is ValidationStep {
  return (VALIDATION_STEPS as readonly string[]).includes(value);
}
