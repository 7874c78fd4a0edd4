import { PRODUCTS, isProductId } from '@bimi/catalog/products';
import { EXPIRING_WITHIN_DAYS, ORDER_FILTERS, VALIDATION_STEPS, type OrderFilter, type OrderStatus, type ValidationStep } from '@bimi/contracts/orders';
import type { Selectable } from 'kysely';
import type { OrdersTable } from '../../db/schema';

const DAY = 24 * 60 * 60 * 1000;

/** Provider subscription states in which the buyer owes a payment. */
const UNPAID_SUBSCRIPTION = new Set(['past_due', 'unpaid', 'incomplete']);
/** Provider subscription states that end it. */
const ENDED_SUBSCRIPTION = new Set(['canceled', 'incomplete_expired']);

export interface StepState {
  step: string;
  state: string;
  note: string | null;
}

/** The columns the status is derived from. */
export type OrderState = Pick<
  Selectable<OrdersTable>,
  'product_id' | 'payment_status' | 'failure_message' | 'subscription_status' | 'renews' | 'current_period_end' | 'ended_at' | 'details' | 'issued_at' | 'certificate_expires_at'
>;

export function isCertificateOrder(productId: string): boolean {
  return isProductId(productId) && PRODUCTS[productId].type === 'certificate';
}

function within(iso: string | null, now: number, days: number): boolean {
  return iso !== null && Date.parse(iso) - now <= days * DAY;
}

/**
 * The order's status, derived on every read from what is stored (payment, subscription, details,
 * issuance, the period end) and the clock, so `expiring` and `expired` follow time without a job
 * rewriting rows.
 */
export function orderStatus(order: OrderState, now: number): OrderStatus {
  if (order.payment_status === 'expired') return 'cancelled';
  // An end still ahead (an item removed before its paid period is over) is not an end yet.
  const ended = (order.ended_at !== null && Date.parse(order.ended_at) <= now) || (order.subscription_status !== null && ENDED_SUBSCRIPTION.has(order.subscription_status));
  if (ended) {
    // Ended before the paid period was over: cancelled; at (or after) its end: it ran out.
    const endedAt = order.ended_at ? Date.parse(order.ended_at) : now;
    return order.current_period_end !== null && endedAt >= Date.parse(order.current_period_end) - DAY ? 'expired' : 'cancelled';
  }
  if (order.payment_status !== 'paid') return 'incomplete';
  if (order.subscription_status !== null && UNPAID_SUBSCRIPTION.has(order.subscription_status)) return 'incomplete';
  const certificate = isCertificateOrder(order.product_id);
  if (certificate && order.details === null) return 'incomplete';
  if (certificate && order.issued_at === null) return 'pending';
  const renews = order.renews === 1;
  if (!renews && order.current_period_end !== null && Date.parse(order.current_period_end) <= now) return 'expired';
  if (!renews && within(order.current_period_end, now, EXPIRING_WITHIN_DAYS)) return 'expiring';
  if (certificate && within(order.certificate_expires_at, now, EXPIRING_WITHIN_DAYS)) return 'expiring';
  return 'active';
}

/** Whether an order in `status` shows under `filter` (cancelled and expired under `all` only). */
export function matchesFilter(status: OrderStatus, filter: OrderFilter): boolean {
  return filter === 'all' || status === filter;
}

export function countByFilter(statuses: OrderStatus[]): Record<OrderFilter, number> {
  return Object.fromEntries(ORDER_FILTERS.map((filter) => [filter, statuses.filter((status) => matchesFilter(status, filter)).length])) as Record<OrderFilter, number>;
}

const STEP_NAMES: Record<ValidationStep, string> = {
  organization: 'organization',
  'domain-control': 'domain control',
  trademark: 'trademark',
  logo: 'logo',
  issued: 'issuance',
};

/** What the buyer must still do, in words; empty when nothing. */
export function needsAction(order: OrderState, status: OrderStatus, steps: StepState[], hasOpenPayment: boolean): string[] {
  if (status === 'cancelled' || status === 'expired') return [];
  const actions: string[] = [];
  if (
    order.payment_status === 'failed' ||
    order.payment_status === 'past_due' ||
    (order.subscription_status !== null && UNPAID_SUBSCRIPTION.has(order.subscription_status) && order.payment_status === 'paid')
  ) {
    const reason = order.failure_message ? ` (${order.failure_message.replace(/\.$/, '')})` : '';
    actions.push(`The payment failed${reason}: update your card and pay again.`);
  } else if (order.payment_status === 'unpaid') {
    actions.push(hasOpenPayment ? 'Finish the payment.' : 'The payment is being confirmed.');
  }
  if (isCertificateOrder(order.product_id) && order.details === null) {
    actions.push('Add the validation details: organization, domains, logo and contacts.');
  }
  for (const step of steps) {
    if (step.state === 'failed') {
      const name = STEP_NAMES[step.step as ValidationStep] ?? step.step;
      actions.push(`Validation of the ${name} needs your attention${step.note ? `: ${step.note}` : '.'}`);
    }
  }
  return actions;
}

/** The validation steps in the guide's order, with `waiting` for those not recorded yet. */
export function validationSteps<T extends { step: string; state: string; note: string | null; updated_at: string }>(rows: T[]) {
  return VALIDATION_STEPS.map((step) => {
    const row = rows.find((candidate) => candidate.step === step);
    return {
      step,
      state: (row?.state ?? 'waiting') as 'waiting' | 'in-progress' | 'done' | 'failed',
      note: row?.note ?? null,
      updatedAt: row?.updated_at ?? null,
    };
  });
}
