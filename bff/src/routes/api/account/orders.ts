import { RecordId } from '@bimi/contracts/account';
import { ApiError } from '@bimi/contracts/api-error';
import { CertificateDetails, ORDER_FILTERS, ORDER_PATHS, OrderDetail, OrderList, OrderPayment, PAYMENT_BEING_CONFIRMED_CODE, RenewalChange } from '@bimi/contracts/orders';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../../lib/http-error';
import { PAYMENTS_UNAVAILABLE, PaymentBeingConfirmedError, PaymentPageUnavailableError } from '../../../plugins/app/payments/payments';
import { checkCertificateDetails } from '../../../services/orders/certificate-details';
import { currentUser } from './current-user';
import { readableGet } from './readable';

const OrderParams = z.object({ orderId: RecordId });
const OrderQuery = z.object({ status: z.enum(ORDER_FILTERS).default('all') });
const NOT_FOUND = 'Order not found';
const PROVIDER_UNAVAILABLE = 'The payment provider could not change the renewal right now. Nothing was changed; please try again later.';

/**
 * The user's orders: the list with a status filter and the counts of every filter, one order in
 * detail, its certificate details (validation) and its renewal. Another user's order answers 404.
 */
const orders: FastifyPluginAsyncZod = async (fastify) => {
  readableGet(fastify, { url: ORDER_PATHS.orders, querystring: OrderQuery, response: OrderList, read: (user, { query }) => fastify.orders.list(user.id, query.status) });

  readableGet(
    fastify,
    {
      url: `${ORDER_PATHS.orders}/:orderId`,
      params: OrderParams,
      response: OrderDetail,
      read: async (user, { params }) => {
        const order = await fastify.orders.get(user.id, params.orderId);
        if (!order) throw new HttpError(404, NOT_FOUND);
        return order;
      },
    },
    { 404: ApiError },
  );

  fastify.put(
    `${ORDER_PATHS.orders}/:orderId/details`,
    // Up to 250 domains and a 32 KB logo, read in the untrusted-files worker threads: limited per user.
    {
      schema: { params: OrderParams, body: CertificateDetails, response: { 200: OrderDetail, 400: ApiError, 404: ApiError, 409: ApiError, 503: ApiError } },
      bodyLimit: 256 * 1024,
      config: { rateLimit: { max: 30, timeWindow: '10 minutes', keyGenerator: (request) => request.sessionUser?.id ?? request.ip } },
    },
    async (request) => {
      const userId = currentUser(request).id;
      const order = await fastify.orders.get(userId, request.params.orderId);
      if (!order) throw new HttpError(404, NOT_FOUND);
      if (order.status === 'cancelled' || order.status === 'expired') throw new HttpError(409, `This order is ${order.status}: its details can no longer change`);
      if (order.validationSteps.some((step) => step.step === 'issued' && step.state === 'done')) {
        throw new HttpError(409, 'The certificate is issued: its details can no longer change');
      }
      const line = await fastify.orders.row(order.id);
      const details = await checkCertificateDetails(
        { organizations: fastify.organizations, contacts: fastify.contacts, files: fastify.untrustedFiles },
        userId,
        { productId: order.productId, domains: line?.domains },
        request.body,
      );
      const updated = await fastify.orders.setDetails(userId, order.id, details);
      if (!updated) throw new HttpError(404, NOT_FOUND);
      return updated;
    },
  );

  // Cancel an unpaid order (awaiting payment or declined): its payment page stops working.
  fastify.post(`${ORDER_PATHS.orders}/:orderId/cancel`, { schema: { params: OrderParams, response: { 200: OrderDetail, 404: ApiError, 409: ApiError } } }, async (request) => {
    const user = currentUser(request);
    await fastify.payments.cancelOrder(user, request.params.orderId, request.log);
    request.log.info({ orderId: request.params.orderId }, 'unpaid order cancelled by the buyer');
    const order = await fastify.orders.get(user.id, request.params.orderId);
    if (!order) throw new HttpError(404, NOT_FOUND);
    return order;
  });

  // A payment page for exactly this unpaid order (its amount alone); the page it was on stops working.
  fastify.post(
    `${ORDER_PATHS.orders}/:orderId/pay`,
    {
      schema: { params: OrderParams, response: { 201: OrderPayment, 404: ApiError, 409: ApiError, 502: ApiError, 503: ApiError } },
      config: { rateLimit: { max: 30, timeWindow: '10 minutes', keyGenerator: (request) => request.sessionUser?.id ?? request.ip } },
    },
    async (request, reply) => {
      if (fastify.payments.mode === 'none') return reply.code(503).send({ message: PAYMENTS_UNAVAILABLE });
      try {
        const payment = await fastify.payments.payOrder(currentUser(request), request.params.orderId, request.log);
        request.log.info({ orderId: request.params.orderId, checkoutId: payment.checkoutId }, 'payment page opened for one order');
        return reply.code(201).send(payment);
      } catch (error) {
        if (error instanceof PaymentPageUnavailableError) return reply.code(502).send({ message: error.message });
        if (error instanceof PaymentBeingConfirmedError) return reply.code(409).send({ message: error.message, code: PAYMENT_BEING_CONFIRMED_CODE });
        throw error;
      }
    },
  );

  fastify.put(
    `${ORDER_PATHS.orders}/:orderId/renewal`,
    { schema: { params: OrderParams, body: RenewalChange, response: { 200: OrderDetail, 404: ApiError, 409: ApiError, 502: ApiError } } },
    async (request, reply) => {
      const userId = currentUser(request).id;
      const target = await fastify.orders.renewalTarget(userId, request.params.orderId);
      if (!target) throw new HttpError(404, NOT_FOUND);
      const order = await fastify.orders.get(userId, target.orderId);
      if (!order) throw new HttpError(404, NOT_FOUND);
      if (order.status === 'cancelled' || order.status === 'expired') throw new HttpError(409, `This order is ${order.status}: it no longer renews`);
      if (!target.subscriptionRef) throw new HttpError(409, 'This order is not paid yet: renewal can be changed once the payment is confirmed');
      if (target.renews !== request.body.renew) {
        try {
          await fastify.payments.provider.setRenewal({ subscriptionRef: target.subscriptionRef, itemRef: target.itemRef, orderId: target.orderId }, request.body.renew);
        } catch (error) {
          if (error instanceof HttpError) throw error;
          // The provider refused or could not be reached: nothing was recorded, the buyer may retry.
          request.log.error({ err: error, orderId: target.orderId }, 'the payment provider did not change the renewal');
          return reply.code(502).send({ message: PROVIDER_UNAVAILABLE });
        }
        await fastify.orders.setRenewal(target.orderId, request.body.renew, target.currentPeriodEnd);
        request.log.info({ orderId: target.orderId, renew: request.body.renew }, 'order renewal changed');
      }
      return (await fastify.orders.get(userId, target.orderId)) ?? order;
    },
  );
};

export default orders;
