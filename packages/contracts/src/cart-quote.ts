import * as z from 'zod/mini';
import { lengthLimit } from './length-limit';

/**
 * POST /api/cart/quote: the bff prices a cart from configurations alone; a client never sends
 * an amount. The rules (domains 1–250, years 1–3, email volumes …) are checked by
 * @bimi/catalog/quote, whose 400 message names the line: "items[1]: Unsupported email volume".
 */
export const CartQuoteLine = z.object({
  productId: z.string().check(z.minLength(1), lengthLimit(100)),
  domains: z.optional(z.int()),
  years: z.optional(z.int()),
  logos: z.optional(z.int()),
  emailVolume: z.optional(z.int()),
  billingPeriod: z.optional(z.enum(['monthly', 'annual'])),
  /** Copies of the line (the cart's quantity); default 1. */
  quantity: z.optional(z.int()),
});
export type CartQuoteLine = z.infer<typeof CartQuoteLine>;

export const CartQuoteRequest = z.object({
  items: z.array(CartQuoteLine).check(lengthLimit(100)),
});
export type CartQuoteRequest = z.infer<typeof CartQuoteRequest>;

export const CartQuote = z.object({
  currency: z.literal('usd'),
  items: z.array(
    z.object({
      productId: z.string(),
      /** One unit for its whole plan term, in integer cents. */
      unitAmount: z.int(),
      /** unitAmount × quantity, in integer cents. */
      amount: z.int(),
      quantity: z.int(),
      priceId: z.nullable(z.string()),
    }),
  ),
  /** Sum of the amounts, in integer cents. */
  total: z.int(),
  /** False above the payment provider's one-charge limit (@bimi/catalog/quote MAX_CHARGE_CENTS): checkout offers a talk with sales instead. */
  payable: z.boolean(),
});
export type CartQuote = z.infer<typeof CartQuote>;
