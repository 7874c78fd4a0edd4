import { ONE_ORDER_PAYMENT_PARAM } from '@bimi/contracts/api-paths';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ChargedLine } from '../../../services/payments/price-check';
import type { PaymentProvider, PaymentUser, ProviderCheckoutLine } from '../../../services/payments/provider';
import type { ClosedPage } from '../orders/order-actions';
import { CHECKOUT_REPLACED, PAYMENT_PAGE_NOT_OPENED, PaymentBeingConfirmedError, PaymentPageUnavailableError } from './payment-errors';
import { HttpError } from '../../../lib/http-error';

/** A checkout gets its payment page within seconds; one without it this long never will. */
export const CHECKOUT_PAGE_GRACE_MS = 15 * 60 * 1000;
/** How long a declined try can be paid again from its order before it is cancelled: as long as a payment page lives. */
export const DECLINED_TRY_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * The provider's payment pages of stored checkouts: opening one, closing those whose checkout no
 * longer charges what they show, and closing as failed a checkout that never got its page (at
 * once when the provider did not open it, or by the checkout-sweep job when its process stopped).
 * `returnBase`: where the buyer comes back to, the site's address for Stripe, '' (a path) for the
 * test pages; `byPriceId`: whether the provider charges a line by its price identifier (Stripe).
 */
export function paymentPages(fastify: FastifyInstance, provider: PaymentProvider, { returnBase, byPriceId }: { returnBase: string; byPriceId: boolean }) {
  /** One order's line on its payment page, as charged (Stripe charges by its price identifier). */
  const pageLine = (orderId: string, line: ChargedLine): ProviderCheckoutLine => ({
    orderId,
    priceId: byPriceId ? line.priceId : null,
    quantity: line.quantity,
    amount: line.amount,
    interval: line.interval,
    intervalCount: line.intervalCount,
    description: line.description,
  });

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
   * Closes the open pages a new page is about to replace, before anything changes: a page paid
   * meanwhile (its payment not confirmed yet) refuses the new one, which would charge again
   * (PaymentBeingConfirmedError); a provider that does not answer refuses it as unavailable. Every
   * page is asked first and closed after, so a refusal closes none of them (a page closed whose
   * checkout stays open would be a page its order's Pay goes back to, which takes no card). A page
   * closed here can no longer be paid, so the orders it held can move to the new page. Answers the
   * session refs it closed.
   */
  async function closeReplacedPages(pages: ClosedPage[], log: FastifyBaseLogger): Promise<Set<string>> {
    const ours = pages.filter((page) => !page.provider || page.provider === provider.name);
    for (const page of ours) await refuseIfPaid(page, log);
    const closedRefs = new Set<string>();
    for (const page of ours) {
      // Paid in the moment since it was asked: refused all the same.
      if ((await askProvider(page, log, () => provider.closeCheckout(page.sessionRef))) === 'paid') throw new PaymentBeingConfirmedError();
      closedRefs.add(page.sessionRef);
    }
    return closedRefs;
  }

  /** Refuses a new page while `page` is paid and its payment not yet confirmed (PaymentBeingConfirmedError). */
  async function refuseIfPaid(page: ClosedPage, log: FastifyBaseLogger) {
    if (page.provider && page.provider !== provider.name) return;
    if ((await askProvider(page, log, () => provider.pageStatus(page.sessionRef))) === 'paid') throw new PaymentBeingConfirmedError();
  }

  /** A provider call about a page a new one replaces; a provider that does not answer refuses the new page as unavailable. */
  async function askProvider<T>(page: ClosedPage, log: FastifyBaseLogger, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      log.error({ err: error, checkoutId: page.checkoutId }, 'the payment provider did not answer for the payment page a new one replaces');
      throw new PaymentPageUnavailableError(page.checkoutId);
    }
  }

  /** Closes payment pages at the provider once their checkout no longer charges what they show, but those in `closedAlready` (logged when the provider fails: a payment there is still recorded). */
  async function closePages(pages: ClosedPage[], log: FastifyBaseLogger, closedAlready: ReadonlySet<string> = new Set()) {
    for (const page of pages) {
      if ((page.provider && page.provider !== provider.name) || closedAlready.has(page.sessionRef)) continue;
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
    // Back from a page for one order already placed, the buyer goes back to that order, not to the cart.
    const oneOrder = paying === 'order' ? `&${ONE_ORDER_PAYMENT_PARAM}=1` : '';
    let session: { ref: string; url: string };
    try {
      session = await provider.createCheckout({
        checkoutId,
        user,
        customerRef,
        lines,
        successUrl: `${returnBase}/checkout/success?checkout=${encodeURIComponent(checkoutId)}${oneOrder}`,
        cancelUrl: `${returnBase}/checkout/cancel?checkout=${encodeURIComponent(checkoutId)}${oneOrder}`,
        // One order attempt: the SDK repeats it on every retry of the call, so Stripe makes one session.
        idempotencyKey: `checkout-${checkoutId}`,
      });
    } catch (error) {
      log.error({ err: error, checkoutId }, 'the payment provider did not open a payment page');
      await closeWithoutPaymentPage(checkoutId);
      throw new PaymentPageUnavailableError(checkoutId);
    }
    if (!(await fastify.orders.attachProviderSession(checkoutId, session.ref, session.url))) {
      // Replaced (a checkout in another tab, the order paid alone) while its page opened: the page
      // would charge for orders that are no longer its own.
      await provider
        .closeCheckout(session.ref)
        .catch((error: unknown) => log.error({ err: error, checkoutId }, 'the payment provider did not close a payment page opened for a replaced checkout'));
      throw new HttpError(409, CHECKOUT_REPLACED);
    }
    return session.url;
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
    const tries = await fastify.orders.failedCheckoutsBefore(fastify.now() - DECLINED_TRY_KEPT_MS, 500);
    for (const { checkoutId, page } of tries) {
      await fastify.orders.applyPaymentEvent({
        eventId: `local-declined-expired-${checkoutId}`,
        occurredAt: fastify.now(),
        kind: 'checkout.expired',
        checkoutId,
        checkoutRef: '',
        failureMessage: null,
      });
      // Its declined page closes too: opened again, it says it can no longer be used.
      if (page) await closePages([page], fastify.log);
    }
    return tries.map((declined) => declined.checkoutId);
  }

  return { pageLine, openPage, refuseIfPaid, closeReplacedPages, closePages, closeWithoutPaymentPage, closeCheckoutsWithoutPaymentPage, closeDeclinedTries };
}
