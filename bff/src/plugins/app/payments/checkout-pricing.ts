import { QuoteError, overChargeLimitMessage, quoteCart, type CartQuote } from '@bimi/catalog/quote';
import type { CheckoutRequest } from '@bimi/contracts/orders';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../config';
import { HttpError } from '../../../lib/http-error';
import { PriceCheck, PriceCheckError, UnbuyableLineError, chargedLine, type ChargedLine } from '../../../services/payments/price-check';
import type { StripeProvider } from './stripe-provider';

/** Lines one Stripe checkout can name: 50 metadata keys, less checkout_id and user_id. */
const STRIPE_MAX_LINES = 48;

/** The items of a checkout, priced by the catalog and as the provider charges them. */
export interface PricedItems {
  quote: CartQuote;
  charged: ChargedLine[];
}

/**
 * Stripe's own rules for one checkout's lines (400 otherwise). A subscription holds each price
 * once, so lines at one price share one item with the summed quantity (stripe-provider
 * createCheckout); two lines at one DMARC plan, whose volume tiers price the summed volume, are
 * refused by the quote already (quoteCart). Stripe keeps at most 50 metadata keys on the session
 * and the subscription: checkout_id, user_id and one order_N per line.
 */
function checkStripeLines(charged: readonly ChargedLine[]): void {
  if (charged.length > STRIPE_MAX_LINES) {
    throw new HttpError(400, `items: a checkout takes at most ${STRIPE_MAX_LINES} items; pay for the others in a second checkout`);
  }
}

/** The catalog's quote of the items, each line as charged (400 for a line that cannot be bought, or a total over the one-charge limit). */
function quoteItems(items: CheckoutRequest['items'], priceSettings: Config['priceSettings'], priceLog: { error(message: string): void }): PricedItems {
  let quote;
  try {
    quote = quoteCart(items, priceSettings, priceLog);
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
  return { quote, charged };
}

/**
 * Prices a checkout's items from the catalog and checks them as the provider will charge them: with
 * Stripe, its line rules and each price identifier's amount against the catalog (a mismatch is
 * logged and refused with 400).
 */
export function checkoutPricing(config: Config, stripe: StripeProvider | null, priceLog: { error(message: string): void }) {
  const priceCheck = stripe ? new PriceCheck((priceId) => stripe.priceFacts(priceId)) : null;
  return async function priceItems(items: CheckoutRequest['items'], log: FastifyBaseLogger): Promise<PricedItems> {
    const priced = quoteItems(items, config.priceSettings, priceLog);
    if (priceCheck) {
      checkStripeLines(priced.charged);
      try {
        await priceCheck.check(priced.charged);
      } catch (error) {
        if (error instanceof PriceCheckError) {
          log.error({ problems: error.problems }, 'checkout refused: a Stripe price does not match the catalog');
          throw new HttpError(400, error.message);
        }
        throw error;
      }
    }
    return priced;
  };
}
