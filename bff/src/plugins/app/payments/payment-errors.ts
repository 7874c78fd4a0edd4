import { orderNumber } from '../../../services/orders/order-rows';
import type { DuplicateOf } from '../orders/order-actions';

export const PAYMENTS_UNAVAILABLE = 'Card payments are not available right now. Please contact us.';
export const PAYMENT_PAGE_UNAVAILABLE = 'We could not open the payment page: the payment provider did not answer. Nothing was charged; please try again in a moment.';
/** On an order whose checkout never got its payment page. */
export const PAYMENT_PAGE_NOT_OPENED = 'The payment page could not be opened. Nothing was charged.';

export const CHECKOUT_REPLACED = 'This checkout was replaced by a newer one while its payment page opened, so nothing was charged: pay from the newer one.';
export const PAYMENT_BEING_CONFIRMED = 'Your last payment went through and is being confirmed: your orders show as paid in a moment, so no new payment was started.';

/** A page the new one would replace was paid meanwhile: a second page would charge again (409). */
export class PaymentBeingConfirmedError extends Error {
  override name = 'PaymentBeingConfirmedError';
  constructor() {
    super(PAYMENT_BEING_CONFIRMED);
  }
}

/** The provider failed to open the payment page (after the SDK's retries); the checkout is marked failed. */
export class PaymentPageUnavailableError extends Error {
  override name = 'PaymentPageUnavailableError';
  constructor(readonly checkoutId: string) {
    super(PAYMENT_PAGE_UNAVAILABLE);
  }
}

/**
 * Lines of the checkout the buyer has bought already (409 unless confirmed): a certificate identical
 * to one active or pending, or the same configuration paid in the last 24 hours (an order paid
 * alone from its page while the cart still held it).
 */
export class DuplicatePurchaseError extends Error {
  override name = 'DuplicatePurchaseError';
  constructor(readonly duplicates: DuplicateOf[]) {
    const numbers = [...new Set(duplicates.map((duplicate) => orderNumber(duplicate.number)))].join(', ');
    const one = duplicates.length === 1;
    super(
      duplicates.every((duplicate) => duplicate.kind === 'certificate')
        ? `You already have ${one ? 'this certificate' : 'these certificates'} for the same domains (order ${numbers}). Buying again charges again: confirm to buy ${one ? 'it' : 'them'} anyway.`
        : `You paid for ${one ? 'this' : 'these'} in the last 24 hours (order ${numbers}). Buying again charges again: confirm to buy ${one ? 'it' : 'them'} anyway.`,
    );
  }
}
