import { logoLabel } from '@bimi/catalog/labels';
import type { CheckoutRequest, CheckoutStarted, OrderPayment } from '@bimi/contracts/orders';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { paymentProviderName, publicBaseUrl } from '../../../config';
import { HttpError } from '../../../lib/http-error';
import { checkCertificateDetails } from '../../../services/orders/certificate-details';
import type { ChargedLine } from '../../../services/payments/price-check';
import type { PaymentProvider, PaymentUser } from '../../../services/payments/provider';
import { orderLinesFromQuote } from '../../../services/orders/order-rows';
import { checkoutPricing } from './checkout-pricing';
import { DuplicatePurchaseError, PAYMENTS_UNAVAILABLE } from './payment-errors';
import { paymentPages } from './payment-pages';
import { chooseProvider, logPaymentSettings, priceLogFor, type PaymentMode } from './provider-choice';
import type { StripeProvider } from './stripe-provider';
import type { TestProvider } from './test-provider';

export { DuplicatePurchaseError, PAYMENT_PAGE_NOT_OPENED, PAYMENT_PAGE_UNAVAILABLE, PAYMENTS_UNAVAILABLE, PaymentBeingConfirmedError, PaymentPageUnavailableError } from './payment-errors';
export { CHECKOUT_PAGE_GRACE_MS, DECLINED_TRY_KEPT_MS } from './payment-pages';

/** Orders one buyer may place in 24 hours: ten full carts. */
export const ORDERS_PER_DAY = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface Payments {
  /** The provider every charge goes through. */
  provider: PaymentProvider;
  /** Which one runs: Stripe, the built-in test payments, or none (production without a key). */
  mode: PaymentMode;
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

/**
 * Payments: the provider by mode (provider-choice.ts), the catalog's prices checked as the provider
 * charges them (checkout-pricing.ts), the provider's payment pages (payment-pages.ts), and here the
 * three things a buyer does: check out a cart, pay one unpaid order, cancel one. The periodic work
 * is in payment-jobs.ts.
 */
export default fp(
  async function payments(fastify) {
    const { config } = fastify;
    const mode = paymentProviderName(config);
    // Where the buyer comes back to: absolute for Stripe; a path on the site for the test pages.
    const returnBase = mode === 'stripe' ? publicBaseUrl(config) : '';
    const { provider, stripe, test } = chooseProvider(fastify, mode);
    logPaymentSettings(fastify, mode);
    const priceLog = priceLogFor(fastify, mode);
    const priceItems = checkoutPricing(config, stripe, priceLog);
    const pages = paymentPages(fastify, provider, { returnBase, byPriceId: stripe !== null });
    const { pageLine, openPage, refuseIfPaid, closeReplacedPages, closePages, closeWithoutPaymentPage } = pages;
    const customerOf = (user: PaymentUser) => fastify.paymentCustomers.findOrCreate(user, (who) => provider.createCustomer(who));

    async function startCheckout(user: PaymentUser, request: CheckoutRequest, log: FastifyBaseLogger): Promise<CheckoutStarted> {
      if (mode === 'none') throw new HttpError(503, PAYMENTS_UNAVAILABLE);
      // Each try keeps its orders (the buyer's history), and every order is in the buyer's list: a day's
      // orders are bounded, so no account can grow its list until reading it stalls the server.
      const placed = await fastify.orders.countPlacedSince(user.id, fastify.now() - DAY_MS);
      if (placed + request.items.length > ORDERS_PER_DAY) {
        throw new HttpError(
          429,
          `You started ${placed} orders in the last 24 hours, and we take at most ${ORDERS_PER_DAY} a day online. Pay the ones you started from your orders, or talk to sales for a larger purchase.`,
        );
      }
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
        const certificates = await fastify.orders.identicalCertificates(
          user.id,
          request.items.map((item) => ({ productId: item.productId, domains: item.details?.domains })),
        );
        const recent = await fastify.orders.recentlyPaidSame(user.id, orderLines, fastify.now() - DAY_MS);
        const duplicates = [...certificates, ...recent.filter((duplicate) => !certificates.some((certificate) => certificate.item === duplicate.item))];
        if (duplicates.length > 0) throw new DuplicatePurchaseError(duplicates);
      }

      // The tries this checkout supersedes: their pages close first, and one paid meanwhile stops it.
      const closedRefs = await closeReplacedPages(await fastify.orders.openPagesOfUnpaid(user.id), log);
      const customerRef = await customerOf(user);
      const { checkoutId, orders } = await fastify.orders.createCheckout({ userId: user.id, lines: orderLines });
      // One cart, one purchase: the buyer's unpaid tries before this one are superseded and their pages closed.
      const superseded = await fastify.orders.supersedeUnpaid(user.id, checkoutId);
      if (superseded.orderIds.length > 0) log.info({ checkoutId, superseded: superseded.orderIds }, 'unpaid orders superseded by a new checkout');
      // Those closed above need no second call; a page attached meanwhile does.
      await closePages(superseded.closedPages, log, closedRefs);
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
      // The order's own page, paid and not yet confirmed, stops it (a second page would charge again);
      // any other page it is on (the cart's, alone or with other orders) closes first, before the order moves.
      const current = await fastify.orders.openPageOf(user.id, orderId);
      if (current?.reusable) await refuseIfPaid(current.page, log);
      const closedRefs = await closeReplacedPages(current && !current.reusable ? [current.page] : [], log);
      const opened = await fastify.orders.checkoutForOrder(user.id, orderId);
      if (!opened.ok) throw new HttpError(opened.status, opened.message);
      if (opened.reuse) return { url: opened.reuse, checkoutId: opened.checkoutId };
      await closePages(opened.closedPages, log, closedRefs);
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
      closeCheckoutsWithoutPaymentPage: pages.closeCheckoutsWithoutPaymentPage,
      closeDeclinedTries: pages.closeDeclinedTries,
    } satisfies Payments);
  },
  { name: 'payments', dependencies: ['db', 'clock', 'organizations', 'contacts', 'orders', 'payment-customers'] },
);
