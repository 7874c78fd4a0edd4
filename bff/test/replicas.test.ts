import { SessionAnswer, SignedInSession } from '@bimi/contracts/auth';
import { AUTH_PATHS, MONITOR_PATHS, ORDER_PATHS, SITE_API_PATHS, TOOL_PATHS } from '@bimi/contracts/api-paths';
import { CartQuote } from '@bimi/contracts/cart-quote';
import { CheckoutStarted, CheckoutState } from '@bimi/contracts/orders';
import { ToolAnswer } from '@bimi/contracts/tools';
import { StripeDouble, catalogPrices } from './fixtures/stripe/server';
import { startToolFixtures, type ToolFixtures } from './fixtures/tools/start';
import { MIXED_CART } from './payments-fixtures';
import { type Answer, type Replica, type ReplicaSite, send, signedUpBuyer, startReplicaSite, waitFor } from './replicas-fixtures';

/**
 * Issue 16, part 3: two compiled bff replicas on one PostgreSQL schema and one Redis prefix, behind
 * a real nginx, started by `scripts/replicas.mjs` exactly as the root README tells a platform team
 * ("Running several replicas"). Every request goes through the balancer unless it says otherwise,
 * and every answer names the replica that gave it (nginx's X-Upstream-Addr): sessions, the cart
 * quote, a whole Stripe order, webhooks, monitor jobs and rate limits cross replicas; then one
 * replica is killed (kill -9) mid-checkout and the buyer finishes on the other.
 *
 * Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (.ci/run), and then FAILS without nginx.
 */

jest.setTimeout(60_000);

const TOOLS_LIMIT = 4;
/** An event as the Stripe double signs and sends it. */
type StripeEventRecord = Parameters<StripeDouble['deliver']>[0];
const services = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
const describeServices = services ? describe : describe.skip;

const count = async (site: ReplicaSite, query: string, values: unknown[] = []): Promise<number> => Number((await site.db.query<{ n: string }>(query, values)).rows[0]?.n);

describeServices('two bff replicas behind nginx on one PostgreSQL and one Redis', () => {
  let site: ReplicaSite;
  let tools: ToolFixtures;
  let double: StripeDouble;
  let a: Replica;
  let b: Replica;
  /** Where the Stripe double's webhooks go: the balancer, as Stripe's would (each answer recorded with its replica). */
  const webhookAnswers: Answer[] = [];

  beforeAll(async () => {
    const { prices, settings } = catalogPrices();
    tools = await startToolFixtures();
    double = new StripeDouble({
      prices,
      webhookTransport: async (payload, headers) => {
        const answer = await send(site.url, ORDER_PATHS.webhook, { method: 'POST', headers, body: payload });
        webhookAnswers.push(answer);
        return { status: answer.status, body: answer.body };
      },
    });
    const stripe = await double.start();
    site = await startReplicaSite(2, {
      ...tools.env,
      ...settings,
      STRIPE_SECRET_KEY: 'sk_test_double',
      STRIPE_WEBHOOK_SECRET: double.webhookSecret,
      STRIPE_API_BASE_URL: stripe.url,
      SIGNUP_RATE_LIMIT_PER_HOUR: '1000',
      TOOLS_RATE_LIMIT_PER_MINUTE: String(TOOLS_LIMIT),
      // Both replicas look for due monitors every second.
      MONITOR_SCHEDULER_SECONDS: '1',
    });
    [a, b] = site.replicas as [Replica, Replica];
  }, 120_000);

  afterAll(async () => {
    await site?.cleanUp();
    await double?.stop();
    await tools?.close();
  }, 60_000);

  /** A webhook event POSTed with Stripe's signature to `base` (the balancer or one replica). */
  const deliver = (base: string, event: StripeEventRecord) => {
    const payload = JSON.stringify(event);
    return send(base, ORDER_PATHS.webhook, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': double.sign(payload) }, body: payload });
  };

  it('runs the replicas behind nginx, each ready, with the client address as nginx saw it', async () => {
    expect(site.replicas.map((replica) => replica.port)).not.toContain(Number(new URL(site.url).port));
    for (const replica of site.replicas) {
      const ready = await send(replica.url, SITE_API_PATHS.ready);
      expect(ready.status).toBe(200);
      expect(ready.json()).toMatchObject({ status: 'ready' });
    }
    // Round robin over both.
    const answeredBy = new Set<string>();
    for (let i = 0; i < 4; i += 1) answeredBy.add((await send(site.url, SITE_API_PATHS.health)).upstream);
    expect([...answeredBy].sort()).toEqual([a.addr, b.addr].sort());
  });

  it('keeps a session started on one replica valid on the other, and a sign-out on one ends it on both', async () => {
    const browser = await signedUpBuyer(site, 'session@replicas.test', a, a);
    const onA = await browser.session(a);
    const onB = await browser.session(b);
    expect(onA.upstream).toBe(a.addr);
    expect(onB.upstream).toBe(b.addr);
    expect(SignedInSession.parse(onB.json()).user.email).toBe('session@replicas.test');
    expect(onB.json().user).toEqual(onA.json().user);
    // The account API (session required) answers on B for the session made on A.
    expect((await browser.request(ORDER_PATHS.orders, { on: b })).status).toBe(200);

    const csrfToken = await browser.csrfToken();
    const signOut = await browser.request(AUTH_PATHS.signOut, { method: 'POST', form: { csrfToken, json: 'true' }, on: b });
    expect(signOut.status).toBe(200);
    expect(SessionAnswer.parse((await browser.session(a)).json())).toEqual({});
    expect((await browser.request(ORDER_PATHS.orders, { on: a })).status).toBe(401);
  });

  it('quotes the cart alike on both, and runs a whole order across them: checkout on one, webhooks on either, the orders on the other', async () => {
    const buyer = await signedUpBuyer(site, 'buyer@replicas.test', b, a);
    const quotes = [
      await buyer.request(SITE_API_PATHS.cartQuote, { method: 'POST', json: { items: MIXED_CART }, on: a }),
      await buyer.request(SITE_API_PATHS.cartQuote, { method: 'POST', json: { items: MIXED_CART }, on: b }),
    ];
    expect(quotes.map((quote) => [quote.upstream, quote.status])).toEqual([
      [a.addr, 200],
      [b.addr, 200],
    ]);
    expect(CartQuote.parse(quotes[1]?.json())).toEqual(CartQuote.parse(quotes[0]?.json()));
    const total = CartQuote.parse(quotes[0]?.json()).total;

    const started = await buyer.request(ORDER_PATHS.checkout, { method: 'POST', json: { items: MIXED_CART, acceptTerms: true }, csrf: true, on: b });
    expect(started.status).toBe(201);
    const { checkoutId, orderIds, url } = CheckoutStarted.parse(started.json());
    const sessionId = new URL(url).pathname.split('/').pop() ?? '';

    // Stripe sends invoice.paid and checkout.session.completed; the same two again, each to the
    // replica that did not get it the first time, and one of them to both at the same moment.
    const events = await double.completeSession(sessionId, { deliver: false });
    const firsts: Answer[] = [];
    const seconds: Answer[] = [];
    for (const event of events) {
      await buyer.steerTo(a);
      firsts.push(await deliver(site.url, event));
      seconds.push(await deliver(site.url, event));
    }
    expect(firsts.map((answer) => [answer.upstream, answer.status, answer.json()])).toEqual(events.map(() => [a.addr, 200, { received: true, applied: 1 }]));
    expect(seconds.map((answer) => [answer.upstream, answer.status, answer.json()])).toEqual(events.map(() => [b.addr, 200, { received: true, applied: 0 }]));
    const subscription = [...double.subscriptions.values()].find((candidate) => candidate.metadata.checkout_id === checkoutId);
    if (!subscription) throw new Error('no subscription');
    const update = double.eventFor('customer.subscription.updated', { ...subscription, cancel_at_period_end: true });
    const both = await Promise.all([deliver(a.url, update), deliver(b.url, update)]);
    expect(both.map((answer) => answer.status)).toEqual([200, 200]);
    expect(both.map((answer) => answer.json().applied).sort()).toEqual([0, 1]);

    const state = await buyer.request(ORDER_PATHS.checkoutState(checkoutId), { on: a });
    expect(CheckoutState.parse(state.json())).toMatchObject({ status: 'paid', orderIds });
    const list = await buyer.request(`${ORDER_PATHS.orders}?status=all`, { on: b });
    expect(
      list
        .json()
        .orders.map((order: { id: string }) => order.id)
        .sort(),
    ).toEqual([...orderIds].sort());
    for (const orderId of orderIds) expect((await buyer.request(ORDER_PATHS.order(orderId), { on: a })).json()).toMatchObject({ renews: false });

    expect(await count(site, 'select count(*) as n from processed_payment_events')).toBe(3);
    expect(await count(site, 'select count(*) as n from transactions')).toBe(1);
    expect(await count(site, 'select sum(amount) as n from transactions')).toBe(total);
    expect(await count(site, "select count(*) as n from orders where checkout_id = $1 and payment_status = 'paid'", [checkoutId])).toBe(orderIds.length);
  });

  it('runs a due monitor check once, with both replicas scheduling it every second on one pg-boss queue', async () => {
    const owner = await signedUpBuyer(site, 'monitors@replicas.test', a, b);
    const domains = ['good.example', 'dmarc-none.example', 'spf-loop.example'];
    for (const [index, domain] of domains.entries()) {
      const answer = await owner.request(MONITOR_PATHS.create, { method: 'POST', json: { domain }, csrf: true, on: index % 2 === 0 ? a : b });
      expect(answer.status).toBe(201);
    }
    const snapshots = () => site.db.query<{ domain: string; n: string }>('select m.domain, count(*) as n from monitor_snapshots s join monitors m on m.id = s.monitor_id group by m.domain');
    expect((await snapshots()).rows.map((row) => Number(row.n))).toEqual([1, 1, 1]);

    // The checks fall due: both replicas' schedulers find them within a second and queue them.
    const dueAt = new Date(Date.now() - 60_000).toISOString();
    await site.db.query('update monitors set next_check_at = $1', [dueAt]);
    const ran = await waitFor(snapshots, (result) => result.rows.length === 3 && result.rows.every((row) => Number(row.n) >= 2), 20_000);
    expect(ran.rows.every((row) => Number(row.n) >= 2)).toBe(true);
    // Several more scheduler rounds on both replicas: nothing runs again.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(Object.fromEntries((await snapshots()).rows.map((row) => [row.domain, Number(row.n)]))).toEqual(Object.fromEntries(domains.map((domain) => [domain, 2])));
    // One job a monitor for that period. (A scheduler round between a create's insert, due at once,
    // and its first run may queue the creation's period too: that job finds it claimed and runs nothing.)
    const jobs = await site.db.query<{ state: string; n: string }>(
      `select state, count(*) as n from ${site.schema}_queue.job where name = 'monitor-check' and data->>'dueAt' = $1 group by state`,
      [dueAt],
    );
    expect(jobs.rows.map((row) => [row.state, Number(row.n)])).toEqual([['completed', domains.length]]);
  });

  it('counts the tools rate limit across replicas: the request over the limit is refused whichever replica gets it', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < TOOLS_LIMIT + 2; i += 1) {
      // A client's own X-Forwarded-For is not believed: nginx sets it to the address it saw.
      answers.push(await send(site.url, `${TOOL_PATHS.tool('txt')}?name=good.example`, { headers: { accept: 'application/json', 'x-forwarded-for': `198.51.100.${i + 1}` } }));
    }
    expect(answers.map((answer) => answer.status)).toEqual([...Array(TOOLS_LIMIT).fill(200), 429, 429]);
    for (const answer of answers.slice(0, TOOLS_LIMIT)) expect(ToolAnswer.parse(answer.json()).tool).toBe('txt');
    // Both replicas served some of the allowed requests, and both refused one over the limit.
    expect(new Set(answers.slice(0, TOOLS_LIMIT).map((answer) => answer.upstream)).size).toBe(2);
    expect(
      answers
        .slice(TOOLS_LIMIT)
        .map((answer) => answer.upstream)
        .sort(),
    ).toEqual([a.addr, b.addr].sort());
    expect(answers[TOOLS_LIMIT]?.json().message).toMatch(/^Too many attempts\. Try again in 1 minute/);
  });

  it('lets a buyer whose replica was killed (kill -9) mid-checkout finish on the other: no order lost or doubled', async () => {
    const email = 'survivor@replicas.test';
    const buyer = await signedUpBuyer(site, email, a, b);
    const quote = await buyer.request(SITE_API_PATHS.cartQuote, { method: 'POST', json: { items: MIXED_CART }, on: b });
    const total = CartQuote.parse(quote.json()).total;
    const started = await buyer.request(ORDER_PATHS.checkout, { method: 'POST', json: { items: MIXED_CART, acceptTerms: true }, csrf: true, on: a });
    expect(started.status).toBe(201);
    const { checkoutId, orderIds, url } = CheckoutStarted.parse(started.json());

    // The buyer pays on Stripe's page. Stripe's first webhook reaches A, and A is killed while it
    // applies it: its transaction waits for the checkout's row, which this test holds locked.
    const lock = await site.connect();
    await lock.query('begin');
    await lock.query('select id from checkouts where id = $1 for update', [checkoutId]);
    const lockPid = (await lock.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
    webhookAnswers.length = 0;
    await buyer.steerTo(a);
    const paying = double.completeSession(new URL(url).pathname.split('/').pop() ?? '');
    const waiting = await waitFor(
      () => count(site, 'select count(*) as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [lockPid]),
      (n) => n > 0,
    );
    expect(waiting).toBe(1);
    await site.kill(a);
    // nginx does not pass a POST that reached A on to B: Stripe is told 502, and retries later.
    await waitFor(
      async () => webhookAnswers.length,
      (n) => n > 0,
    );
    await lock.query('commit');
    await lock.end();
    const events = await paying;
    expect(webhookAnswers.map((answer) => [answer.tried, answer.status])).toEqual([
      [[a.addr], 502],
      [[b.addr], 200],
    ]);
    expect(webhookAnswers[1]?.json()).toEqual({ received: true, applied: 1 });
    // Nothing of A's half-done work stayed: invoice.paid was never applied.
    expect(await count(site, 'select count(*) as n from processed_payment_events where event_id = $1', [events[0]?.id])).toBe(0);

    // Stripe retries what was not acknowledged, and later sends everything again: each applies once, on B.
    const retried = await deliver(site.url, events[0] as StripeEventRecord);
    expect([retried.upstream, retried.status, retried.json()]).toEqual([b.addr, 200, { received: true, applied: 1 }]);
    for (const event of events) expect((await deliver(site.url, event)).json()).toEqual({ received: true, applied: 0 });

    // The buyer comes back from Stripe, still signed in (the session is Redis's, not A's), and sees it paid.
    const state = await buyer.request(ORDER_PATHS.checkoutState(checkoutId));
    expect(state.upstream).toBe(b.addr);
    expect(CheckoutState.parse(state.json())).toMatchObject({ status: 'paid', orderIds });
    // Writes with a fresh CSRF token work too, all on B now.
    const probe = await buyer.request(MONITOR_PATHS.create, { method: 'POST', json: { domain: 'good.example' }, csrf: true });
    expect([probe.upstream, probe.status]).toEqual([b.addr, 201]);

    const userId = (await site.db.query<{ id: string }>('select id from users where email = $1', [email])).rows[0]?.id;
    expect(await count(site, 'select count(*) as n from checkouts where user_id = $1', [userId])).toBe(1);
    expect(await count(site, 'select count(*) as n from orders where user_id = $1', [userId])).toBe(MIXED_CART.length);
    expect(await count(site, "select count(*) as n from orders where user_id = $1 and checkout_id = $2 and payment_status = 'paid'", [userId, checkoutId])).toBe(MIXED_CART.length);
    expect(await count(site, 'select count(*) as n from transactions where user_id = $1', [userId])).toBe(1);
    expect(await count(site, 'select sum(amount) as n from transactions where user_id = $1', [userId])).toBe(total);
    expect(await count(site, 'select count(*) as n from processed_payment_events where event_id = any($1)', [events.map((event) => event.id)])).toBe(events.length);
    // The confirmation mail goes once, from B's background sender.
    const mails = await waitFor(
      () => count(site, "select count(*) as n from outbox_messages where recipient = $1 and subject like '%are confirmed%'", [email]),
      (n) => n > 0,
    );
    expect(mails).toBe(1);
  });
});
