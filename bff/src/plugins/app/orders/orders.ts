import type { CertificateDetails, CheckoutState, OrderDetail, OrderFilter, OrderList, OrderStatus, ValidationStep } from '@bimi/contracts/orders';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { PaymentProviderName, StoreDatabase } from '../../../db/schema';
import { createOrderActions, type OrderActions } from './order-actions';
import { type CheckoutForPayment, type CreatedOrder, type DueReminder, type NewOrderLine, type OrderEffect, type OrderRow, type RenewalTarget } from '../../../services/orders/order-rows';
import { createOrdersRepository } from './orders-repository';
import { createPaymentEventApplier } from './payment-event-applier';
import type { PaymentEvent } from '../../../services/payments/provider';
import { isSqlite } from '../platform/db';

/**
 * The orders plugin: `fastify.orders`, made of the repository (plugins/app/orders/orders-repository.ts,
 * SQL only), the payment-event applier (plugins/app/orders/payment-event-*.ts) and the buyer's actions
 * on unpaid orders (plugins/app/orders/order-actions.ts), all following the order lifecycle
 * (@bimi/contracts/order-lifecycle, services/orders/order-status.ts).
 */

export { REMINDER_DAYS } from './order-fulfilment-rows';

export interface Orders extends OrderActions {
  /** Stores a checkout and one order per line (status incomplete, with the quoted amounts). */
  createCheckout(input: { userId: string; lines: NewOrderLine[] }): Promise<{ checkoutId: string; orders: CreatedOrder[] }>;
  /** The provider's session for the checkout: its id and the page where the buyer pays; false (nothing stored) when the checkout is no longer open. */
  attachProviderSession(checkoutId: string, ref: string, url: string, provider?: PaymentProviderName): Promise<boolean>;
  /** How many orders the user placed since `since` (paid or not). */
  countPlacedSince(userId: string, since: number): Promise<number>;
  /** Open checkouts made before `createdBefore` that never got a payment page (the process stopped in between). */
  checkoutsWithoutPaymentPage(createdBefore: number, limit: number): Promise<string[]>;
  /** The checkout as the success page polls it; undefined when it is not the user's. */
  checkoutState(userId: string, checkoutId: string): Promise<CheckoutState | undefined>;
  /** The checkout with its orders, for a provider (the test payment page); by our id or the provider's session ref. */
  checkoutForPayment(key: { checkoutId: string } | { sessionRef: string }): Promise<CheckoutForPayment | undefined>;
  /**
   * Applies a provider event exactly once: its id is stored in the same transaction as the change
   * it causes ('duplicate' when it was stored before: nothing changes). Safe in any order: per
   * object, state older than the last applied is ignored.
   */
  applyPaymentEvent(event: PaymentEvent): Promise<'applied' | 'duplicate'>;
  list(userId: string, filter: OrderFilter): Promise<OrderList>;
  /** One of the user's orders; undefined for another user's (the route answers 404). */
  get(userId: string, orderId: string): Promise<OrderDetail | undefined>;
  /** Stores the certificate details (already checked); submits the order for validation when paid. */
  setDetails(userId: string, orderId: string, details: CertificateDetails): Promise<OrderDetail | undefined>;
  /** Where the provider charges the order; undefined when not the user's; subscriptionRef null until paid. */
  renewalTarget(userId: string, orderId: string): Promise<(Omit<RenewalTarget, 'subscriptionRef'> & { subscriptionRef: string | null }) | undefined>;
  /** Records a renewal change the provider accepted (its subscription.updated event follows). */
  setRenewal(orderId: string, renew: boolean, currentPeriodEnd?: string | null): Promise<void>;
  // Fulfilment (the operator's command, or a certificate authority later).
  findByNumber(number: string): Promise<OrderRow | undefined>;
  operatorList(filter: OrderFilter): Promise<{ row: OrderRow; status: OrderStatus }[]>;
  operatorGet(orderId: string): Promise<OrderDetail | undefined>;
  setValidationStep(orderId: string, step: ValidationStep, state: 'waiting' | 'in-progress' | 'done' | 'failed', note: string | null): Promise<void>;
  /** Starts validation: every step waiting, unless it was started before. */
  startValidation(orderId: string): Promise<void>;
  /** The certificate is issued: the order becomes active. */
  markIssued(orderId: string, certificateExpiresAt: string | null): Promise<void>;
  /** Renewal reminders due now (30 and 7 days before a yearly period ends), not sent before. */
  dueRenewalReminders(): Promise<DueReminder[]>;
  /** Claims a reminder (false when another run claimed it); release it when the mail did not go. */
  claimReminder(reminder: DueReminder): Promise<boolean>;
  releaseReminder(reminder: DueReminder): Promise<void>;
  /** The raw row, for mail texts. */
  row(orderId: string): Promise<OrderRow | undefined>;
}

export interface OrdersOptions {
  now: () => number;
  /** The active provider's name, for rows that record who charged them. */
  providerName?: () => PaymentProviderName | undefined;
  /** Runs the effects of stored details (submitting a paid order for validation) right away. */
  onEffects?: (effects: OrderEffect[]) => Promise<void>;
  /** Told after an applied event's effects were recorded and committed (the sender wakes up). */
  onEffectsRecorded?: () => void;
}

export function createOrders(db: Kysely<StoreDatabase>, options: OrdersOptions): Orders {
  const applyPaymentEvent = createPaymentEventApplier(db, { sqlite: isSqlite(db), now: options.now, providerName: options.providerName }, options.onEffectsRecorded);
  return { ...createOrderActions(db, options.now), ...createOrdersRepository(db, options), applyPaymentEvent };
}

declare module 'fastify' {
  interface FastifyInstance {
    orders: Orders;
  }
}

export default fp(
  async function orders(fastify) {
    // Effects (mail, fulfilment) are wired by the order-notifications plugin once the mailer and
    // fulfilment exist; until then they are dropped on purpose (nothing registered listens).
    const listeners: ((effects: OrderEffect[]) => Promise<void>)[] = [];
    const wakers: (() => void)[] = [];
    const repository = createOrders(fastify.db, {
      now: fastify.now,
      onEffectsRecorded: () => {
        for (const wake of wakers) wake();
      },
      providerName: () => (fastify as unknown as { payments?: { provider?: { name?: PaymentProviderName } } }).payments?.provider?.name,
      onEffects: async (effects) => {
        for (const listener of listeners) await listener(effects);
      },
    });
    fastify.decorate('orders', repository);
    fastify.decorate('onOrderEffects', (listener: (effects: OrderEffect[]) => Promise<void>, wake?: () => void) => {
      listeners.push(listener);
      if (wake) wakers.push(wake);
    });
  },
  { name: 'orders', dependencies: ['db', 'clock'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Subscribes to effects to run at once (stored details), and to the news that an applied
     * event's effects were recorded for the sender (`wake`).
     */
    onOrderEffects(listener: (effects: OrderEffect[]) => Promise<void>, wake?: () => void): void;
  }
}
