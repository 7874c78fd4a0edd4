/**
 * The order lifecycle, written once (issue 30): the states an order and a checkout can be in, every
 * transition named with the event that causes it, and what the buyer can do in each state. Pure: no
 * database, no HTTP. The bff derives an order's state from what it stores (`orderState`), checks a
 * buyer's action or an event against `transition` before it writes, and the account pages show
 * `ORDER_STATE_LABELS` and the one action (`ORDER_STATE_ACTIONS`) of each state.
 */

/**
 * - awaiting-payment: ordered, its payment page not paid yet.
 * - payment-failed: the first payment was declined; it can be paid again (a page of its own) or cancelled.
 * - cancelled: closed unpaid (by the buyer, or its payment page expired), or ended before its paid period.
 * - superseded: an unpaid try replaced by a newer checkout of the same cart.
 * - details-needed: paid; the certificate's validation details are missing.
 * - validating: paid and described; the certificate authority validates it.
 * - active: the certificate is issued (or the plan runs), paid up.
 * - overdue: a renewal payment failed; the buyer updates the card.
 * - expiring: active, and ends (renewal off, or certificate end) within EXPIRING_WITHIN_DAYS.
 * - expired: ran to the end of its paid period.
 */
export const ORDER_STATES = ['awaiting-payment', 'payment-failed', 'cancelled', 'superseded', 'details-needed', 'validating', 'active', 'overdue', 'expiring', 'expired'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** The states of a checkout (one payment page for one or more orders). */
export const CHECKOUT_STATES = ['open', 'paid', 'failed', 'expired', 'cancelled', 'superseded'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATES)[number];

/** How each state reads to the buyer. */
export const ORDER_STATE_LABELS: Record<OrderState, string> = {
  'awaiting-payment': 'Awaiting payment',
  'payment-failed': 'Payment failed',
  cancelled: 'Cancelled',
  superseded: 'Replaced by a newer order',
  'details-needed': 'Paid – details needed',
  validating: 'Validating',
  active: 'Active',
  overdue: 'Payment overdue',
  expiring: 'Expiring',
  expired: 'Expired',
};

/** The one thing the buyer can do about an order in a state (null: nothing to do). */
export const ORDER_ACTIONS = ['pay', 'add-details', 'update-card'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export const ORDER_STATE_ACTIONS: Record<OrderState, OrderAction | null> = {
  'awaiting-payment': 'pay',
  'payment-failed': 'pay',
  cancelled: null,
  superseded: null,
  'details-needed': 'add-details',
  validating: null,
  active: null,
  overdue: 'update-card',
  expiring: null,
  expired: null,
};

/** The events that move an order. */
export const ORDER_EVENTS = [
  /** A payment page of its own is opened for the order (pay again after a decline, or finish an unpaid one). */
  'payment-page-opened',
  /** The provider took the payment (first payment, or a renewal after a failure). */
  'payment-succeeded',
  /** The provider declined the payment (first payment, or a renewal). */
  'payment-failed',
  /** The payment page expired unpaid. */
  'payment-page-expired',
  /** The buyer cancelled the unpaid order. */
  'cancelled-by-buyer',
  /** A newer checkout of the same cart replaced the unpaid order. */
  'superseded-by-checkout',
  /** The certificate's validation details were given. */
  'details-added',
  /** The certificate authority issued the certificate. */
  'certificate-issued',
  /** Renewal is off (or the certificate ends) within EXPIRING_WITHIN_DAYS. */
  'end-approaching',
  /** Renewal turned back on. */
  'renewal-resumed',
  /** The paid period ran out. */
  'period-ended',
  /** The subscription ended before its paid period was over. */
  'subscription-cancelled',
] as const;
export type OrderEvent = (typeof ORDER_EVENTS)[number];

/** What a transition's target can depend on: a certificate needs details and validation, a plan does not. */
export interface OrderKind {
  certificate: boolean;
  hasDetails: boolean;
  issued: boolean;
}

type Target = OrderState | ((kind: OrderKind) => OrderState);

/** Paid: what comes next depends on the product and on what is already given. */
const afterPayment = (kind: OrderKind): OrderState => (!kind.certificate || kind.issued ? 'active' : kind.hasDetails ? 'validating' : 'details-needed');

const RUNNING: readonly OrderState[] = ['active', 'expiring', 'overdue'];

/**
 * Every allowed transition: event → (from state → to state). Any pair not listed is refused.
 * A payment the provider took is always recorded, even on a try that was cancelled or superseded
 * meanwhile (the money was taken: the order is the buyer's).
 */
export const ORDER_TRANSITIONS: Record<OrderEvent, Partial<Record<OrderState, Target>>> = {
  'payment-page-opened': { 'awaiting-payment': 'awaiting-payment', 'payment-failed': 'awaiting-payment' },
  'payment-succeeded': {
    'awaiting-payment': afterPayment,
    'payment-failed': afterPayment,
    cancelled: afterPayment,
    superseded: afterPayment,
    overdue: 'active',
  },
  'payment-failed': {
    'awaiting-payment': 'payment-failed',
    'payment-failed': 'payment-failed',
    'details-needed': 'overdue',
    validating: 'overdue',
    active: 'overdue',
    expiring: 'overdue',
    overdue: 'overdue',
  },
  'payment-page-expired': { 'awaiting-payment': 'cancelled', 'payment-failed': 'cancelled' },
  'cancelled-by-buyer': { 'awaiting-payment': 'cancelled', 'payment-failed': 'cancelled' },
  'superseded-by-checkout': { 'awaiting-payment': 'superseded', 'payment-failed': 'superseded' },
  'details-added': { 'details-needed': 'validating' },
  'certificate-issued': { validating: 'active' },
  'end-approaching': { active: 'expiring' },
  'renewal-resumed': { expiring: 'active' },
  'period-ended': Object.fromEntries(RUNNING.map((state) => [state, 'expired'])),
  'subscription-cancelled': Object.fromEntries([...RUNNING, 'details-needed', 'validating'].map((state) => [state, 'cancelled'])),
};

export type Transition = { ok: true; to: OrderState } | { ok: false; reason: string };

/** Why an event cannot move an order in `from`, in the buyer's words. */
function refusal(from: OrderState, event: OrderEvent): string {
  const label = ORDER_STATE_LABELS[from].toLowerCase();
  switch (event) {
    case 'cancelled-by-buyer':
      return from === 'cancelled' || from === 'superseded'
        ? `This order is already closed (${label}).`
        : `This order is ${label}: only an unpaid order can be cancelled. To stop a paid one, turn its renewal off.`;
    case 'payment-page-opened':
      return from === 'cancelled' || from === 'superseded'
        ? `This order is closed (${label}): it can no longer be paid. Buy it again from the store.`
        : `This order is ${label}: there is nothing to pay.`;
    case 'details-added':
      return `This order is ${label}: its details cannot be added now.`;
    default:
      return `An order that is ${label} cannot take the event ${event}.`;
  }
}

/** Where `event` takes an order in `from`, or why it cannot. */
export function transition(from: OrderState, event: OrderEvent, kind: OrderKind): Transition {
  const target = ORDER_TRANSITIONS[event][from];
  if (target === undefined) return { ok: false, reason: refusal(from, event) };
  return { ok: true, to: typeof target === 'function' ? target(kind) : target };
}

/** The buyer can cancel the order (it is unpaid). */
export function canCancel(state: OrderState): boolean {
  return ORDER_TRANSITIONS['cancelled-by-buyer'][state] !== undefined;
}

/** The order's line on the list filters of spec §2 (all, active, pending, incomplete, expiring) and its coarse status. */
export type OrderFilterStatus = 'incomplete' | 'pending' | 'active' | 'expiring' | 'cancelled' | 'expired';

export const FILTER_STATUS_OF: Record<OrderState, OrderFilterStatus> = {
  'awaiting-payment': 'incomplete',
  'payment-failed': 'incomplete',
  'details-needed': 'incomplete',
  overdue: 'incomplete',
  validating: 'pending',
  active: 'active',
  expiring: 'expiring',
  cancelled: 'cancelled',
  superseded: 'cancelled',
  expired: 'expired',
};

/** Stored payment state of an order (the bff's orders.payment_status). */
export type PaymentStatus = 'unpaid' | 'paid' | 'failed' | 'past_due' | 'expired' | 'cancelled' | 'superseded';

/** What the state is derived from: the stored facts and the clock. */
export interface OrderFacts {
  certificate: boolean;
  paymentStatus: PaymentStatus;
  /** The provider's subscription status (active, past_due, canceled …), or null before one exists. */
  subscriptionStatus: string | null;
  renews: boolean;
  currentPeriodEnd: string | null;
  endedAt: string | null;
  hasDetails: boolean;
  issued: boolean;
  certificateExpiresAt: string | null;
}

const DAY = 24 * 60 * 60 * 1000;
/** An order this close to its end shows as expiring. */
export const EXPIRING_WITHIN_DAYS = 60;
const UNPAID_SUBSCRIPTION = new Set(['past_due', 'unpaid', 'incomplete']);
const ENDED_SUBSCRIPTION = new Set(['canceled', 'incomplete_expired']);

const within = (iso: string | null, now: number, days: number) => iso !== null && Date.parse(iso) - now <= days * DAY;

/**
 * The order's state from what is stored and the clock (so expiring and expired follow time without
 * a job rewriting rows). The stored facts only ever change through the transitions above.
 */
export function orderState(order: OrderFacts, now: number): OrderState {
  if (order.paymentStatus === 'expired' || order.paymentStatus === 'cancelled') return 'cancelled';
  if (order.paymentStatus === 'superseded') return 'superseded';
  // An end still ahead (an item removed before its paid period is over) is not an end yet.
  const ended = (order.endedAt !== null && Date.parse(order.endedAt) <= now) || (order.subscriptionStatus !== null && ENDED_SUBSCRIPTION.has(order.subscriptionStatus));
  if (ended) {
    // Ended before the paid period was over: cancelled; at (or after) its end: it ran out.
    const endedAt = order.endedAt ? Date.parse(order.endedAt) : now;
    return order.currentPeriodEnd !== null && endedAt >= Date.parse(order.currentPeriodEnd) - DAY ? 'expired' : 'cancelled';
  }
  if (order.paymentStatus === 'unpaid') return 'awaiting-payment';
  if (order.paymentStatus === 'failed') return 'payment-failed';
  if (order.paymentStatus === 'past_due') return 'overdue';
  if (order.subscriptionStatus !== null && UNPAID_SUBSCRIPTION.has(order.subscriptionStatus)) return 'overdue';
  if (order.certificate && !order.hasDetails) return 'details-needed';
  if (order.certificate && !order.issued) return 'validating';
  if (!order.renews && order.currentPeriodEnd !== null && Date.parse(order.currentPeriodEnd) <= now) return 'expired';
  if (!order.renews && within(order.currentPeriodEnd, now, EXPIRING_WITHIN_DAYS)) return 'expiring';
  if (order.certificate && within(order.certificateExpiresAt, now, EXPIRING_WITHIN_DAYS)) return 'expiring';
  return 'active';
}

/** The payment status stored when an unpaid order is closed by `event`. */
export const CLOSED_PAYMENT_STATUS: Partial<Record<OrderEvent, PaymentStatus>> = {
  'payment-page-expired': 'expired',
  'cancelled-by-buyer': 'cancelled',
  'superseded-by-checkout': 'superseded',
};

/** The checkout state stored when its unpaid orders are closed by `event`. */
export const CLOSED_CHECKOUT_STATUS: Partial<Record<OrderEvent, CheckoutStatus>> = {
  'payment-page-expired': 'expired',
  'cancelled-by-buyer': 'cancelled',
  'superseded-by-checkout': 'superseded',
};

/** A checkout's payment page can still be paid only while it is open. */
export function checkoutPayable(status: CheckoutStatus): boolean {
  return status === 'open';
}
