/**
 * The seam between the payment providers (Stripe, built-in test payments) and the orders they pay
 * for. A provider turns a checkout into a hosted payment page and turns what happens there (Stripe's
 * webhooks, the test page's outcomes) into `PaymentEvent`s; the orders repository applies each event
 * exactly once (`fastify.orders.applyPaymentEvent`), so orders follow one code path whichever
 * provider charged them.
 */

/** A user as the provider needs them: one provider customer per user. */
export interface PaymentUser {
  id: string;
  email: string;
  name: string;
}

/** One order of a checkout, as the provider charges it: one subscription item per order. */
export interface ProviderCheckoutLine {
  orderId: string;
  /** The provider's price identifier (Stripe); null with test payments, which charge the catalog amount. */
  priceId: string | null;
  /** Units of the price: domains for a certificate, stripeQuantity for a DMARC plan. */
  quantity: number;
  /** The catalog's amount for one billing period of the whole line, in cents. */
  amount: number;
  interval: 'month' | 'year';
  intervalCount: number;
  description: string;
}

export interface ProviderCheckout {
  /** Our checkout id: client_reference_id and metadata on Stripe's objects. */
  checkoutId: string;
  user: PaymentUser;
  /** The provider's customer for the user (ensureCustomer). */
  customerRef: string;
  lines: ProviderCheckoutLine[];
  successUrl: string;
  cancelUrl: string;
  /** The same for every retry of one order attempt. */
  idempotencyKey: string;
}

export interface ProviderPaymentMethod {
  ref: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  isDefault: boolean;
}

/** The provider's own record of a paid invoice, for the receipt link. */
export interface ProviderReceipt {
  pdfUrl: string | null;
  hostedUrl: string | null;
}

export interface PaymentProvider {
  readonly name: 'stripe' | 'test';
  /** The provider customer of `user`, created once (the caller stores the ref). */
  createCustomer(user: PaymentUser): Promise<string>;
  /** A hosted payment page for the checkout; `ref` is the provider's session id. */
  createCheckout(checkout: ProviderCheckout): Promise<{ ref: string; url: string }>;
  /**
   * Closes an open payment page (`ref`: its session id) so it can no longer be paid; a page already
   * closed stays so. Answers `paid` when the page was paid before it could be closed: its payment
   * is being confirmed (the events may not have arrived yet), and a page that replaced it would
   * charge the buyer again.
   */
  closeCheckout(ref: string): Promise<'closed' | 'paid'>;
  /** Whether a payment page can still be paid (`open`), was paid (`paid`), or neither; it changes nothing. */
  pageStatus(ref: string): Promise<'open' | 'paid' | 'closed'>;
  /**
   * Turn renewal of one order (one subscription item, or its share of an item it shares with other
   * orders at the same price: `orderId` says which) off at the end of its period, or back on.
   */
  setRenewal(target: { subscriptionRef: string; itemRef: string | null; orderId?: string }, renew: boolean): Promise<void>;
  listPaymentMethods(customerRef: string): Promise<ProviderPaymentMethod[]>;
  setDefaultPaymentMethod(customerRef: string, paymentMethodRef: string): Promise<void>;
  removePaymentMethod(customerRef: string, paymentMethodRef: string): Promise<void>;
  /** A hosted page where the customer adds a card; back to `returnUrl` afterwards. */
  createPaymentMethodSetup(customerRef: string, returnUrl: string): Promise<{ url: string }>;
  /**
   * The events a webhook delivery carries, after its signature is verified against the raw body;
   * throws `WebhookSignatureError` when it is not the provider's.
   */
  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): PaymentEvent[];
}

export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/**
 * What happened at the provider, normalized. `eventId` is the provider's event id (exactly once is
 * keyed on it); `occurredAt` (epoch ms) orders events about the same object, so an older event never
 * overwrites newer state. State is read from the event's object, never assumed from the event's kind.
 */
export type PaymentEvent = CheckoutCompleted | CheckoutClosed | InvoicePaid | InvoicePaymentFailed | SubscriptionChanged;

interface EventBase {
  eventId: string;
  occurredAt: number;
}

export interface CheckoutCompleted extends EventBase {
  kind: 'checkout.completed';
  checkoutId: string;
  checkoutRef: string;
  customerRef: string;
  subscriptionRef: string | null;
  /** Which subscription item charges which order (from the item's metadata.order_id). */
  items: { orderId: string; itemRef: string | null }[];
  /** 'paid' once the first invoice is paid; 'unpaid' while an asynchronous payment is under way. */
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
}

export interface CheckoutClosed extends EventBase {
  /** expired: the buyer never paid; failed: an asynchronous payment failed. */
  kind: 'checkout.expired' | 'checkout.failed';
  checkoutId: string;
  checkoutRef: string;
  failureMessage: string | null;
}

export interface InvoiceLine {
  orderId: string | null;
  itemRef: string | null;
  description: string;
  amount: number;
  periodStart: number;
  periodEnd: number;
}

export interface InvoicePaid extends EventBase {
  kind: 'invoice.paid';
  invoiceRef: string;
  subscriptionRef: string | null;
  customerRef: string;
  /** The checkout this first invoice belongs to, when known (metadata). */
  checkoutId: string | null;
  number: string | null;
  amountPaid: number;
  currency: string;
  paidAt: number;
  lines: InvoiceLine[];
  receipt: ProviderReceipt;
}

export interface InvoicePaymentFailed extends EventBase {
  kind: 'invoice.payment_failed';
  invoiceRef: string;
  subscriptionRef: string | null;
  customerRef: string;
  checkoutId: string | null;
  amountDue: number;
  currency: string;
  /** The decline reason in the buyer's words. */
  failureMessage: string | null;
  lines: InvoiceLine[];
}

export interface SubscriptionChanged extends EventBase {
  kind: 'subscription.updated' | 'subscription.deleted';
  subscriptionRef: string;
  customerRef: string;
  /** Stripe's status: active, past_due, canceled, incomplete, incomplete_expired, unpaid, trialing, paused. */
  status: string;
  items: { orderId: string | null; itemRef: string; currentPeriodEnd: number | null; renews: boolean }[];
}
