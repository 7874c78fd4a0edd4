import { logoLabel } from '@bimi/catalog/labels';
import { QuoteError, overChargeLimitMessage, quoteCart } from '@bimi/catalog/quote';
import { PRICE_SETTING_NAMES } from '@bimi/catalog/price-ids';
import type { CheckoutRequest, CheckoutStarted } from '@bimi/contracts/orders';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { paymentProviderName, publicBaseUrl } from '../../config';
import { HttpError } from '../../lib/http-error';
import { checkCertificateDetails } from '../../services/orders/certificate-details';
import { PriceCheck, PriceCheckError, UnbuyableLineError, chargedLine, type ChargedLine } from '../../services/payments/price-check';
import type { PaymentProvider, PaymentUser } from '../../services/payments/provider';
import { StripeProvider } from '../../services/payments/stripe-provider';
import { type TestCardStore, type TestSession, type TestSessionStore, type TestSetupStore, type TestSubscription, TestProvider } from '../../services/payments/test-provider';
import type { Kysely } from 'kysely';
import type { StoreDatabase } from '../../db/schema';
import { orderLinesFromQuote } from './orders';

/** Lines one Stripe checkout can name: 50 metadata keys, less checkout_id and user_id. */
const STRIPE_MAX_LINES = 48;

export const PAYMENTS_UNAVAILABLE = 'Card payments are not available right now. Please contact us.';
export const PAYMENT_PAGE_UNAVAILABLE = 'We could not open the payment page: the payment provider did not answer. Nothing was charged; please try again in a moment.';

/** The provider failed to open the payment page (after the SDK's retries); the checkout is marked failed. */
/** On an order whose checkout never got its payment page. */
export const PAYMENT_PAGE_NOT_OPENED = 'The payment page could not be opened. Nothing was charged.';
/** A checkout gets its payment page within seconds; one without it this long never will. */
export const CHECKOUT_PAGE_GRACE_MS = 15 * 60 * 1000;
const CHECKOUT_SWEEP_INTERVAL_MS = 5 * 60 * 1000;

export class PaymentPageUnavailableError extends Error {
  override name = 'PaymentPageUnavailableError';
  constructor(readonly checkoutId: string) {
    super(PAYMENT_PAGE_UNAVAILABLE);
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
  /** The user's provider customer, created on first use. */
  customerOf(user: PaymentUser): Promise<string>;
  /** Closes (as failed) checkouts left without a payment page; every 5 minutes, and at start. Answers their ids. */
  closeCheckoutsWithoutPaymentPage(): Promise<string[]>;
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

/** Saved test cards in the test_payment_methods table: they outlive a restart, as Stripe's do. */
function testCardStore(db: Kysely<StoreDatabase>, now: () => number): TestCardStore {
  const list = async (customerRef: string) =>
    (await db.selectFrom('test_payment_methods').selectAll().where('customer_ref', '=', customerRef).orderBy('created_at').orderBy('id').execute()).map((row) => ({
      ref: row.id,
      brand: row.brand,
      last4: row.last4,
      expMonth: row.exp_month,
      expYear: row.exp_year,
      isDefault: row.is_default === 1,
    }));
  return {
    list,
    async add(customerRef, card) {
      await db.transaction().execute(async (trx) => {
        const hasDefault = await trx.selectFrom('test_payment_methods').select('id').where('customer_ref', '=', customerRef).where('is_default', '=', 1).executeTakeFirst();
        await trx
          .insertInto('test_payment_methods')
          .values({
            id: card.ref,
            customer_ref: customerRef,
            brand: card.brand,
            last4: card.last4,
            exp_month: card.expMonth,
            exp_year: card.expYear,
            is_default: hasDefault ? 0 : 1,
            created_at: new Date(now()).toISOString(),
          })
          .execute();
      });
    },
    async setDefault(customerRef, ref) {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('test_payment_methods').set({ is_default: 0 }).where('customer_ref', '=', customerRef).execute();
        await trx.updateTable('test_payment_methods').set({ is_default: 1 }).where('customer_ref', '=', customerRef).where('id', '=', ref).execute();
      });
    },
    async remove(customerRef, ref) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('test_payment_methods').where('customer_ref', '=', customerRef).where('id', '=', ref).execute();
        const oldest = await trx.selectFrom('test_payment_methods').select(['id', 'is_default']).where('customer_ref', '=', customerRef).orderBy('created_at').orderBy('id').execute();
        if (oldest.length > 0 && !oldest.some((row) => row.is_default === 1)) {
          await trx
            .updateTable('test_payment_methods')
            .set({ is_default: 1 })
            .where('id', '=', oldest[0]?.id ?? '')
            .execute();
        }
      });
    },
  };
}

/** Test payment pages in the test_payment_sessions table (migration 0009): they outlive a restart. */
function testSessionStore(db: Kysely<StoreDatabase>): TestSessionStore {
  return {
    async add(session, expiresAt) {
      await db
        .insertInto('test_payment_sessions')
        .values({
          ref: session.ref,
          checkout_id: session.checkout.checkoutId,
          user_id: session.checkout.user.id,
          form_token: session.formToken,
          status: session.status,
          checkout: JSON.stringify(session.checkout),
          created_at: new Date(session.createdAt).toISOString(),
          expires_at: new Date(expiresAt).toISOString(),
        })
        .execute();
    },
    async get(ref) {
      const row = await db.selectFrom('test_payment_sessions').selectAll().where('ref', '=', ref).executeTakeFirst();
      if (!row) return undefined;
      const session: TestSession = {
        ref: row.ref,
        checkout: JSON.parse(row.checkout) as TestSession['checkout'],
        formToken: row.form_token,
        status: row.status,
        createdAt: Date.parse(row.created_at),
      };
      return session;
    },
    async move(ref, from, to) {
      const result = await db.updateTable('test_payment_sessions').set({ status: to }).where('ref', '=', ref).where('status', '=', from).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async openEndedBy(at, limit) {
      const rows = await db
        .selectFrom('test_payment_sessions')
        .select(['ref', 'checkout_id'])
        .where('status', '=', 'open')
        .where('expires_at', '<=', new Date(at).toISOString())
        .orderBy('expires_at')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ ref: row.ref, checkoutId: row.checkout_id }));
    },
    async forgetClosedEndedBefore(at) {
      const result = await db.deleteFrom('test_payment_sessions').where('status', '!=', 'open').where('expires_at', '<=', new Date(at).toISOString()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** Add-a-card pages in the test_payment_setups table (migration 0010): any bff replica serves and takes them. */
function testSetupStore(db: Kysely<StoreDatabase>, now: () => number): TestSetupStore {
  return {
    async add(setup, expiresAt) {
      await db
        .insertInto('test_payment_setups')
        .values({
          ref: setup.ref,
          customer_ref: setup.customerRef,
          return_url: setup.returnUrl,
          form_token: setup.formToken,
          created_at: new Date(now()).toISOString(),
          expires_at: new Date(expiresAt).toISOString(),
        })
        .execute();
    },
    async get(ref, at) {
      const row = await db.selectFrom('test_payment_setups').selectAll().where('ref', '=', ref).where('expires_at', '>', new Date(at).toISOString()).executeTakeFirst();
      return row && { ref: row.ref, customerRef: row.customer_ref, returnUrl: row.return_url, formToken: row.form_token };
    },
    async take(ref) {
      const result = await db.deleteFrom('test_payment_setups').where('ref', '=', ref).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
    async forgetEndedBy(at) {
      const result = await db.deleteFrom('test_payment_setups').where('expires_at', '<=', new Date(at).toISOString()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** A test subscription read from the orders it charges: the one record every bff replica shares. */
async function testSubscriptionFromOrders(db: Kysely<StoreDatabase>, subscriptionRef: string): Promise<TestSubscription | undefined> {
  const rows = await db
    .selectFrom('orders')
    .leftJoin('payment_customers', (join) => join.onRef('payment_customers.user_id', '=', 'orders.user_id').on('payment_customers.provider', '=', 'test'))
    .select(['orders.id', 'orders.item_ref', 'orders.current_period_end', 'orders.renews', 'payment_customers.customer_ref'])
    .where('orders.subscription_ref', '=', subscriptionRef)
    .where('orders.ended_at', 'is', null)
    .orderBy('orders.number')
    .execute();
  if (rows.length === 0) return undefined;
  const items = rows.map((row) => ({
    itemRef: row.item_ref ?? row.id,
    orderId: row.id,
    currentPeriodEnd: row.current_period_end ? Date.parse(row.current_period_end) : 0,
    renews: row.renews === 1,
  }));
  return { ref: subscriptionRef, customerRef: rows[0]?.customer_ref ?? '', cancelAtPeriodEnd: items.length === 1 && !items[0]?.renews, items };
}

export default fp(
  async function payments(fastify) {
    const { config } = fastify;
    const mode = paymentProviderName(config);
    const baseUrl = publicBaseUrl(config);
    // Where the buyer comes back to: absolute for Stripe; a path on the site for the test pages.
    const returnBase = mode === 'stripe' ? baseUrl : '';

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
        sessions: testSessionStore(fastify.db),
        setups: testSetupStore(fastify.db, fastify.now),
        loadSubscription: (ref) => testSubscriptionFromOrders(fastify.db, ref),
      });
      provider = test;
    } else {
      provider = unavailableProvider();
    }
    const priceCheck = stripe ? new PriceCheck((priceId) => (stripe as StripeProvider).priceFacts(priceId)) : null;

    // Spec §8: which provider runs, and every price it cannot charge, in the log at start.
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

    async function startCheckout(user: PaymentUser, request: CheckoutRequest, log: FastifyBaseLogger): Promise<CheckoutStarted> {
      if (mode === 'none') throw new HttpError(503, PAYMENTS_UNAVAILABLE);
      let quote;
      try {
        quote = quoteCart(request.items, config.priceSettings, priceLog);
      } catch (error) {
        if (error instanceof QuoteError) throw new HttpError(400, error.message);
        throw error;
      }
      // Above the provider's one-charge limit nothing is stored: the checkout page offers sales instead.
      if (!quote.payable) throw new HttpError(400, overChargeLimitMessage(quote.total));
      const charged: ChargedLine[] = request.items.map((item, index) => {
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

      const orderLines = orderLinesFromQuote(request.items, quote);
      for (const [index, item] of request.items.entries()) {
        const line = orderLines[index];
        // "Logo 2 of 3" on the order, its payment page line and so its receipt (issue 30, finding 8).
        const logo = item.logo && logoLabel(item.logo.index, item.logo.count);
        if (logo && line) [line.description, charged[index]!.description] = [`${line.description} · ${logo}`, `${charged[index]!.description} · ${logo}`];
        if (item.details && line)
          line.details = await checkCertificateDetails({ organizations: fastify.organizations, contacts: fastify.contacts }, user.id, item, item.details, `items[${index}].details`);
      }

      const customerRef = await customerOf(user);
      const { checkoutId, orders } = await fastify.orders.createCheckout({ userId: user.id, lines: orderLines });
      let session: { ref: string; url: string };
      try {
        session = await provider.createCheckout({
          checkoutId,
          user,
          customerRef,
          lines: orders.map((order, index) => {
            const line = charged[index] as ChargedLine;
            return {
              orderId: order.id,
              priceId: stripe ? line.priceId : null,
              quantity: line.quantity,
              amount: line.amount,
              interval: line.interval,
              intervalCount: line.intervalCount,
              description: line.description,
            };
          }),
          successUrl: `${returnBase}/checkout/success?checkout=${encodeURIComponent(checkoutId)}`,
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
      return { checkoutId, orderIds: orders.map((order) => order.id), url: session.url };
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

    fastify.decorate('payments', { provider, mode, stripe, test, startCheckout, customerOf, returnBase, priceLog, closeCheckoutsWithoutPaymentPage });

    /** Runs `task` once the bff is ready and every `everyMs` after, one run at a time; a run in progress finishes before the bff closes. */
    function repeat(task: () => Promise<void>, everyMs: number) {
      let current: Promise<void> | undefined;
      const run = () => {
        current ??= task().finally(() => {
          current = undefined;
        });
      };
      let timer: NodeJS.Timeout | undefined;
      fastify.addHook('onReady', async () => {
        run();
        timer = setInterval(run, everyMs);
        timer.unref();
      });
      fastify.addHook('onClose', async () => {
        clearInterval(timer);
        await current;
      });
    }

    repeat(
      () =>
        closeCheckoutsWithoutPaymentPage()
          .then((closed) => {
            if (closed.length > 0) fastify.log.warn({ checkouts: closed }, 'checkouts left without a payment page closed as failed');
          })
          .catch((error: unknown) => fastify.log.error({ err: error }, 'closing checkouts left without a payment page failed; it runs again in a few minutes')),
      CHECKOUT_SWEEP_INTERVAL_MS,
    );

    // The renewal job (bff/README.md, "Renewal off"): an order whose renewal is off, in a subscription
    // that goes on for other orders, leaves it during the last day of its period. Hourly; every
    // replica may run it, as removing an item already removed is refused by Stripe and logged.
    // Test payment pages left unpaid for 24 hours expire (checkout.expired), as Stripe's sessions do:
    // at start and hourly, by the bff's clock. Every process may run it: a page expires once.
    if (test) {
      const provider = test;
      repeat(
        () =>
          provider
            .expireOpenSessions()
            .then((expired) => {
              if (expired.length > 0) fastify.log.info({ sessions: expired }, 'test payments: unpaid payment pages expired');
            })
            .catch((error: unknown) => fastify.log.error({ err: error }, 'test payments: expiring payment pages failed; it runs again in an hour')),
        60 * 60 * 1000,
      );
    }

    if (stripe) {
      const provider = stripe;
      const run = () => {
        provider
          .endNonRenewingItems(fastify.now())
          .then((handled) => {
            if (handled.length > 0) fastify.log.info({ items: handled }, 'renewal job: items ended at their period end');
          })
          .catch((error: unknown) => fastify.log.error({ err: error }, 'renewal job failed; it runs again in an hour'));
      };
      const timer = setInterval(run, 60 * 60 * 1000);
      timer.unref();
      fastify.addHook('onClose', async () => clearInterval(timer));
    }
  },
  { name: 'payments', dependencies: ['db', 'clock', 'organizations', 'contacts', 'orders', 'payment-customers'] },
);
