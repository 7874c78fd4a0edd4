import { PRODUCTS, isProductId } from '@bimi/catalog/products';
import { FILTER_STATUS_OF, orderState, type OrderKind, type OrderState } from '@bimi/contracts/order-lifecycle';
import { ORDER_FILTERS, VALIDATION_STEPS, type OrderFilter, type OrderStatus, type ValidationStep } from '@bimi/contracts/orders';
import type { Selectable } from 'kysely';
import type { OrdersTable } from '../../db/schema';

export interface StepState {
  step: string;
  state: string;
  note: string | null;
}

/** The columns the state is derived from. */
export type OrderColumns = Pick<
  Selectable<OrdersTable>,
  'product_id' | 'payment_status' | 'failure_message' | 'subscription_status' | 'renews' | 'current_period_end' | 'ended_at' | 'details' | 'issued_at' | 'certificate_expires_at'
>;

export function isCertificateOrder(productId: string): boolean {
  return isProductId(productId) && PRODUCTS[productId].type === 'certificate';
}

/** What the lifecycle's transitions depend on. */
export function orderKind(order: Pick<OrderColumns, 'product_id' | 'details' | 'issued_at'>): OrderKind {
  return { certificate: isCertificateOrder(order.product_id), hasDetails: order.details !== null, issued: order.issued_at !== null };
}

/**
 * The order's lifecycle state (@bimi/contracts/order-lifecycle), derived on every read from what
 * is stored and the clock, so `expiring` and `expired` follow time without a job rewriting rows.
 */
export function lifecycleState(order: OrderColumns, now: number): OrderState {
  return orderState(
    {
      ...orderKind(order),
      paymentStatus: order.payment_status,
      subscriptionStatus: order.subscription_status,
      renews: order.renews === 1,
      currentPeriodEnd: order.current_period_end,
      endedAt: order.ended_at,
      certificateExpiresAt: order.certificate_expires_at,
    },
    now,
  );
}

/** The order's coarse status (the list filters of spec §2). */
export function orderStatus(order: OrderColumns, now: number): OrderStatus {
  return FILTER_STATUS_OF[lifecycleState(order, now)];
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

/** What the buyer must still do, in words; empty when nothing. One sentence per state, then any validation step that failed. */
export function needsAction(order: Pick<OrderColumns, 'failure_message'>, state: OrderState, steps: StepState[]): string[] {
  const reason = order.failure_message ? ` (${order.failure_message.replace(/\.$/, '')})` : '';
  const actions: string[] = [];
  switch (state) {
    case 'awaiting-payment':
      actions.push('Finish the payment, or cancel the order.');
      break;
    case 'payment-failed':
      actions.push(`The payment failed${reason}: pay again with another card, or cancel the order.`);
      break;
    case 'overdue':
      actions.push(`The renewal payment failed${reason}: update your card in Billing; the payment is tried again.`);
      break;
    case 'details-needed':
      actions.push('Add the validation details: organization, domains, logo and contacts.');
      break;
    default:
      break;
  }
  if (state === 'validating' || state === 'details-needed') {
    for (const step of steps) {
      if (step.state === 'failed') {
        const name = STEP_NAMES[step.step as ValidationStep] ?? step.step;
        actions.push(`Validation of the ${name} needs your attention${step.note ? `: ${step.note}` : '.'}`);
      }
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
