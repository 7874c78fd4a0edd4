import { CartQuote, CartQuoteRequest } from '@bimi/contracts/cart-quote';
import { ApiError } from '@bimi/contracts/api-error';
import { SITE_API_PATHS } from '@bimi/contracts/api-paths';
import { QuoteError, quoteCart } from '@bimi/catalog/quote';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * POST /api/cart/quote: what a cart costs, priced on the server from each line's configuration
 * (never from an amount the browser sends), with the price identifier checkout will charge.
 */
const cart: FastifyPluginAsyncZod = async (fastify) => {
  fastify.post(SITE_API_PATHS.cartQuote, { schema: { body: CartQuoteRequest, response: { 200: CartQuote, 400: ApiError } }, bodyLimit: 32 * 1024 }, async (request, reply) => {
    try {
      // Logged once per identifier by the payments plugin (an error only when Stripe charges).
      return quoteCart(request.body.items, fastify.config.priceSettings, fastify.payments.priceLog);
    } catch (error) {
      if (error instanceof QuoteError) return reply.code(400).send({ message: error.message });
      throw error;
    }
  });
};

export default cart;
