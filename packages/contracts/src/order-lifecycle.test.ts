import {
  FILTER_STATUS_OF,
  ORDER_EVENTS,
  ORDER_STATES,
  ORDER_STATE_ACTIONS,
  ORDER_STATE_LABELS,
  ORDER_TRANSITIONS,
  canCancel,
  orderState,
  transition,
  type OrderEvent,
  type OrderFacts,
  type OrderKind,
  type OrderState,
} from './order-lifecycle';

const VMC_NO_DETAILS: OrderKind = { certificate: true, hasDetails: false, issued: false };
const VMC_DESCRIBED: OrderKind = { certificate: true, hasDetails: true, issued: false };
const PLAN: OrderKind = { certificate: false, hasDetails: false, issued: false };

/** Every allowed transition, written out by hand (the table under test must say exactly this). */
const ALLOWED: [OrderState, OrderEvent, OrderKind, OrderState][] = [
  ['awaiting-payment', 'payment-page-opened', PLAN, 'awaiting-payment'],
  ['payment-failed', 'payment-page-opened', PLAN, 'awaiting-payment'],
  ['awaiting-payment', 'payment-succeeded', VMC_NO_DETAILS, 'details-needed'],
  ['awaiting-payment', 'payment-succeeded', VMC_DESCRIBED, 'validating'],
  ['awaiting-payment', 'payment-succeeded', PLAN, 'active'],
  ['payment-failed', 'payment-succeeded', VMC_DESCRIBED, 'validating'],
  ['cancelled', 'payment-succeeded', PLAN, 'active'],
  ['superseded', 'payment-succeeded', VMC_NO_DETAILS, 'details-needed'],
  ['overdue', 'payment-succeeded', VMC_DESCRIBED, 'active'],
  ['awaiting-payment', 'payment-failed', PLAN, 'payment-failed'],
  ['payment-failed', 'payment-failed', PLAN, 'payment-failed'],
  ['details-needed', 'payment-failed', VMC_NO_DETAILS, 'overdue'],
  ['validating', 'payment-failed', VMC_DESCRIBED, 'overdue'],
  ['active', 'payment-failed', PLAN, 'overdue'],
  ['expiring', 'payment-failed', PLAN, 'overdue'],
  ['overdue', 'payment-failed', PLAN, 'overdue'],
  ['awaiting-payment', 'payment-page-expired', PLAN, 'cancelled'],
  ['payment-failed', 'payment-page-expired', PLAN, 'cancelled'],
  ['awaiting-payment', 'cancelled-by-buyer', PLAN, 'cancelled'],
  ['payment-failed', 'cancelled-by-buyer', PLAN, 'cancelled'],
  ['awaiting-payment', 'superseded-by-checkout', PLAN, 'superseded'],
  ['payment-failed', 'superseded-by-checkout', PLAN, 'superseded'],
  ['details-needed', 'details-added', VMC_DESCRIBED, 'validating'],
  ['validating', 'certificate-issued', VMC_DESCRIBED, 'active'],
  ['active', 'end-approaching', PLAN, 'expiring'],
  ['expiring', 'renewal-resumed', PLAN, 'active'],
  ['active', 'period-ended', PLAN, 'expired'],
  ['expiring', 'period-ended', PLAN, 'expired'],
  ['overdue', 'period-ended', PLAN, 'expired'],
  ['active', 'subscription-cancelled', PLAN, 'cancelled'],
  ['expiring', 'subscription-cancelled', PLAN, 'cancelled'],
  ['overdue', 'subscription-cancelled', PLAN, 'cancelled'],
  ['details-needed', 'subscription-cancelled', VMC_NO_DETAILS, 'cancelled'],
  ['validating', 'subscription-cancelled', VMC_DESCRIBED, 'cancelled'],
];

describe('the order lifecycle', () => {
  it.each(ALLOWED)('%s --%s--> (%j) %s', (from, event, kind, to) => {
    expect(transition(from, event, kind)).toEqual({ ok: true, to });
  });

  it('lists no transition beyond those (every other state and event pair is refused)', () => {
    const allowed = new Set(ALLOWED.map(([from, event]) => `${from} ${event}`));
    const table = ORDER_EVENTS.flatMap((event) => Object.keys(ORDER_TRANSITIONS[event]).map((from) => `${from} ${event}`));
    expect(new Set(table)).toEqual(allowed);
  });

  const refused = ORDER_STATES.flatMap((from) => ORDER_EVENTS.filter((event) => !ALLOWED.some(([f, e]) => f === from && e === event)).map((event) => [from, event] as const));
  it.each(refused)('refuses %s --%s--> with a reason', (from, event) => {
    const outcome = transition(from, event, VMC_DESCRIBED);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.reason.length).toBeGreaterThan(10);
  });

  it('says why a paid order cannot be cancelled and a closed one cannot be paid', () => {
    expect(transition('validating', 'cancelled-by-buyer', VMC_DESCRIBED)).toEqual({ ok: false, reason: expect.stringContaining('only an unpaid order can be cancelled') });
    expect(transition('superseded', 'payment-page-opened', PLAN)).toEqual({ ok: false, reason: expect.stringContaining('can no longer be paid') });
    expect(transition('active', 'payment-page-opened', PLAN)).toEqual({ ok: false, reason: expect.stringContaining('nothing to pay') });
  });

  it('gives every state a label, a filter and at most one action; unpaid states (and only they) can be cancelled', () => {
    for (const state of ORDER_STATES) {
      expect(ORDER_STATE_LABELS[state]).toMatch(/^[A-Z]/);
      expect(FILTER_STATUS_OF[state]).toBeDefined();
    }
    // Four different states, four different words (finding 6: all were "Incomplete").
    const words = (['awaiting-payment', 'payment-failed', 'details-needed', 'overdue'] as const).map((state) => ORDER_STATE_LABELS[state]);
    expect(new Set(words).size).toBe(4);
    expect(ORDER_STATES.filter(canCancel)).toEqual(['awaiting-payment', 'payment-failed']);
    expect(ORDER_STATE_ACTIONS['payment-failed']).toBe('pay');
    expect(ORDER_STATE_ACTIONS.cancelled).toBeNull();
  });
});

describe('the state derived from stored facts', () => {
  const NOW = Date.parse('2026-06-01T00:00:00Z');
  const DAY = 24 * 60 * 60 * 1000;
  const base: OrderFacts = {
    certificate: true,
    paymentStatus: 'paid',
    subscriptionStatus: 'active',
    renews: true,
    currentPeriodEnd: new Date(NOW + 300 * DAY).toISOString(),
    endedAt: null,
    hasDetails: true,
    issued: true,
    certificateExpiresAt: new Date(NOW + 300 * DAY).toISOString(),
  };
  it.each<[string, Partial<OrderFacts>, OrderState]>([
    ['unpaid', { paymentStatus: 'unpaid', subscriptionStatus: null, hasDetails: false, issued: false }, 'awaiting-payment'],
    ['declined', { paymentStatus: 'failed', subscriptionStatus: null, issued: false }, 'payment-failed'],
    ['page expired', { paymentStatus: 'expired', subscriptionStatus: null }, 'cancelled'],
    ['cancelled by the buyer', { paymentStatus: 'cancelled', subscriptionStatus: null }, 'cancelled'],
    ['superseded', { paymentStatus: 'superseded', subscriptionStatus: null }, 'superseded'],
    ['paid without details', { hasDetails: false, issued: false }, 'details-needed'],
    ['paid and described', { issued: false }, 'validating'],
    ['issued', {}, 'active'],
    ['renewal failed', { paymentStatus: 'past_due' }, 'overdue'],
    ['subscription past due', { subscriptionStatus: 'past_due' }, 'overdue'],
    ['renewal off, ends in 30 days', { renews: false, currentPeriodEnd: new Date(NOW + 30 * DAY).toISOString() }, 'expiring'],
    ['certificate ends in 30 days', { certificateExpiresAt: new Date(NOW + 30 * DAY).toISOString() }, 'expiring'],
    ['renewal off, period over', { renews: false, currentPeriodEnd: new Date(NOW - DAY).toISOString() }, 'expired'],
    ['ended at the period end', { endedAt: new Date(NOW - DAY).toISOString(), currentPeriodEnd: new Date(NOW - DAY).toISOString() }, 'expired'],
    ['ended early', { endedAt: new Date(NOW - DAY).toISOString() }, 'cancelled'],
    ['ending still ahead', { endedAt: new Date(NOW + 10 * DAY).toISOString(), renews: false, currentPeriodEnd: new Date(NOW + 10 * DAY).toISOString() }, 'expiring'],
    ['a plan, paid', { certificate: false, hasDetails: false, issued: false }, 'active'],
  ])('%s: %s', (_name, facts, state) => {
    expect(orderState({ ...base, ...facts }, NOW)).toBe(state);
  });
});
