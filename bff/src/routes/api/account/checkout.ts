import { ApiError } from '@bimi/contracts/api-error';
import { CheckoutConflict, CheckoutRequest, CheckoutStarted, CheckoutState, DUPLICATE_CERTIFICATE_CODE, ORDER_PATHS, PAYMENT_BEING_CONFIRMED_CODE } from '@bimi/contracts/orders';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../../lib/http-error';
import { DuplicatePurchaseError, PAYMENTS_UNAVAILABLE, PaymentBeingConfirmedError, PaymentPageUnavailableError } from '../../../plugins/app/payments/payments';
import { orderNumber } from '../../../services/orders/order-rows';
import { currentUser } from './current-user';

const CheckoutParams = z.object({ checkoutId: z.string().min(1).max(64) });
const NOT_FOUND = 'Checkout not found';

/**
 * POST /api/account/checkout: the cart's items priced by the catalog (never by the browser), its
 * orders stored, and the provider's payment page to go to. GET …/:checkoutId: the checkout's state,
 * which the success page polls until the payment is confirmed; another user's answers 404.
 */
const checkout: FastifyPluginAsyncZod = async (fastify) => {
  fastify.post(
    ORDER_PATHS.checkout,
    {
      schema: { body: CheckoutRequest, response: { 201: CheckoutStarted, 400: ApiError, 409: CheckoutConflict, 429: ApiError, 502: ApiError, 503: ApiError } },
      // Details carry up to 250 domains and a 32 KB logo per certificate line.
      bodyLimit: 1024 * 1024,
      // Per buyer, not per address: many buyers share an office's (or the e2e run's) address.
      config: { rateLimit: { max: 30, timeWindow: '10 minutes', keyGenerator: (request) => request.sessionUser?.id ?? request.ip } },
    },
    async (request, reply) => {
      // A 5xx message would be replaced by the error handler's; this one the buyer must read.
      if (fastify.payments.mode === 'none') return reply.code(503).send({ message: PAYMENTS_UNAVAILABLE });
      let started;
      try {
        started = await fastify.payments.startCheckout(currentUser(request), request.body, request.log);
      } catch (error) {
        if (error instanceof PaymentPageUnavailableError) return reply.code(502).send({ message: error.message });
        if (error instanceof PaymentBeingConfirmedError) return reply.code(409).send({ message: error.message, code: PAYMENT_BEING_CONFIRMED_CODE });
        if (error instanceof DuplicatePurchaseError) {
          const duplicates = error.duplicates.map((duplicate) => ({ item: duplicate.item, orderId: duplicate.orderId, orderNumber: orderNumber(duplicate.number) }));
          return reply.code(409).send({ message: error.message, code: DUPLICATE_CERTIFICATE_CODE, duplicates });
        }
        throw error;
      }
      request.log.info({ checkoutId: started.checkoutId, orders: started.orderIds.length, provider: fastify.payments.provider.name }, 'checkout started');
      return reply.code(201).send(started);
    },
  );

  fastify.get(`${ORDER_PATHS.checkout}/:checkoutId`, { schema: { params: CheckoutParams, response: { 200: CheckoutState, 404: ApiError } } }, async (request) => {
    const state = await fastify.orders.checkoutState(currentUser(request).id, request.params.checkoutId);
    if (!state) throw new HttpError(404, NOT_FOUND);
    return state;
  });
};

export default checkout;
