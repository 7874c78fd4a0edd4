import { PRICE_SETTING_NAMES } from '@bimi/catalog/price-ids';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../../lib/http-error';
import type { PaymentProvider } from '../../../services/payments/provider';
import { PAYMENTS_UNAVAILABLE } from './payment-errors';
import { StripeProvider } from './stripe-provider';
import { TestProvider } from './test-provider';
import { testCardStore, testSessionStore, testSetupStore, testSubscriptionFromOrders } from './test-stores';

/** Which provider runs: Stripe, the built-in test payments, or none (production without a key). */
export type PaymentMode = 'stripe' | 'test' | 'none';

/** Production without STRIPE_SECRET_KEY and without TEST_PAYMENTS=true: everything answers 503. */
function unavailableProvider(): PaymentProvider {
  const refuse = async (): Promise<never> => {
    throw new HttpError(503, PAYMENTS_UNAVAILABLE);
  };
  return {
    name: 'stripe',
    createCustomer: refuse,
    createCheckout: refuse,
    closeCheckout: refuse,
    pageStatus: refuse,
    setRenewal: refuse,
    listPaymentMethods: refuse,
    setDefaultPaymentMethod: refuse,
    removePaymentMethod: refuse,
    createPaymentMethodSetup: refuse,
    parseWebhook: () => {
      throw new HttpError(503, PAYMENTS_UNAVAILABLE);
    },
  };
}

/** The provider every charge goes through, by mode: Stripe, the built-in test payments, or none. */
export function chooseProvider(fastify: FastifyInstance, mode: PaymentMode): { provider: PaymentProvider; stripe: StripeProvider | null; test: TestProvider | null } {
  const { config } = fastify;
  let stripe: StripeProvider | null = null;
  let test: TestProvider | null = null;
  let provider: PaymentProvider;
  if (mode === 'stripe' && config.stripeSecretKey) {
    stripe = new StripeProvider({ secretKey: config.stripeSecretKey, webhookSecret: config.stripe.webhookSecret, api: config.stripe.api });
    provider = stripe;
  } else if (mode === 'test') {
    test = new TestProvider({
      baseUrl: '',
      now: fastify.now,
      emit: (event) => fastify.orders.applyPaymentEvent(event),
      cards: testCardStore(fastify.db, fastify.now),
      sessions: testSessionStore(fastify.db, fastify.now),
      setups: testSetupStore(fastify.db, fastify.now),
      loadSubscription: (ref) => testSubscriptionFromOrders(fastify.db, ref),
    });
    provider = test;
  } else {
    provider = unavailableProvider();
  }
  return { provider, stripe, test };
}

/** Spec §8: which provider runs, and every price it cannot charge, in the log at start. */
export function logPaymentSettings(fastify: FastifyInstance, mode: PaymentMode) {
  const { config } = fastify;
  const unsetPrices = PRICE_SETTING_NAMES.filter((name) => name.endsWith('_PRICE') && !config.priceSettings[name]);
  if (mode === 'stripe') {
    fastify.log.info({ api: config.stripe.api ? `${config.stripe.api.protocol}://${config.stripe.api.host}:${config.stripe.api.port}` : 'api.stripe.com' }, 'payments: Stripe');
    if (unsetPrices.length > 0) fastify.log.error({ settings: unsetPrices }, `payments: price settings missing, those products cannot be bought: ${unsetPrices.join(', ')}`);
    if (!config.stripe.webhookSecret) fastify.log.error('payments: STRIPE_WEBHOOK_SECRET not set, so Stripe webhooks are refused and no payment is confirmed');
  } else if (mode === 'test') {
    fastify.log.warn(
      config.nodeEnv === 'production'
        ? 'payments: built-in TEST payments in production (TEST_PAYMENTS=true): only test cards are taken, nothing is charged'
        : 'payments: built-in test payments (no STRIPE_SECRET_KEY): test cards only, nothing is charged',
    );
    if (unsetPrices.length > 0) fastify.log.info({ settings: unsetPrices }, `payments: price settings not set (test payments charge the catalog amounts): ${unsetPrices.join(', ')}`);
  } else {
    fastify.log.error('payments: none. NODE_ENV=production without STRIPE_SECRET_KEY (and TEST_PAYMENTS is not true), so checkout answers 503');
  }
}

/**
 * Where quotes report an invalid or missing price identifier (spec §8): each message once per
 * process, not per request; an error with Stripe, information with test payments (which charge the
 * catalog's amounts and need no Stripe price).
 */
export function priceLogFor(fastify: FastifyInstance, mode: PaymentMode): { error(message: string): void } {
  const logged = new Set<string>();
  return {
    error(message: string) {
      if (logged.has(message) || logged.size >= 256) return;
      logged.add(message);
      if (mode === 'stripe') fastify.log.error(`price identifier: ${message}`);
      else fastify.log.info(`price identifier (${mode === 'test' ? 'test payments charge the catalog amount' : 'payments off'}): ${message}`);
    },
  };
}
