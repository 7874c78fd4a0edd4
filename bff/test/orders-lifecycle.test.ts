import { formatUsd } from '@bimi/catalog/prices';
import { quoteCart } from '@bimi/catalog/quote';
import { ONE_ORDER_PAYMENT_PARAM, ORDER_PATHS } from '@bimi/contracts/api-paths';
import { DuplicateCertificate, OrderDetail, OrderList, OrderPayment, PAYMENT_BEING_CONFIRMED_CODE } from '@bimi/contracts/orders';
import { PAYMENT_BEING_CONFIRMED } from '../src/plugins/app/payments/payment-errors';
import { detailsFor } from './orders-fixtures';
import { type Browser, type IdentityStore, GOOD_PASSWORD, startIdentityStore, storageEngines } from './identity-fixtures';
import { MIXED_CART, SITE, buyer, formTokenOf, pathOf, payOnTestPage, startCheckout, startStripeStore } from './payments-fixtures';

/**
 * Issue 30, "one purchase, one order": a purchase owns its orders. A new checkout of the cart
 * supersedes the unpaid try before it (its page stops working); the buyer cancels an unpaid order;
 * an unpaid order is paid on a page of its own, for its own amount; a declined order has a working
 * pay button (and is closed after a day); an identical certificate asks for confirmation (409); a
 * paid page whose payment was not applied is finished by the job. Through the API, with the
 * built-in test payments, on SQLite and on PostgreSQL.
 */

jest.setTimeout(60_000);

const HOUR = 60 * 60 * 1000;
const quote = quoteCart(MIXED_CART, {}, { error: () => undefined });
const [VMC_AMOUNT = 0, DMARC_AMOUNT = 0] = quote.items.map((item) => item.amount);

describe.each(storageEngines().filter((engine) => !engine.redis))('orders own their tries on $name', (engine) => {
  let store: IdentityStore;
  beforeAll(async () => {
    store = await startIdentityStore(engine, { SIGNUP_RATE_LIMIT_PER_HOUR: '1000' });
  });
  afterAll(async () => {
    await store?.cleanUp();
  });

  const order = async (browser: Browser, id: string) => OrderDetail.parse((await browser.request({ url: ORDER_PATHS.order(id) })).json());
  const list = async (browser: Browser) => OrderList.parse((await browser.request({ url: ORDER_PATHS.orders })).json());
  const started = async (browser: Browser, items: unknown[] = MIXED_CART) => {
    const answer = await startCheckout(browser, items);
    expect(answer.statusCode).toBe(201);
    return answer.json() as { checkoutId: string; orderIds: string[]; url: string };
  };
  const payOrder = async (browser: Browser, id: string) => browser.write('POST', ORDER_PATHS.orderPay(id), {});
  /** Runs `work` while the database fails every payment event (a connection lost inside the payment's window). */
  const whileEventsFail = async (work: () => Promise<void>) => {
    const orders = store.app.orders;
    const apply = orders.applyPaymentEvent;
    orders.applyPaymentEvent = async () => {
      throw new Error('connection terminated');
    };
    try {
      await work();
    } finally {
      orders.applyPaymentEvent = apply;
    }
  };

  it('finding 1: a second checkout of the cart supersedes the first try, whose page then charges nothing', async () => {
    const browser = await buyer(store);
    const first = await started(browser);
    const firstPage = await browser.request({ url: pathOf(first.url) });
    const second = await started(browser);

    // Two tries, but only the last is waiting: the first is superseded, not "Incomplete".
    const { orders, counts } = await list(browser);
    expect(orders.map((row) => [row.id, row.state])).toEqual(
      expect.arrayContaining([...first.orderIds.map((id) => [id, 'superseded']), ...second.orderIds.map((id) => [id, 'awaiting-payment'])]),
    );
    expect(counts.incomplete).toBe(2);
    expect((await order(browser, first.orderIds[0] ?? '')).needsAction).toEqual([]);

    // The first page can no longer be paid, even with the form served before.
    const late = await browser.request({
      method: 'POST',
      url: pathOf(first.url),
      form: { formToken: formTokenOf(firstPage.body), cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' },
      headers: { origin: SITE },
    });
    expect(late.statusCode).toBe(422);
    expect(late.body).toContain('can no longer be used');
    expect((await browser.request({ url: ORDER_PATHS.checkoutState(first.checkoutId) })).json()).toMatchObject({ status: 'superseded' });

    // The second pays once; nothing is charged twice.
    expect((await payOnTestPage(browser, second.url, '4242424242424242')).statusCode).toBe(303);
    const transactions = (await browser.request({ url: ORDER_PATHS.transactions })).json().transactions as { amount: number }[];
    expect(transactions.map((row) => row.amount)).toEqual([quote.total]);
    expect((await list(browser)).counts).toMatchObject({ incomplete: 1, pending: 0 });
  });

  it('the buyer cancels an unpaid order (its page stops working) and cannot cancel a paid one', async () => {
    const browser = await buyer(store);
    const { orderIds, url } = await started(browser);
    const [vmc = '', dmarc = ''] = orderIds;
    expect(await order(browser, vmc)).toMatchObject({ state: 'awaiting-payment', action: 'pay', canCancel: true });

    const cancelled = await browser.write('POST', ORDER_PATHS.orderCancel(vmc), {});
    expect(cancelled.statusCode).toBe(200);
    expect(OrderDetail.parse(cancelled.json())).toMatchObject({ state: 'cancelled', status: 'cancelled', action: null, canCancel: false, needsAction: [] });
    // The page charged both orders: it closed. The other order stays payable on a page of its own.
    expect((await browser.request({ url: pathOf(url) })).body).toContain('can no longer be used');
    expect(await order(browser, dmarc)).toMatchObject({ state: 'awaiting-payment', action: 'pay' });
    const again = await browser.write('POST', ORDER_PATHS.orderCancel(vmc), {});
    expect([again.statusCode, again.json().message]).toEqual([409, 'This order is already closed (cancelled).']);
    expect((await payOrder(browser, vmc)).statusCode).toBe(409);

    const page = OrderPayment.parse((await payOrder(browser, dmarc)).json());
    expect((await payOnTestPage(browser, page.url, '4242424242424242')).statusCode).toBe(303);
    const paid = await browser.write('POST', ORDER_PATHS.orderCancel(dmarc), {});
    expect(paid.statusCode).toBe(409);
    expect(paid.json().message).toContain('only an unpaid order can be cancelled');
    expect(await order(browser, dmarc)).toMatchObject({ state: 'active' });

    // Another buyer's order: 404, nothing changes.
    const stranger = await buyer(store, 'Eve Other');
    expect((await stranger.write('POST', ORDER_PATHS.orderCancel(dmarc), {})).statusCode).toBe(404);
    expect((await stranger.write('POST', ORDER_PATHS.orderPay(dmarc), {})).statusCode).toBe(404);
  });

  it('finding 2: paying one order of a try charges exactly that order, on a page of its own', async () => {
    const browser = await buyer(store);
    const { orderIds, url } = await started(browser);
    const [vmc = '', dmarc = ''] = orderIds;
    const answer = await payOrder(browser, vmc);
    expect(answer.statusCode).toBe(201);
    const own = OrderPayment.parse(answer.json());
    expect(own.url).not.toBe(url);
    const page = await browser.request({ url: pathOf(own.url) });
    expect(page.body).toContain(`Pay ${formatUsd(VMC_AMOUNT)}`);
    expect(page.body).not.toContain(formatUsd(DMARC_AMOUNT));
    // The page of both is closed; asking again reuses this order's own page.
    expect((await browser.request({ url: pathOf(url) })).body).toContain('can no longer be used');
    expect(OrderPayment.parse((await payOrder(browser, vmc)).json()).url).toBe(own.url);
    expect((await order(browser, vmc)).paymentUrl).toBe(own.url);

    // Back to a success page that says the payment was for this order, not the cart (the cart is kept).
    const paidOwn = await payOnTestPage(browser, own.url, '4242424242424242');
    expect([paidOwn.statusCode, paidOwn.headers.location]).toEqual([303, `/checkout/success?checkout=${own.checkoutId}&${ONE_ORDER_PAYMENT_PARAM}=1`]);
    expect(await order(browser, vmc)).toMatchObject({ state: 'details-needed', action: 'add-details' });
    expect(await order(browser, dmarc)).toMatchObject({ state: 'awaiting-payment' });
    const transactions = (await browser.request({ url: ORDER_PATHS.transactions })).json().transactions as { amount: number }[];
    expect(transactions.map((row) => row.amount)).toEqual([VMC_AMOUNT]);
  });

  it('finding 3: a declined order has a working pay button, keeps no stale asks, and is closed after a day unpaid', async () => {
    const browser = await buyer(store);
    const { orderIds, url } = await started(browser);
    const declined = await payOnTestPage(browser, url, '4000000000000002');
    expect(declined.statusCode).toBe(303);
    const [vmc = '', dmarc = ''] = orderIds;
    const failed = await order(browser, vmc);
    expect(failed).toMatchObject({ state: 'payment-failed', action: 'pay', canCancel: true, renews: false });
    expect(failed.needsAction).toEqual(['The payment failed (Your card was declined): pay again with another card, or cancel the order.']);
    // The declined page says so and where to pay again.
    expect((await browser.request({ url: pathOf(url) })).body).toContain('This payment was declined');

    const again = OrderPayment.parse((await payOrder(browser, vmc)).json());
    expect((await browser.request({ url: pathOf(again.url) })).body).toContain(`Pay ${formatUsd(VMC_AMOUNT)}`);
    expect((await payOnTestPage(browser, again.url, '4242424242424242')).statusCode).toBe(303);
    expect((await order(browser, vmc)).state).toBe('details-needed');

    // The other declined order, never paid again: cancelled after a day.
    expect(await store.app.jobs.runNow('declined-tries')).toEqual([]);
    store.advance(25 * HOUR);
    const closed = await store.app.jobs.runNow('declined-tries');
    expect(closed).toHaveLength(1);
    const email = (await store.app.db.selectFrom('orders').innerJoin('users', 'users.id', 'orders.user_id').select('users.email').where('orders.id', '=', dmarc).executeTakeFirstOrThrow())
      .email;
    expect((await browser.signIn(email, GOOD_PASSWORD)).statusCode).toBe(200);
    expect(await order(browser, dmarc)).toMatchObject({ state: 'cancelled', action: null, needsAction: [] });
    // Its declined page closed with it: opened again, it no longer asks to pay there.
    expect((await browser.request({ url: pathOf(url) })).body).toContain('can no longer be used');
  });

  // The review of 2026-11-28: opened again, the declined page of a replaced try sent the buyer to an order that could no longer be paid.
  it('a declined try replaced by a new checkout has its page closed: opened again, it says it can no longer be used', async () => {
    const browser = await buyer(store);
    const first = await started(browser, MIXED_CART.slice(1));
    expect((await payOnTestPage(browser, first.url, '4000000000000002')).statusCode).toBe(303);
    expect((await browser.request({ url: pathOf(first.url) })).body).toContain('This payment was declined');
    expect((await startCheckout(browser)).statusCode).toBe(201);
    expect(await order(browser, first.orderIds[0] ?? '')).toMatchObject({ state: 'superseded' });
    const page = (await browser.request({ url: pathOf(first.url) })).body;
    expect(page).toContain('can no longer be used');
    expect(page).not.toContain('This payment was declined');
  });

  it('asks to confirm a certificate identical to one active or pending (409), and buys it once confirmed', async () => {
    const email = `twice-${Date.now()}@example.com`;
    const browser = await buyer(store, 'Ada Twice', email);
    const { userId } = await store.app.db.selectFrom('users').select('id as userId').where('email', '=', email).executeTakeFirstOrThrow();
    const details = await detailsFor({ browser, userId, email }, ['example.com', 'mail.example.com', 'example.org']);
    const line = { productId: 'verified-mark-certificate', domains: 3, years: 1, details };
    const first = await started(browser, [line]);
    expect((await payOnTestPage(browser, first.url, '4242424242424242')).statusCode).toBe(303);
    expect((await order(browser, first.orderIds[0] ?? '')).state).toBe('validating');

    const twice = await startCheckout(browser, [{ ...line, details: { ...details, domains: ['MAIL.example.com', 'example.org', 'example.com'] } }]);
    expect(twice.statusCode).toBe(409);
    const refusal = DuplicateCertificate.parse(twice.json());
    expect(refusal).toMatchObject({ code: 'duplicate-certificate', duplicates: [{ item: 0, orderId: first.orderIds[0] }] });
    expect(refusal.message).toContain('You already have this certificate for the same domains');
    // Nothing was created.
    expect((await list(browser)).orders).toHaveLength(1);

    // Other domains are not the same certificate; confirmed, the same one is bought.
    expect((await startCheckout(browser, [{ ...line, domains: 1, details: { ...details, domains: ['other.example'] } }])).statusCode).toBe(201);
    const confirmed = await browser.write('POST', ORDER_PATHS.checkout, { items: [line], acceptTerms: true, confirmDuplicates: true });
    expect(confirmed.statusCode).toBe(201);
  });

  it('finding 10: a page marked paid whose payment was not applied is finished by the job, once', async () => {
    const browser = await buyer(store);
    const { checkoutId, orderIds, url } = await started(browser);
    // The database fails for every event of this payment, inside the window after the page is marked paid.
    await whileEventsFail(async () => {
      const answer = await payOnTestPage(browser, url, '4242424242424242');
      expect(answer.statusCode).toBe(500);
    });
    expect(store.app.payments.mode).toBe('test');
    expect((await browser.request({ url: ORDER_PATHS.checkoutState(checkoutId) })).json()).toMatchObject({ status: 'open' });
    // Being confirmed: no second page can charge it again.
    expect((await payOrder(browser, orderIds[0] ?? '')).statusCode).toBe(409);
    expect(await store.app.jobs.runNow('test-pages-finish')).toEqual([]);

    store.advance(2 * 60 * 1000);
    const ref = url.split('/').pop();
    expect(await store.app.jobs.runNow('test-pages-finish')).toEqual([ref]);
    expect(await store.app.jobs.runNow('test-pages-finish')).toEqual([]);
    expect((await browser.request({ url: ORDER_PATHS.checkoutState(checkoutId) })).json()).toMatchObject({ status: 'paid' });
    const transactions = (await browser.request({ url: ORDER_PATHS.transactions })).json().transactions as { amount: number }[];
    expect(transactions.map((row) => row.amount)).toEqual([quote.total]);
    const cards = (await browser.request({ url: ORDER_PATHS.paymentMethods })).json().paymentMethods as unknown[];
    expect(cards).toHaveLength(1);
    expect((await browser.request({ url: pathOf(url) })).body).toContain('This payment went through');
  });

  it('asks to confirm buying again what the buyer paid alone from its order in the last day, the cart still holding it', async () => {
    const browser = await buyer(store);
    const cart = await started(browser);
    expect((await payOnTestPage(browser, cart.url, '4000000000000002')).statusCode).toBe(303);
    const dmarc = cart.orderIds[1] ?? '';
    const alone = OrderPayment.parse((await payOrder(browser, dmarc)).json());
    expect((await payOnTestPage(browser, alone.url, '4242424242424242')).statusCode).toBe(303);
    // The cart (both lines) again: the DMARC plan was paid a moment ago.
    const again = await startCheckout(browser);
    expect(again.statusCode).toBe(409);
    const refusal = DuplicateCertificate.parse(again.json());
    const number = (await order(browser, dmarc)).number;
    expect(refusal).toEqual({
      message: `You paid for this in the last 24 hours (order ${number}). Buying again charges again: confirm to buy it anyway.`,
      code: 'duplicate-certificate',
      duplicates: [{ item: 1, orderId: dmarc, orderNumber: number }],
    });
    expect((await browser.write('POST', ORDER_PATHS.checkout, { items: MIXED_CART, acceptTerms: true, confirmDuplicates: true })).statusCode).toBe(201);
  });

  it('a payment page is never attached to a checkout replaced while the page opened', async () => {
    const browser = await buyer(store);
    const first = await started(browser);
    await started(browser);
    expect(await store.app.orders.attachProviderSession(first.checkoutId, 'late_page', 'http://store.test/late')).toBe(false);
    const row = await store.app.db.selectFrom('checkouts').select(['status', 'session_ref']).where('id', '=', first.checkoutId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'superseded', session_ref: expect.not.stringMatching(/^late_page$/) });
  });

  it('a refusal closes none of the pages: of two open pages, one paid and unconfirmed, the other still takes a card', async () => {
    const browser = await buyer(store);
    const cart = await started(browser);
    const [vmc = '', dmarc = ''] = cart.orderIds;
    // Each order on a page of its own: two open pages.
    const vmcPage = OrderPayment.parse((await payOrder(browser, vmc)).json());
    const dmarcPage = OrderPayment.parse((await payOrder(browser, dmarc)).json());
    await whileEventsFail(async () => {
      expect((await payOnTestPage(browser, dmarcPage.url, '4242424242424242')).statusCode).toBe(500);
    });
    expect((await startCheckout(browser)).json()).toMatchObject({ code: PAYMENT_BEING_CONFIRMED_CODE });
    // The VMC's page was not closed by the refusal: its Pay goes back to it, and it takes the card.
    expect(OrderPayment.parse((await payOrder(browser, vmc)).json()).url).toBe(vmcPage.url);
    expect((await payOnTestPage(browser, vmcPage.url, '4242424242424242')).statusCode).toBe(303);
    expect((await browser.request({ url: ORDER_PATHS.checkoutState(vmcPage.checkoutId) })).json()).toMatchObject({ status: 'paid' });
  });

  it('a decline the database failed to record leaves the page open, so the order can still be paid on it', async () => {
    const browser = await buyer(store);
    const first = await started(browser, MIXED_CART.slice(1));
    await whileEventsFail(async () => {
      expect((await payOnTestPage(browser, first.url, '4000000000000002')).statusCode).toBe(500);
    });
    expect((await browser.request({ url: ORDER_PATHS.checkoutState(first.checkoutId) })).json()).toMatchObject({ status: 'open' });
    // The page takes a card again.
    expect((await payOnTestPage(browser, first.url, '4242424242424242')).statusCode).toBe(303);
    expect((await browser.request({ url: ORDER_PATHS.checkoutState(first.checkoutId) })).json()).toMatchObject({ status: 'paid' });
  });

  // The review of 2026-11-28: the order's Pay went to its one-line cart's page, whose success page
  // empties the cart, and so took away the lines added to the cart since.
  it('an order alone on its cart’s page is paid from its own page on a page of its own, which leaves the cart alone', async () => {
    const browser = await buyer(store);
    const first = await started(browser, MIXED_CART.slice(1));
    const own = OrderPayment.parse((await payOrder(browser, first.orderIds[0] ?? '')).json());
    expect(own.url).not.toBe(first.url);
    expect((await browser.request({ url: pathOf(first.url) })).body).toContain('can no longer be used');
    // Asked again, the order's own page.
    expect(OrderPayment.parse((await payOrder(browser, first.orderIds[0] ?? '')).json()).url).toBe(own.url);
    const paid = await payOnTestPage(browser, own.url, '4242424242424242');
    expect([paid.statusCode, paid.headers.location]).toEqual([303, `/checkout/success?checkout=${own.checkoutId}&${ONE_ORDER_PAYMENT_PARAM}=1`]);
  });

  it('a second try at paying while the last payment is being confirmed starts nothing, so nothing is charged twice', async () => {
    const browser = await buyer(store);
    const first = await started(browser);
    await whileEventsFail(async () => {
      expect((await payOnTestPage(browser, first.url, '4242424242424242')).statusCode).toBe(500);
    });
    const before = await list(browser);

    // The cart again, and one of the paid page's orders alone: both refused with the reason, nothing changed.
    const again = await startCheckout(browser);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: PAYMENT_BEING_CONFIRMED, code: PAYMENT_BEING_CONFIRMED_CODE });
    const alone = await payOrder(browser, first.orderIds[1] ?? '');
    expect(alone.statusCode).toBe(409);
    expect(alone.json()).toMatchObject({ code: PAYMENT_BEING_CONFIRMED_CODE });
    expect(await list(browser)).toEqual(before);
    expect(before.orders.map((row) => row.state)).toEqual(['awaiting-payment', 'awaiting-payment']);

    store.advance(2 * 60 * 1000);
    await store.app.jobs.runNow('test-pages-finish');
    expect((await browser.request({ url: ORDER_PATHS.checkoutState(first.checkoutId) })).json()).toMatchObject({ status: 'paid', orderIds: first.orderIds });
    const transactions = (await browser.request({ url: ORDER_PATHS.transactions })).json().transactions as { amount: number }[];
    expect(transactions.map((row) => row.amount)).toEqual([quote.total]);
    // Confirmed, the same cart again is a new purchase: asked first, then bought.
    expect(DuplicateCertificate.parse((await startCheckout(browser)).json()).duplicates).toHaveLength(2);
    expect((await browser.write('POST', ORDER_PATHS.checkout, { items: MIXED_CART, acceptTerms: true, confirmDuplicates: true })).statusCode).toBe(201);
  });
});

describe('with Stripe', () => {
  it('a second checkout of the cart while Stripe has not yet told of the first one’s payment is refused, and the late events pay the first', async () => {
    const { store, double } = await startStripeStore({ name: 'SQLite', postgres: false, redis: false });
    try {
      const browser = await buyer(store);
      const first = (await startCheckout(browser)).json() as { checkoutId: string; orderIds: string[]; url: string };
      const sessionId = new URL(first.url).pathname.split('/').pop() ?? '';
      const events = await double.completeSession(sessionId, { deliver: false });
      const sessions = double.sessions.size;

      const again = await startCheckout(browser);
      expect([again.statusCode, again.json()]).toEqual([409, { message: PAYMENT_BEING_CONFIRMED, code: PAYMENT_BEING_CONFIRMED_CODE }]);
      const alone = await browser.write('POST', ORDER_PATHS.orderPay(first.orderIds[0] ?? ''), {});
      expect([alone.statusCode, alone.json().code]).toEqual([409, PAYMENT_BEING_CONFIRMED_CODE]);
      expect(double.sessions.size).toBe(sessions);

      for (const event of events) await double.deliver(event);
      expect((await browser.request({ url: ORDER_PATHS.checkoutState(first.checkoutId) })).json()).toMatchObject({ status: 'paid', orderIds: first.orderIds });
      const transactions = (await browser.request({ url: ORDER_PATHS.transactions })).json().transactions as { amount: number }[];
      expect(transactions.map((row) => row.amount)).toEqual([quote.total]);
    } finally {
      await store.cleanUp();
      await double.stop();
    }
  });

  it('a second checkout of the cart expires the first Checkout Session at Stripe; its late expiry event changes nothing', async () => {
    const { store, double } = await startStripeStore({ name: 'SQLite', postgres: false, redis: false });
    try {
      const browser = await buyer(store);
      const first = (await startCheckout(browser)).json() as { checkoutId: string; orderIds: string[]; url: string };
      const second = await startCheckout(browser);
      expect(second.statusCode).toBe(201);
      const session = [...double.sessions.values()].find((candidate) => candidate.client_reference_id === first.checkoutId);
      expect(session?.status).toBe('expired');
      // Stripe's checkout.session.expired arrives after the answer: the first try stays superseded.
      const states = async () => (await Promise.all(first.orderIds.map(async (id) => OrderDetail.parse((await browser.request({ url: ORDER_PATHS.order(id) })).json()).state))).join();
      for (let attempt = 0; attempt < 20 && double.deliveries.length === 0; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await states()).toBe('superseded,superseded');
      expect((await browser.request({ url: ORDER_PATHS.checkoutState(first.checkoutId) })).json()).toMatchObject({ status: 'superseded' });
    } finally {
      await store.cleanUp();
      await double.stop();
    }
  });
});
