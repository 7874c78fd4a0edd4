import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { WebhookSignatureError } from '../../../services/payments/provider';
import type { TestProvider } from '../../../plugins/app/payments/test-provider';

const RefParams = z.object({ ref: z.string().regex(/^test_[a-z]+_[0-9a-f]{24}$/, 'is not a test payment reference') });
const PAGE_NOT_FOUND = 'This payment page does not exist, or belongs to another account. Go back to checkout and try again.';

function htmlPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  // The card form must never be cached or framed; the page carries no script.
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

function notFoundPage(reply: FastifyReply): FastifyReply {
  return htmlPage(
    reply,
    404,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Payment page not found</title><link rel="icon" href="data:,"></head><body><main><h1>Payment page not found</h1><p>${PAGE_NOT_FOUND}</p><p><a href="/checkout">Back to checkout</a></p></main></body></html>`,
  );
}

/**
 * /api/payments/*: Stripe's webhook, verified by its signature over the raw body (no session, no
 * CSRF token: `config.csrf = false`), and the built-in test payment pages, served only while test
 * payments run. A webhook answers 2xx only once every event it carries is stored, so Stripe
 * retries anything not applied; a bad signature answers 400.
 */
const paymentRoutes: FastifyPluginAsync = async (fastify) => {
  // The signature is computed over the exact bytes Stripe sent: keep them (this scope only).
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));

  fastify.post('/webhook', { config: { csrf: false } }, async (request, reply) => {
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.from(typeof request.body === 'string' ? request.body : '');
    let events;
    try {
      events = fastify.payments.provider.parseWebhook(rawBody, request.headers);
    } catch (error) {
      if (error instanceof WebhookSignatureError) {
        request.log.warn({ reason: error.message }, 'webhook refused: bad signature');
        return reply.code(400).send({ message: `Webhook signature verification failed: ${error.message}` });
      }
      throw error;
    }
    const results = [];
    for (const event of events) {
      const result = await fastify.orders.applyPaymentEvent(event);
      request.log.info({ eventId: event.eventId, kind: event.kind, result }, 'payment event');
      results.push(result);
    }
    return reply.code(200).send({ received: true, applied: results.filter((result) => result === 'applied').length });
  });

  const testPages = fastify.payments.test;
  if (!testPages) return;
  const test: TestProvider = testPages;

  const sessionOf = (request: FastifyRequest, ref: string) => test.openSession(ref, request.sessionUser?.id);

  fastify.get('/test/checkout/:ref', async (request, reply) => {
    const params = RefParams.safeParse(request.params);
    const session = params.success ? await sessionOf(request, params.data.ref) : undefined;
    if (!session) return notFoundPage(reply);
    return htmlPage(reply, 200, test.checkoutPage(session));
  });

  // A same-site form post (the Origin check of the sessions plugin) with the page's own token,
  // which the provider checks: `csrf: 'form'`.
  fastify.post('/test/checkout/:ref', { config: { csrf: 'form' } }, async (request, reply) => {
    const params = RefParams.safeParse(request.params);
    const session = params.success ? await sessionOf(request, params.data.ref) : undefined;
    if (!session) return notFoundPage(reply);
    const form = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {};
    const outcome = await test.pay(session, form);
    request.log.info({ checkoutId: session.checkout.checkoutId, ok: outcome.ok, message: outcome.ok ? undefined : outcome.message }, 'test payment');
    if (outcome.redirect) return reply.redirect(outcome.redirect, 303);
    if (outcome.ok) return reply.redirect(session.checkout.successUrl, 303);
    return htmlPage(reply, 422, test.checkoutPage(session, outcome.message));
  });

  const setupOf = async (request: FastifyRequest, ref: string) => {
    const setup = await test.setupSession(ref);
    if (!setup || !request.sessionUser) return undefined;
    const own = await fastify.paymentCustomers.find(request.sessionUser.id);
    return own === setup.customerRef ? setup : undefined;
  };

  fastify.get('/test/setup/:ref', async (request, reply) => {
    const params = RefParams.safeParse(request.params);
    const setup = params.success ? await setupOf(request, params.data.ref) : undefined;
    if (!setup) return notFoundPage(reply);
    return htmlPage(reply, 200, test.setupPage(setup));
  });

  fastify.post('/test/setup/:ref', { config: { csrf: 'form' } }, async (request, reply) => {
    const params = RefParams.safeParse(request.params);
    const setup = params.success ? await setupOf(request, params.data.ref) : undefined;
    if (!setup) return notFoundPage(reply);
    const form = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {};
    const outcome = await test.addCard(setup, form);
    if (outcome.ok) return reply.redirect(outcome.redirect, 303);
    return htmlPage(reply, 422, test.setupPage(setup, outcome.message));
  });
};

export default paymentRoutes;
