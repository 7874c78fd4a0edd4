import { logoLabel } from '@bimi/catalog/labels';
import { QuoteError, overChargeLimitMessage, quoteCart } from '@bimi/catalog/quote';
import { PRICE_SETTING_NAMES } from '@bimi/catalog/price-ids';
import { ONE_ORDER_PAYMENT_PARAM } from '@bimi/contracts/api-paths';
import type { CheckoutRequest, CheckoutStarted, OrderPayment } from '@bimi/contracts/orders';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { paymentProviderName, publicBaseUrl } from '../../config';
import { HttpError } from '../../lib/http-error';
import { checkCertificateDetails } from '../../services/orders/certificate-details';
import { PriceCheck, PriceCheckError, UnbuyableLineError, chargedLine, type ChargedLine } from '../../services/payments/price-check';
import type { ClosedPage, DuplicateOf } from '../orders/order-actions';
import type { PaymentProvider, PaymentUser, ProviderCheckoutLine } from '../../services/payments/provider';
import { StripeProvider } from './stripe-provider';
import { TestProvider } from './test-provider';
import { testCardStore, testSessionStore, testSetupStore, testSubscriptionFromOrders } from './test-stores';
import { orderLinesFromQuote, orderNumber } from '../orders/orders';

/** Lines one Stripe checkout can name: 50 metadata keys, less checkout_id and user_id. */
const STRIPE_MAX_LINES = 48;

export const PAYMENTS_UNAVAILABLE = 'Card payments are not available right now. Please contact us.';
export const PAYMENT_PAGE_UNAVAILABLE = 'We could not open the payment page: the payment provider did not answer. Nothing was charged; please try again in a moment.';

/** The provider failed to open the payment page (after the SDK's retries); the checkout is marked failed. */
/** On an order whose checkout never got its payment page. */
export const PAYMENT_PAGE_NOT_OPENED = 'The payment page could not be opened. Nothing was charged.';
/** A checkout gets its payment page within seconds; one without it this long never will. */
export const CHECKOUT_PAGE_GRACE_MS = 15 * 60 * 1000;
/** How long a declined try can be paid again from its order before it is cancelled: as long as a payment page lives. */
export const DECLINED_TRY_KEPT_MS = 24 * 60 * 60 * 1000;

export class PaymentPageUnavailableError extends Error {
  override name = 'PaymentPageUnavailableError';
  constructor(readonly checkoutId: string) {
    super(PAYMENT_PAGE_UNAVAILABLE);
  }
}

/** A line of the checkout is a certificate identical to one the buyer has (409 unless confirmed). */
export class DuplicateCertificateError extends Error {
  override name = 'DuplicateCertificateError';
  constructor(readonly duplicates: DuplicateOf[]) {
    const numbers = [...new Set(duplicates.map((duplicate) => orderNumber(duplicate.number)))].join(', ');
    super(
      `You already have ${duplicates.length === 1 ? 'this certificate' : 'these certificates'} for the same domains (order ${numbers}). Buying again charges again: confirm to buy ${duplicates.length === 1 ? 'it' : 'them'} anyway.`,
    );
  }
}

export interface Payments {
  /** The provider every charge goes through. */
  provider: PaymentProvider;
  /** Which one runs: Stripe, the built-in test payments, or none (production without a key). */
  mode: 'stripe' | 'test' | 'none';
  /** The same provider, typed, when it is Stripe (price check, receipts, the renewal job). */
  stripe: StripeProvider | null;
  /** The same provider, typed, when it is the built-in test payments (its pages). */
  test: TestProvider | null;
  /** Prices a checkout from the catalog, checks it, creates its orders and the provider's payment page. */
  startCheckout(user: PaymentUser, request: CheckoutRequest, log: FastifyBaseLogger): Promise<CheckoutStarted>;
  /** A payment page for exactly one unpaid order (HttpError 404/409 when it has none to pay). */
  payOrder(user: PaymentUser, orderId: string, log: FastifyBaseLogger): Promise<OrderPayment>;
  /** Cancels an unpaid order (HttpError 404/409 otherwise). */
  cancelOrder(user: PaymentUser, orderId: string, log: FastifyBaseLogger): Promise<void>;
  /** The user's provider customer, created on first use. */
  customerOf(user: PaymentUser): Promise<string>;
  /** Closes (as failed) checkouts left without a payment page; every 5 minutes, and at start. Answers their ids. */
  closeCheckoutsWithoutPaymentPage(): Promise<string[]>;
  /** Cancels declined tries not paid again within a day; every 5 minutes, and at start. Answers their checkouts. */
  closeDeclinedTries(): Promise<string[]>;
  /**
   * Where quotes report an invalid or missing price identifier (spec §8): each message once per
   * process, not per request; an error with Stripe, information with test payments (which charge
   * the catalog's amounts and need no Stripe price).
   */
  priceLog: { error(message: string): void };
  /** The start of the URLs the provider sends the buyer back to: the site's address for Stripe, '' (a path) for the test pages. */
  returnBase: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    payments: Payments;
  }
}

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
function chooseProvider(fastify: FastifyInstance, mode: Payments['mode']): { provider: PaymentProvider; stripe: StripeProvider | null; test: TestProvider | null } {
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
function logPaymentSettings(fastify: FastifyInstance, mode: Payments['mode']) {
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

export default fp(
  async function payments(fastify) {
    const { config } = fastify;
    const mode = paymentProviderName(config);
    const baseUrl = publicBaseUrl(config);
    // Where the buyer comes back to: absolute for Stripe; a path on the site for the test pages.
    const returnBase = mode === 'stripe' ? baseUrl : '';

    const { provider, stripe, test } = chooseProvider(fastify, mode);
    const priceCheck = stripe ? new PriceCheck((priceId) => (stripe as StripeProvider).priceFacts(priceId)) : null;

    logPaymentSettings(fastify, mode);

    const priceMessagesLogged = new Set<string>();
    const priceLog = {
      error(message: string) {
        if (priceMessagesLogged.has(message) || priceMessagesLogged.size >= 256) return;
        priceMessagesLogged.add(message);
        if (mode === 'stripe') fastify.log.error(`price identifier: ${message}`);
        else fastify.log.info(`price identifier (${mode === 'test' ? 'test payments charge the catalog amount' : 'payments off'}): ${message}`);
      },
    };

    const customerOf = (user: PaymentUser) => fastify.paymentCustomers.findOrCreate(user, (who) => provider.createCustomer(who));

    /** One order's line on its payment page, as charged (Stripe charges by its price identifier). */
    const pageLine = (orderId: string, line: ChargedLine): ProviderCheckoutLine => ({
      orderId,
      priceId: stripe ? line.priceId : null,
      quantity: line.quantity,
      amount: line.amount,
      interval: line.interval,
      intervalCount: line.intervalCount,
      description: line.description,
    });

    /** The items priced by the catalog and checked as the provider will charge them (400 for a line it cannot). */
    async function priceItems(items: CheckoutRequest['items'], log: FastifyBaseLogger) {
      let quote;
      try {
        quote = quoteCart(items, config.priceSettings, priceLog);
      } catch (error) {
        if (error instanceof QuoteError) throw new HttpError(400, error.message);
        throw error;
      }
      // Above the provider's one-charge limit nothing is stored: the checkout page offers sales instead.
      if (!quote.payable) throw new HttpError(400, overChargeLimitMessage(quote.total));
      const charged: ChargedLine[] = items.map((item, index) => {
        const quoted = quote.items[index];
        if (!quoted) throw new Error(`no quote for items[${index}]`);
        try {
          return chargedLine(item, quoted);
        } catch (error) {
          if (error instanceof UnbuyableLineError) throw new HttpError(400, `items[${index}]: ${error.message}`);
          throw error;
        }
      });

      if (stripe && priceCheck) {
        // A subscription holds each price once, so lines at one price share one item with the summed
        // quantity (stripe-provider createCheckout). A DMARC plan's volume tiers price the summed
        // volume, not each line's: two lines at one DMARC plan cannot share an item.
        // Stripe keeps at most 50 metadata keys on the session and the subscription: checkout_id,
        // user_id and one order_N per line.
        if (charged.length > STRIPE_MAX_LINES) {
          throw new HttpError(400, `items: a checkout takes at most ${STRIPE_MAX_LINES} items; pay for the others in a second checkout`);
        }
        const seen = new Map<string, number>();
        charged.forEach((line, index) => {
          if (!line.priceId) return;
          const first = seen.get(line.priceId);
          if (first !== undefined && line.expected.kind === 'total') {
            throw new HttpError(
              400,
              `items[${index}]: the same plan as items[${first}] cannot be paid twice in one checkout; choose a larger email volume on that line or buy it in a second checkout`,
            );
          }
          if (first === undefined) seen.set(line.priceId, index);
        });
        try {
          await priceCheck.check(charged);
        } catch (error) {
          if (error instanceof PriceCheckError) {
            log.error({ problems: error.problems }, 'checkout refused: a Stripe price does not match the catalog');
            throw new HttpError(400, error.message);
          }
          throw error;
        }
      }
      return { quote, charged };
    }

    /** Closes payment pages at the provider once their checkout no longer charges what they show (logged when the provider fails: a payment there is still recorded). */
    async function closePages(pages: ClosedPage[], log: FastifyBaseLogger) {
      for (const page of pages) {
        if (page.provider && page.provider !== provider.name) continue;
        try {
          await provider.closeCheckout(page.sessionRef);
        } catch (error) {
          log.error({ err: error, checkoutId: page.checkoutId }, 'the payment provider did not close a payment page; a payment made there is still recorded');
        }
      }
    }

    /**
     * The provider's page for a stored checkout; a checkout whose page could not be opened closes as
     * failed. `paying`: what the page pays for, the cart or one order already placed (whose success
     * page leaves the cart alone).
     */
    async function openPage(user: PaymentUser, customerRef: string, checkoutId: string, lines: ProviderCheckoutLine[], paying: 'cart' | 'order', log: FastifyBaseLogger): Promise<string> {
      let session: { ref: string; url: string };
      try {
        session = await provider.createCheckout({
          checkoutId,
          user,
          customerRef,
          lines,
          successUrl: `${returnBase}/checkout/success?checkout=${encodeURIComponent(checkoutId)}${paying === 'order' ? `&${ONE_ORDER_PAYMENT_PARAM}=1` : ''}`,
          cancelUrl: `${returnBase}/checkout/cancel?checkout=${encodeURIComponent(checkoutId)}`,
          // One order attempt: the SDK repeats it on every retry of the call, so Stripe makes one session.
          idempotencyKey: `checkout-${checkoutId}`,
        });
      } catch (error) {
        log.error({ err: error, checkoutId }, 'the payment provider did not open a payment page');
        await closeWithoutPaymentPage(checkoutId);
        throw new PaymentPageUnavailableError(checkoutId);
      }
      await fastify.orders.attachProviderSession(checkoutId, session.ref, session.url);
      return session.url;
    }

    async function startCheckout(user: PaymentUser, request: CheckoutRequest, log: FastifyBaseLogger): Promise<CheckoutStarted> {
      if (mode === 'none') throw new HttpError(503, PAYMENTS_UNAVAILABLE);
      const { quote, charged } = await priceItems(request.items, log);
      const orderLines = orderLinesFromQuote(request.items, quote);
      for (const [index, item] of request.items.entries()) {
        const line = orderLines[index];
        // "Logo 2 of 3" on the order, its payment page line and so its receipt.
        const logo = item.logo && logoLabel(item.logo.index, item.logo.count);
        if (logo && line) [line.description, charged[index]!.description] = [`${line.description} · ${logo}`, `${charged[index]!.description} · ${logo}`];
        if (item.details && line)
          line.details = await checkCertificateDetails(
            { organizations: fastify.organizations, contacts: fastify.contacts, files: fastify.untrustedFiles },
            user.id,
            item,
            item.details,
            `items[${index}].details`,
          );
      }

      if (!request.confirmDuplicates) {
        const duplicates = await fastify.orders.identicalCertificates(
          user.id,
          request.items.map((item) => ({ productId: item.productId, domains: item.details?.domains })),
        );
        if (duplicates.length > 0) throw new DuplicateCertificateError(duplicates);
      }

      const customerRef = await customerOf(user);
      const { checkoutId, orders } = await fastify.orders.createCheckout({ userId: user.id, lines: orderLines });
      // One cart, one purchase: the buyer's unpaid tries before this one are superseded and their pages closed.
      const superseded = await fastify.orders.supersedeUnpaid(user.id, checkoutId);
      if (superseded.orderIds.length > 0) log.info({ checkoutId, superseded: superseded.orderIds }, 'unpaid orders superseded by a new checkout');
      await closePages(superseded.closedPages, log);
      const lines = orders.map((order, index) => pageLine(order.id, charged[index] as ChargedLine));
      const url = await openPage(user, customerRef, checkoutId, lines, 'cart', log);
      return { checkoutId, orderIds: orders.map((order) => order.id), url };
    }

    /**
     * A payment page for exactly one unpaid order (awaiting payment, or declined): its amount, on a
     * checkout of its own; the page it was on closes. The order's configuration is priced again
     * and must cost what the order says.
     */
    async function payOrder(user: PaymentUser, orderId: string, log: FastifyBaseLogger): Promise<OrderPayment> {
      if (mode === 'none') throw new HttpError(503, PAYMENTS_UNAVAILABLE);
      const opened = await fastify.orders.checkoutForOrder(user.id, orderId);
      if (!opened.ok) throw new HttpError(opened.status, opened.message);
      if (opened.reuse) return { url: opened.reuse, checkoutId: opened.checkoutId };
      await closePages(opened.closedPages, log);
      const { order } = opened;
      const item = {
        productId: order.product_id,
        ...(order.domains !== null ? { domains: order.domains } : {}),
        ...(order.years !== null ? { years: order.years } : {}),
        ...(order.logos !== null ? { logos: order.logos } : {}),
        ...(order.email_volume !== null ? { emailVolume: order.email_volume } : {}),
        ...(order.billing_period !== null ? { billingPeriod: order.billing_period } : {}),
        quantity: order.copies,
      } as CheckoutRequest['items'][number];
      let priced;
      try {
        priced = await priceItems([item], log);
      } catch (error) {
        await closeWithoutPaymentPage(opened.checkoutId);
        throw error;
      }
      const [line] = priced.charged;
      if (!line || line.amount !== order.amount) {
        await closeWithoutPaymentPage(opened.checkoutId);
        throw new HttpError(409, 'The price of this order changed since it was ordered: cancel it and buy it again from the store.');
      }
      const customerRef = await customerOf(user);
      const url = await openPage(user, customerRef, opened.checkoutId, [pageLine(order.id, line)], 'order', log);
      return { url, checkoutId: opened.checkoutId };
    }

    /** The buyer cancels an unpaid order; its page closes at the provider. */
    async function cancelOrder(user: PaymentUser, orderId: string, log: FastifyBaseLogger): Promise<void> {
      const cancelled = await fastify.orders.cancelUnpaid(user.id, orderId);
      if (!cancelled.ok) throw new HttpError(cancelled.status, cancelled.message);
      await closePages(cancelled.closedPages, log);
    }

    /**
     * The orders exist but no page to pay them: the checkout closes as failed, in words the buyer
     * reads on the order, the same way a failed payment closes it. Once per checkout (the event id).
     */
    async function closeWithoutPaymentPage(checkoutId: string) {
      await fastify.orders.applyPaymentEvent({
        eventId: `local-open-failed-${checkoutId}`,
        occurredAt: fastify.now(),
        kind: 'checkout.failed',
        checkoutId,
        checkoutRef: '',
        failureMessage: PAYMENT_PAGE_NOT_OPENED,
      });
    }

    /**
     * Closes checkouts left without a payment page for CHECKOUT_PAGE_GRACE_MS: their process stopped
     * (a replica killed, a deploy) after storing the orders and before the page was attached, so the
     * buyer never reached it and paid on a new checkout. Otherwise their orders would wait, unpaid
     * and open, for good. Every replica may run it: a checkout closes once.
     */
    async function closeCheckoutsWithoutPaymentPage(): Promise<string[]> {
      const ids = await fastify.orders.checkoutsWithoutPaymentPage(fastify.now() - CHECKOUT_PAGE_GRACE_MS, 500);
      for (const id of ids) await closeWithoutPaymentPage(id);
      return ids;
    }

    /**
     * A declined try can be paid again from its order for DECLINED_TRY_KEPT_MS (as long as a payment
     * page lives); then it is closed (cancelled), so unpaid tries do not pile up. Once per checkout.
     */
    async function closeDeclinedTries(): Promise<string[]> {
      const ids = await fastify.orders.failedCheckoutsBefore(fastify.now() - DECLINED_TRY_KEPT_MS, 500);
      for (const checkoutId of ids) {
        await fastify.orders.applyPaymentEvent({
          eventId: `local-declined-expired-${checkoutId}`,
          occurredAt: fastify.now(),
          kind: 'checkout.expired',
          checkoutId,
          checkoutRef: '',
          failureMessage: null,
        });
      }
      return ids;
    }

    fastify.decorate('payments', {
      provider,
      mode,
      stripe,
      test,
      startCheckout,
      payOrder,
      cancelOrder,
      customerOf,
      returnBase,
      priceLog,
      closeCheckoutsWithoutPaymentPage,
      closeDeclinedTries,
    });
  },
  { name: 'payments', dependencies: ['db', 'clock', 'organizations', 'contacts', 'orders', 'payment-customers'] },
);
