// Stripe's webhook events in the store's words: which orders an invoice, a checkout session or a
// subscription change is about, and their shares of an amount (paymentEventFromStripe). Pure: the
// StripeProvider verifies the signature, then hands the event here.
import type Stripe from 'stripe';
import type { CheckoutCompleted, InvoiceLine, PaymentEvent, SubscriptionChanged } from './provider';

/** Metadata keys naming our records on Stripe's objects. */
export const METADATA = {
  checkoutId: 'checkout_id',
  orderId: 'order_id',
  userId: 'user_id',
  /** On a subscription item of one order: "false" once renewal is off for that order (see endNonRenewingItems). */
  renews: 'renews',
  /**
   * On a subscription item shared by several orders (lines at one price): the numbers N of the
   * `order_N` entries whose renewal is off, space-separated ("1 3"); at the period end the item's
   * quantity is lowered by their shares instead of the item being removed.
   */
  renewalOff: 'renewal_off',
  /** order_1 … order_N on the session and the subscription: "<order id> <price id> <quantity>". */
  orderPrefix: 'order_',
} as const;

/** The words a buyer reads when an asynchronous payment or a renewal fails; Stripe's own reason stays in its dashboard. */
const ASYNC_PAYMENT_FAILED = 'Your payment did not go through. Please try again with another card.';
const RENEWAL_PAYMENT_FAILED = 'Your card was declined for this payment. Please update your card.';

type Metadata = Record<string, string> | null | undefined;

/** One `order_N` entry: which order, at which price, and how many of the item's units are its share. */
interface OrderEntry {
  index: number;
  orderId: string;
  priceId: string;
  /** Null in entries written before shared items existed ("<order id> <price id>"): the whole item. */
  quantity: number | null;
}

function orderEntries(metadata: Metadata): OrderEntry[] {
  if (!metadata) return [];
  return Object.entries(metadata)
    .filter(([key, value]) => key.startsWith(METADATA.orderPrefix) && /^\d+$/.test(key.slice(METADATA.orderPrefix.length)) && value !== '')
    .map(([key, value]) => {
      const [orderId = '', priceId = '', quantity = ''] = value.split(' ');
      return { index: Number(key.slice(METADATA.orderPrefix.length)), orderId, priceId, quantity: /^\d+$/.test(quantity) ? Number(quantity) : null };
    })
    .sort((a, b) => a.index - b.index)
    .filter((entry) => entry.orderId !== '');
}

/** An order's part of a subscription item (or invoice line): the whole of it, or `quantity` of its units. */
export interface Share {
  orderId: string;
  /** N of the subscription's `order_N` entry; null when the item names its order itself. */
  index: number | null;
  quantity: number | null;
}

/**
 * Which orders a subscription item (or an invoice line) charges: the item's own metadata.order_id
 * when Stripe copied the Checkout line item's metadata to it, else every order the subscription's
 * metadata names at the item's price (lines at one price share one item: Stripe holds a price once
 * per subscription), each with its quantity.
 */
export function sharesOf(itemMetadata: Metadata, priceId: string | null, subscriptionMetadata: Metadata): Share[] {
  const own = itemMetadata?.[METADATA.orderId];
  if (own) return [{ orderId: own, index: null, quantity: null }];
  if (!priceId) return [];
  return orderEntries(subscriptionMetadata)
    .filter((entry) => entry.priceId === priceId)
    .map((entry) => ({ orderId: entry.orderId, index: entry.index, quantity: entry.quantity }));
}

/** The `order_N` numbers whose renewal is off on a shared item. */
export function renewalOffOf(itemMetadata: Metadata): Set<number> {
  return new Set(
    (itemMetadata?.[METADATA.renewalOff] ?? '')
      .split(' ')
      .filter((part) => /^\d+$/.test(part))
      .map(Number),
  );
}

/** Splits `amount` over the shares by quantity, to the cent (the last share takes the rounding). */
function splitAmount(amount: number, shares: Share[]): number[] {
  const units = shares.map((share) => share.quantity ?? 1);
  const total = units.reduce((sum, value) => sum + value, 0);
  let left = amount;
  return units.map((value, index) => {
    if (index === units.length - 1) return left;
    const part = Math.round((amount * value) / total);
    left -= part;
    return part;
  });
}

export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

function toMs(seconds: number | null | undefined): number | null {
  return typeof seconds === 'number' ? seconds * 1000 : null;
}

function invoiceLines(invoice: Stripe.Invoice, subscriptionMetadata: Metadata): InvoiceLine[] {
  return invoice.lines.data.flatMap((line) => {
    const priceId = idOf(line.pricing?.price_details?.price ?? null);
    const itemRef = line.parent?.subscription_item_details?.subscription_item ?? null;
    const base = { itemRef, description: line.description ?? '', periodStart: line.period.start * 1000, periodEnd: line.period.end * 1000 };
    const shares = sharesOf(line.metadata, priceId, subscriptionMetadata);
    if (shares.length <= 1) return [{ ...base, orderId: shares[0]?.orderId ?? null, amount: line.amount }];
    // A shared item's line is each order's line for its share of the units.
    const amounts = splitAmount(line.amount, shares);
    return shares.map((share, index) => ({ ...base, orderId: share.orderId, amount: amounts[index] ?? 0 }));
  });
}

/** One verified Stripe event as the PaymentEvent orders apply, or null for an event this store does not act on. */
export function paymentEventFromStripe(event: Stripe.Event): PaymentEvent | null {
  const base = { eventId: event.id, occurredAt: event.created * 1000 };
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      if (session.mode !== 'subscription') return null;
      const checkoutId = session.client_reference_id ?? session.metadata?.[METADATA.checkoutId];
      if (!checkoutId) return null;
      const completed: CheckoutCompleted = {
        ...base,
        kind: 'checkout.completed',
        checkoutId,
        checkoutRef: session.id,
        customerRef: idOf(session.customer) ?? '',
        subscriptionRef: idOf(session.subscription),
        // The session does not list the subscription's items; invoice lines and subscription
        // events name them (with their order) as they come.
        items: orderEntries(session.metadata).map((entry) => ({ orderId: entry.orderId, itemRef: null })),
        paymentStatus: session.payment_status === 'paid' ? 'paid' : session.payment_status === 'no_payment_required' ? 'no_payment_required' : 'unpaid',
      };
      return completed;
    }
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed': {
      const session = event.data.object;
      const checkoutId = session.client_reference_id ?? session.metadata?.[METADATA.checkoutId];
      if (!checkoutId || session.mode !== 'subscription') return null;
      return {
        ...base,
        kind: event.type === 'checkout.session.expired' ? 'checkout.expired' : 'checkout.failed',
        checkoutId,
        checkoutRef: session.id,
        failureMessage: event.type === 'checkout.session.expired' ? null : ASYNC_PAYMENT_FAILED,
      };
    }
    case 'invoice.paid': {
      const invoice = event.data.object;
      const details = invoice.parent?.subscription_details ?? null;
      return {
        ...base,
        kind: 'invoice.paid',
        invoiceRef: invoice.id,
        subscriptionRef: idOf(details?.subscription ?? null),
        customerRef: idOf(invoice.customer) ?? '',
        checkoutId: details?.metadata?.[METADATA.checkoutId] ?? null,
        number: invoice.number,
        amountPaid: invoice.amount_paid,
        currency: invoice.currency,
        paidAt: toMs(invoice.status_transitions?.paid_at) ?? event.created * 1000,
        lines: invoiceLines(invoice, details?.metadata),
        receipt: { pdfUrl: invoice.invoice_pdf ?? null, hostedUrl: invoice.hosted_invoice_url ?? null },
      };
    }
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const details = invoice.parent?.subscription_details ?? null;
      return {
        ...base,
        kind: 'invoice.payment_failed',
        invoiceRef: invoice.id,
        subscriptionRef: idOf(details?.subscription ?? null),
        customerRef: idOf(invoice.customer) ?? '',
        checkoutId: details?.metadata?.[METADATA.checkoutId] ?? null,
        amountDue: invoice.amount_due,
        currency: invoice.currency,
        failureMessage: RENEWAL_PAYMENT_FAILED,
        lines: invoiceLines(invoice, details?.metadata),
      };
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      const changed: SubscriptionChanged = {
        ...base,
        kind: event.type === 'customer.subscription.updated' ? 'subscription.updated' : 'subscription.deleted',
        subscriptionRef: subscription.id,
        customerRef: idOf(subscription.customer) ?? '',
        status: subscription.status,
        items: subscription.items.data.flatMap((item): SubscriptionChanged['items'] => {
          const renews =
            event.type === 'customer.subscription.updated' && !subscription.cancel_at_period_end && subscription.cancel_at === null && item.metadata?.[METADATA.renews] !== 'false';
          const shared = { itemRef: item.id, currentPeriodEnd: toMs(item.current_period_end) };
          const shares = sharesOf(item.metadata, item.price.id, subscription.metadata);
          if (shares.length === 0) return [{ ...shared, orderId: null, renews }];
          // Every order on a shared item, each renewing unless its own renewal is off.
          const off = renewalOffOf(item.metadata);
          return shares.map((share) => ({ ...shared, orderId: share.orderId, renews: renews && !(share.index !== null && off.has(share.index)) }));
        }),
      };
      return changed;
    }
    default:
      return null;
  }
}
