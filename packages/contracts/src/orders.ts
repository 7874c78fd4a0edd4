import * as z from 'zod/mini';
import { lengthLimit } from './length-limit';
import { ApiError } from './api-error';
import { CartQuoteLine } from './cart-quote';
import { CHECKOUT_STATES, ORDER_ACTIONS, ORDER_STATES } from './order-lifecycle';

/**
 * Checkout, orders and billing (issue 11). Every call is under /api/account/* (401 without a
 * session, X-CSRF-Token on writes, another user's records answer 404). Amounts are integer cents,
 * always priced by the bff from the catalog (@bimi/catalog/quote); the browser never sends one.
 *
 * - POST   /api/account/checkout                     CheckoutRequest → 201 CheckoutStarted (go to `url`:
 *                                                      Stripe Checkout, or the built-in test payment page);
 *                                                      400 a line the catalog refuses or a misconfigured price;
 *                                                      409 DuplicateCertificate when a line is a certificate identical
 *                                                      to one active or pending, or the same configuration as an order
 *                                                      paid in the last 24 hours (send `confirmDuplicates: true` to buy it anyway).
 *                                                      409 ApiError with code PAYMENT_BEING_CONFIRMED_CODE when a page of the
 *                                                      buyer's unpaid tries was paid and is being confirmed (a new page would charge again).
 *                                                      A new checkout supersedes the buyer's unpaid ones (their pages stop working).
 * - GET    /api/account/checkout/:checkoutId          → CheckoutState (the success page polls it until paid)
 * - GET    /api/account/orders?status=OrderFilter     → OrderList (newest first, with the counts of every filter)
 * - GET    /api/account/orders/:orderId               → OrderDetail
 * - PUT    /api/account/orders/:orderId/details       CertificateDetails → OrderDetail (certificate orders only)
 * - PUT    /api/account/orders/:orderId/renewal       RenewalChange → OrderDetail
 * - POST   /api/account/orders/:orderId/cancel        → OrderDetail (unpaid orders; 409 otherwise)
 * - POST   /api/account/orders/:orderId/pay           → 201 OrderPayment: a payment page for exactly this
 *                                                      unpaid order (its old page stops working); 409 otherwise, with code
 *                                                      PAYMENT_BEING_CONFIRMED_CODE when its old page was paid meanwhile
 * - GET    /api/account/billing/transactions          → TransactionList (newest first)
 * - GET    /api/account/billing/transactions/:id/receipt → the receipt PDF (test payments) or 302 to the
 *                                                      provider's invoice PDF (Stripe)
 * - GET    /api/account/billing/payment-methods       → PaymentMethodList
 * - POST   /api/account/billing/payment-methods/setup → PaymentMethodSetup (go to `url` to add a card)
 * - PUT    /api/account/billing/payment-methods/:id/default → PaymentMethodList
 * - DELETE /api/account/billing/payment-methods/:id   → PaymentMethodList
 * Public (no session):
 * - POST   /api/payments/webhook                      Stripe's signed events (raw body)
 * - GET    /api/payments/test/checkout/:sessionId      the built-in test payment page (HTML), when test payments run
 */
export { ORDER_PATHS } from './api-paths';

/** The list filters of spec §2 and §4. */
export const ORDER_FILTERS = ['all', 'active', 'pending', 'incomplete', 'expiring'] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];

/**
 * incomplete: the buyer must act (payment unfinished or failed, or validation details missing);
 * pending: paid and submitted, validation under way; active: issued certificate or running plan, paid
 * up; expiring: active and ending (renewal off, or certificate end) within 60 days; cancelled and
 * expired show under `all` only.
 */
export const ORDER_STATUSES = ['incomplete', 'pending', 'active', 'expiring', 'cancelled', 'expired'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export { EXPIRING_WITHIN_DAYS } from './order-lifecycle';

export const TRADEMARK_STATUSES = ['Registered', 'Pending'] as const;
export const AGENCY_LEVELS = ['Federal', 'State', 'Local'] as const;

/** The validation guide's steps of a certificate order, in order. */
export const VALIDATION_STEPS = ['organization', 'domain-control', 'trademark', 'logo', 'issued'] as const;
export type ValidationStep = (typeof VALIDATION_STEPS)[number];
export const VALIDATION_STEP_STATES = ['waiting', 'in-progress', 'done', 'failed'] as const;

const Id = z.string().check(z.minLength(1), lengthLimit(64));
/** One domain as everywhere else in the store (the one domain rule lives in @bimi/email-auth; the bff re-checks). */
const DomainName = z.string().check(z.minLength(1), lengthLimit(253));

/**
 * What a mark certificate needs for validation (the validation guide): the organization, the
 * domains (as many as the line's domain count), the logo (SVG Tiny PS, at most 32 KB, checked in the
 * browser and again by the bff), the trademark status (VMC/CMC) or agency level (GMC), and the
 * legal, technical and billing contacts from settings.
 */
export const CertificateDetails = z.object({
  organizationId: Id,
  domains: z.array(DomainName).check(z.minLength(1), lengthLimit(250)),
  logoSvg: z.string().check(z.minLength(1), lengthLimit(32 * 1024)),
  trademarkStatus: z.optional(z.enum(TRADEMARK_STATUSES)),
  agencyLevel: z.optional(z.enum(AGENCY_LEVELS)),
  contacts: z.object({ legal: Id, technical: Id, billing: Id }),
});
export type CertificateDetails = z.infer<typeof CertificateDetails>;

/** One cart item to buy: its configuration (as the quote takes it) and, optionally, its details now. */
export const CheckoutLine = z.extend(CartQuoteLine, {
  details: z.optional(CertificateDetails),
  /** A certificate configured with several logos: which one this line is ("Logo 2 of 3" on the order, the receipt and the mails). */
  logo: z.optional(
    z
      .object({ index: z.int().check(z.minimum(1), z.maximum(10)), count: z.int().check(z.minimum(2), z.maximum(10)) })
      .check(z.refine((logo) => logo.index <= logo.count, { message: 'logo: index must be at most count', path: ['index'] })),
  ),
});
export type CheckoutLine = z.infer<typeof CheckoutLine>;

export const CheckoutRequest = z.object({
  items: z.array(CheckoutLine).check(z.minLength(1), lengthLimit(50)),
  /** The terms and the refund policy were accepted. */
  acceptTerms: z.literal(true),
  /** The buyer confirmed buying again what they already have or paid in the last day (after a 409 DuplicateCertificate). */
  confirmDuplicates: z.optional(z.boolean()),
});
export type CheckoutRequest = z.infer<typeof CheckoutRequest>;

/** 409 of POST /api/account/checkout: certificates identical (same product and domains) to ones active or pending. */
export const DUPLICATE_CERTIFICATE_CODE = 'duplicate-certificate';
export const DuplicateCertificate = z.object({
  message: z.string(),
  code: z.literal(DUPLICATE_CERTIFICATE_CODE),
  duplicates: z.array(z.object({ item: z.int(), orderId: z.string(), orderNumber: z.string() })),
});
export type DuplicateCertificate = z.infer<typeof DuplicateCertificate>;

/** A payment page of the buyer's was paid and its payment is being confirmed: no new page is opened (409, `code`). */
export const PAYMENT_BEING_CONFIRMED_CODE = 'payment-being-confirmed';
/** The 409 of POST checkout: an identical certificate to confirm, or an earlier payment being confirmed. */
export const CheckoutConflict = z.union([DuplicateCertificate, ApiError]);

export const CheckoutStarted = z.object({
  checkoutId: z.string(),
  orderIds: z.array(z.string()),
  /** Where the browser goes to pay. */
  url: z.string(),
});
export type CheckoutStarted = z.infer<typeof CheckoutStarted>;

export const CheckoutState = z.object({
  checkoutId: z.string(),
  /** open (its page can be paid), paid, failed (declined), expired, cancelled (by the buyer) or superseded (a newer checkout of the cart). */
  status: z.enum(CHECKOUT_STATES),
  orderIds: z.array(z.string()),
  /** Why the payment failed, in the buyer's words ("Your card was declined."). */
  failureMessage: z.nullable(z.string()),
});
export type CheckoutState = z.infer<typeof CheckoutState>;

export const BillingPeriod = z.object({
  interval: z.enum(['month', 'year']),
  count: z.int(),
});
export type BillingPeriod = z.infer<typeof BillingPeriod>;

export const OrderSummary = z.object({
  id: z.string(),
  /** "O-000123": short enough to read out on a call. */
  number: z.string(),
  productId: z.string(),
  productName: z.string(),
  /** "3 domains · 2 years" or "1,000,000 emails · monthly". */
  description: z.string(),
  status: z.enum(ORDER_STATUSES),
  /** Where the order is in its lifecycle (@bimi/contracts/order-lifecycle): the account pages show ORDER_STATE_LABELS of it. */
  state: z.enum(ORDER_STATES),
  /** The one thing the buyer can do about it now (pay, add the details, update the card), or null. */
  action: z.nullable(z.enum(ORDER_ACTIONS)),
  /** Unpaid: the buyer can cancel it (POST ORDER_PATHS.orderCancel). */
  canCancel: z.boolean(),
  createdAt: z.string(),
  /** What one billing period costs, in cents. */
  amount: z.int(),
  currency: z.literal('usd'),
  billingPeriod: BillingPeriod,
  renews: z.boolean(),
  /** When the paid period ends: the next renewal when `renews`, else the end. */
  currentPeriodEnd: z.nullable(z.string()),
  /** What the buyer must still do, in words; empty when nothing. */
  needsAction: z.array(z.string()),
});
export type OrderSummary = z.infer<typeof OrderSummary>;

export const OrderList = z.object({
  orders: z.array(OrderSummary),
  counts: z.record(z.enum(ORDER_FILTERS), z.int()),
});
export type OrderList = z.infer<typeof OrderList>;

export const OrderLine = z.object({
  description: z.string(),
  quantity: z.int(),
  unitAmount: z.int(),
  amount: z.int(),
});

export const Transaction = z.object({
  id: z.string(),
  date: z.string(),
  orderId: z.nullable(z.string()),
  orderNumber: z.nullable(z.string()),
  /** Every order the transaction paid, each with what it is (@bimi/catalog/labels orderLabel, without its number): a checkout of several certificates pays several orders. */
  orders: z.array(z.object({ id: z.string(), number: z.string(), label: z.string() })),
  description: z.string(),
  kind: z.enum(['charge', 'refund']),
  status: z.enum(['paid', 'failed', 'refunded', 'pending']),
  amount: z.int(),
  currency: z.literal('usd'),
  /** Our receipt link (ORDER_PATHS.receipt). */
  receiptUrl: z.nullable(z.string()),
  /** The provider's hosted invoice page, when there is one (Stripe). */
  hostedUrl: z.nullable(z.string()),
});
export type Transaction = z.infer<typeof Transaction>;

export const TransactionList = z.object({ transactions: z.array(Transaction) });
export type TransactionList = z.infer<typeof TransactionList>;

export const OrderDetail = z.extend(OrderSummary, {
  lines: z.array(OrderLine),
  /** Certificate orders: the details given so far (null until given). */
  details: z.nullable(CertificateDetails),
  /** Certificate orders: the validation guide's steps; empty for DMARC plans. */
  validationSteps: z.array(
    z.object({
      step: z.enum(VALIDATION_STEPS),
      state: z.enum(VALIDATION_STEP_STATES),
      note: z.nullable(z.string()),
      updatedAt: z.nullable(z.string()),
    }),
  ),
  transactions: z.array(Transaction),
  /**
   * The open payment page for exactly this order, else null. To pay an unpaid order (action `pay`)
   * the account pages POST ORDER_PATHS.orderPay, which opens (or reuses) a page of its own.
   */
  paymentUrl: z.nullable(z.string()),
});
export type OrderDetail = z.infer<typeof OrderDetail>;

/** POST ORDER_PATHS.orderPay answers where to pay exactly this order. */
export const OrderPayment = z.object({ url: z.string(), checkoutId: z.string() });
export type OrderPayment = z.infer<typeof OrderPayment>;

export const RenewalChange = z.object({
  /** false: cancel at the end of the paid period; true: keep renewing. */
  renew: z.boolean(),
});
export type RenewalChange = z.infer<typeof RenewalChange>;

export const PaymentMethod = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
  expMonth: z.int(),
  expYear: z.int(),
  isDefault: z.boolean(),
});
export type PaymentMethod = z.infer<typeof PaymentMethod>;

export const PaymentMethodList = z.object({ paymentMethods: z.array(PaymentMethod) });
export type PaymentMethodList = z.infer<typeof PaymentMethodList>;

export const PaymentMethodSetup = z.object({ url: z.string() });
export type PaymentMethodSetup = z.infer<typeof PaymentMethodSetup>;
