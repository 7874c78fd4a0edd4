import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { storageEngines } from './identity-fixtures';
import { type StripeStore, buyer, startCheckout, startStripeStore } from './payments-fixtures';

// Each test signs buyers up (argon2) and runs whole checkouts; the shared 2-core machine is often busy.
jest.setTimeout(30_000);

/**
 * Two bff processes on one database (one PostgreSQL schema, or one SQLite file), both receiving the
 * same Stripe event at the same moment, as Stripe's retries and a load balancer make happen: one
 * delivery applies it, every other one is a duplicate, and the orders change once.
 */
describe.each(storageEngines().filter((engine) => !engine.redis))('webhook deliveries racing on two bffs on $name', (engine) => {
  let stripe: StripeStore;
  let second: FastifyInstance;
  beforeAll(async () => {
    stripe = await startStripeStore(engine);
    second = await buildApp(stripe.store.app.config, { logStream: stripe.store.logs, now: () => stripe.store.clock.now });
    await second.ready();
  });
  afterAll(async () => {
    await second.close();
    await stripe.store.cleanUp();
    await stripe.double.stop();
  });

  it('applies each event once however many deliveries race, and the checkout is paid once', async () => {
    const browser = await buyer(stripe.store);
    const started = (await startCheckout(browser)).json() as { checkoutId: string; url: string };
    const sessionId = new URL(started.url).pathname.split('/').pop() as string;
    const events = await stripe.double.completeSession(sessionId, { deliver: false });
    const apps = [stripe.store.app, second, stripe.store.app, second];

    for (const event of events) {
      const payload = JSON.stringify(event);
      const answers = await Promise.all(
        apps.map((app) =>
          app.inject({ method: 'POST', url: '/api/payments/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': stripe.double.sign(payload) }, payload }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
      const applied = answers.reduce((sum, answer) => sum + (answer.json() as { applied: number }).applied, 0);
      expect({ event: event.type, applied }).toEqual({ event: event.type, applied: 1 });
    }

    expect((await browser.request({ url: `/api/account/checkout/${started.checkoutId}` })).json()).toMatchObject({ status: 'paid' });
    const transactions = (await browser.request({ url: '/api/account/billing/transactions' })).json() as { transactions: unknown[] };
    expect(transactions.transactions).toHaveLength(1);
    const processed = await stripe.store.app.db
      .selectFrom('processed_payment_events')
      .select((eb) => eb.fn.countAll().as('n'))
      .where(
        'event_id',
        'in',
        events.map((event) => event.id),
      )
      .executeTakeFirstOrThrow();
    expect(Number(processed.n)).toBe(events.length);
  });
});
