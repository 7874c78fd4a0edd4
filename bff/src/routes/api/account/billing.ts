import { ApiError } from '@bimi/contracts/api-error';
import { ORDER_PATHS, PaymentMethodList, PaymentMethodSetup } from '@bimi/contracts/orders';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../../lib/http-error';
import { PAYMENTS_UNAVAILABLE } from '../../../plugins/app/payments/payments';
import { currentUser } from './current-user';
import { readableGet } from './readable';

const PaymentMethodParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_]{1,100}$/, 'is not a payment method id') });
const NOT_FOUND = 'Payment method not found';

/**
 * The user's saved cards at the payment provider: list, add (the provider's hosted page), set
 * the default, remove. A card id that is not one of the user's answers 404.
 */
const billing: FastifyPluginAsyncZod = async (fastify) => {
  async function cardsOf(userId: string): Promise<PaymentMethodList> {
    const customerRef = fastify.payments.mode === 'none' ? undefined : await fastify.paymentCustomers.find(userId);
    if (!customerRef) return { paymentMethods: [] };
    const methods = await fastify.payments.provider.listPaymentMethods(customerRef);
    return { paymentMethods: methods.map(({ ref, ...method }) => ({ id: ref, ...method })) };
  }

  /** The user's customer, when `id` is one of their cards; 404 otherwise. */
  async function customerOwning(userId: string, id: string): Promise<string> {
    const customerRef = fastify.payments.mode === 'none' ? undefined : await fastify.paymentCustomers.find(userId);
    if (!customerRef) throw new HttpError(404, NOT_FOUND);
    const methods = await fastify.payments.provider.listPaymentMethods(customerRef);
    if (!methods.some((method) => method.ref === id)) throw new HttpError(404, NOT_FOUND);
    return customerRef;
  }

  readableGet(fastify, { url: ORDER_PATHS.paymentMethods, response: PaymentMethodList, read: (user) => cardsOf(user.id) });

  fastify.post(ORDER_PATHS.paymentMethodSetup, { schema: { response: { 200: PaymentMethodSetup, 503: ApiError } } }, async (request, reply) => {
    if (fastify.payments.mode === 'none') return reply.code(503).send({ message: PAYMENTS_UNAVAILABLE });
    const user = currentUser(request);
    const customerRef = await fastify.payments.customerOf(user);
    return fastify.payments.provider.createPaymentMethodSetup(customerRef, `${fastify.payments.returnBase}/account/billing/payment-methods`);
  });

  fastify.put(`${ORDER_PATHS.paymentMethods}/:id/default`, { schema: { params: PaymentMethodParams, response: { 200: PaymentMethodList, 404: ApiError } } }, async (request) => {
    const user = currentUser(request);
    const customerRef = await customerOwning(user.id, request.params.id);
    await fastify.payments.provider.setDefaultPaymentMethod(customerRef, request.params.id);
    return cardsOf(user.id);
  });

  fastify.delete(`${ORDER_PATHS.paymentMethods}/:id`, { schema: { params: PaymentMethodParams, response: { 200: PaymentMethodList, 404: ApiError } } }, async (request) => {
    const user = currentUser(request);
    const customerRef = await customerOwning(user.id, request.params.id);
    await fastify.payments.provider.removePaymentMethod(customerRef, request.params.id);
    return cardsOf(user.id);
  });
};

export default billing;
