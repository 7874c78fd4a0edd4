import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../src/app';
import { storageEngines } from './identity-fixtures';
import { type StripeStore, buyer, startCheckout, startStripeStore } from './payments-fixtures';

// Each test signs buyers up (argon2) and runs whole checkouts; the shared 2-core machine is often busy.

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
  it('applies events about one checkout that arrive together, in one batch, as one at a time would: a failed attempt then the payment of one invoice leave it paid, once', async () => {
    const browser = await buyer(stripe.store);
    const started = (await startCheckout(browser)).json() as { checkoutId: string; url: string };
    const events = await stripe.double.completeSession(new URL(started.url).pathname.split('/').pop() as string, { deliver: false });
    const paid = events.find((event) => event.type === 'invoice.paid') as (typeof events)[number];
    // The card was declined a moment before it went through: Stripe sends both, the failure first.
    const failed = stripe.double.eventFor('invoice.payment_failed', { ...(paid.data.object as object), status: 'open' }, paid.created - 1);
    // Another buyer's events go first: each starts a batch (two overlap at most), so these wait and are applied together.
    const other = (await startCheckout(await buyer(stripe.store))).json() as { url: string };
    const others = await stripe.double.completeSession(new URL(other.url).pathname.split('/').pop() as string, { deliver: false });
    const app = stripe.store.app;
    const answers = await Promise.all(
      [...others, failed, ...events].map((event) => {
        const payload = JSON.stringify(event);
        return app.inject({ method: 'POST', url: '/api/payments/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': stripe.double.sign(payload) }, payload });
      }),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    expect(answers.reduce((sum, answer) => sum + (answer.json() as { applied: number }).applied, 0)).toBe(others.length + events.length + 1);

    expect((await browser.request({ url: `/api/account/checkout/${started.checkoutId}` })).json()).toMatchObject({ status: 'paid' });
    const { transactions } = (await browser.request({ url: '/api/account/billing/transactions' })).json() as { transactions: { status: string }[] };
    expect(transactions.map((transaction) => transaction.status)).toEqual(['paid']);
    const orders = await app.db.selectFrom('orders').select(['payment_status', 'failure_message']).where('checkout_id', '=', started.checkoutId).execute();
    expect(orders.length).toBeGreaterThan(1);
    expect(orders).toEqual(orders.map(() => ({ payment_status: 'paid', failure_message: null })));
    const lines = await app.db
      .selectFrom('transaction_lines')
      .innerJoin('transactions', 'transactions.id', 'transaction_lines.transaction_id')
      .select('transaction_lines.order_id')
      .where('transactions.invoice_ref', '=', (paid.data.object as { id: string }).id)
      .execute();
    expect(lines).toHaveLength(orders.length);
    await app.jobs.runNow('order-mail');
    const kinds = await app.db.selectFrom('order_notifications').select(['kind', 'done_at']).where('payload', 'like', `%${started.checkoutId}%`).execute();
    expect(kinds.map((row) => row.kind).sort()).toEqual(['order-confirmation']);
    expect(kinds.every((row) => row.done_at !== null)).toBe(true);
  });

  it('applies a burst of events, each delivered twice to both bffs at once, exactly once; an event the database refuses fails alone and applies when Stripe retries it', async () => {
    const checkoutIds: string[] = [];
    const events: { id: string; type: string; data: { object: unknown } }[] = [];
    // Six buyers: one buyer's second checkout is refused while the first one's payment is unconfirmed.
    for (let index = 0; index < 6; index += 1) {
      const started = (await startCheckout(await buyer(stripe.store))).json() as { checkoutId: string; url: string };
      checkoutIds.push(started.checkoutId);
      events.push(...(await stripe.double.completeSession(new URL(started.url).pathname.split('/').pop() as string, { deliver: false })));
    }
    // The database refuses the transaction of one invoice (a trigger: a real database error, as a
    // full disk or a constraint would give), while the events around it are applied with it.
    const refused = events.findLast((event) => event.type === 'invoice.paid') as (typeof events)[number];
    const invoiceRef = (refused.data.object as { id: string }).id;
    const db = stripe.store.app.db;
    if (engine.postgres) {
      await sql
        .raw(
          `create function refuse_invoice() returns trigger language plpgsql as $$ begin if new.invoice_ref = '${invoiceRef}' then raise exception 'refused for the test'; end if; return new; end $$`,
        )
        .execute(db);
      await sql.raw('create trigger refuse_invoice before insert on transactions for each row execute function refuse_invoice()').execute(db);
    } else {
      await sql.raw(`create trigger refuse_invoice before insert on transactions when new.invoice_ref = '${invoiceRef}' begin select raise(abort, 'refused for the test'); end`).execute(db);
    }

    const deliver = (app: FastifyInstance, event: (typeof events)[number]) => {
      const payload = JSON.stringify(event);
      return app.inject({ method: 'POST', url: '/api/payments/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': stripe.double.sign(payload) }, payload });
    };
    // The refused event last, so it arrives while the others are being applied and joins their batch.
    const deliveries = [...events.filter((event) => event !== refused), refused].flatMap((event) => [stripe.store.app, second, second, stripe.store.app].map((app) => ({ app, event })));
    const answers = await Promise.all(deliveries.map(({ app, event }) => deliver(app, event).then((answer) => ({ event, answer }))));

    for (const { event, answer } of answers) {
      expect({ event: event.id, status: answer.statusCode }).toEqual({ event: event.id, status: event === refused ? 500 : 200 });
    }
    const applied = answers.filter(({ answer }) => answer.statusCode === 200).reduce((sum, { answer }) => sum + (answer.json() as { applied: number }).applied, 0);
    expect(applied).toBe(events.length - 1);
    const processed = async () =>
      (
        await db
          .selectFrom('processed_payment_events')
          .select('event_id')
          .where(
            'event_id',
            'in',
            events.map((event) => event.id),
          )
          .execute()
      )
        .map((row) => row.event_id)
        .sort();
    expect(await processed()).toEqual(
      events
        .filter((event) => event !== refused)
        .map((event) => event.id)
        .sort(),
    );
    const invoiceRefs = events.filter((event) => event.type === 'invoice.paid').map((event) => (event.data.object as { id: string }).id);
    const transactions = async () =>
      Number(
        (
          await db
            .selectFrom('transactions')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('invoice_ref', 'in', invoiceRefs)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await transactions()).toBe(checkoutIds.length - 1);
    const checkouts = await db.selectFrom('checkouts').select(['id', 'status']).where('id', 'in', checkoutIds).execute();
    // Every checkout is paid: the refused invoice's checkout by its checkout.session.completed.
    expect(checkouts.map((row) => row.status)).toEqual(checkoutIds.map(() => 'paid'));

    // Stripe retries the refused event once the database takes it again: applied once, with its transaction.
    if (engine.postgres) await sql.raw('drop trigger refuse_invoice on transactions').execute(db);
    else await sql.raw('drop trigger refuse_invoice').execute(db);
    const retries = await Promise.all([deliver(second, refused), deliver(stripe.store.app, refused)]);
    expect(retries.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(retries.reduce((sum, answer) => sum + (answer.json() as { applied: number }).applied, 0)).toBe(1);
    expect(await processed()).toEqual(events.map((event) => event.id).sort());
    expect(await transactions()).toBe(checkoutIds.length);
  });
});
