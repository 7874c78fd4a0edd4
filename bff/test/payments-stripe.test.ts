import { certificatePlanCents } from '@bimi/catalog/prices';
import { ORDER_LEFT_ITS_SUBSCRIPTION, STRIPE_API_VERSION } from '../src/plugins/app/payments/stripe-provider';
import { PRICE_BEING_UPDATED } from '../src/services/payments/price-check';
import { CHECKOUT_PAGE_GRACE_MS, PAYMENT_PAGE_NOT_OPENED } from '../src/plugins/app/payments/payments';
import { catalogPrices, perUnitPrice } from './fixtures/stripe/server';
import type { Browser } from './identity-fixtures';
import { MIXED_CART, SITE, type StripeStore, buyer, startCheckout, startStripeStore, until } from './payments-fixtures';
import Stripe from 'stripe';

// Each test signs buyers up (argon2) and runs whole checkouts; the shared 2-core machine is often busy.

const SQLITE = { name: 'SQLite', postgres: false, redis: false };
const logText = ({ store }: StripeStore) => store.logs.entries.map((entry) => JSON.stringify(entry)).join('\n');
const countRows = async ({ store }: StripeStore, table: 'orders' | 'checkouts') =>
  Number(
    (
      await store.app.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('Stripe through the real SDK against the API double', () => {
  let stripe: StripeStore;
  beforeAll(async () => {
    stripe = await startStripeStore(SQLITE);
  });
  afterAll(async () => {
    await stripe.store.cleanUp();
    await stripe.double.stop();
  });

  it('pins the API version the SDK ships with', () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
    expect(logText(stripe)).toContain('payments: Stripe');
  });

  async function paidCheckout(browser: Browser, items: unknown[] = MIXED_CART) {
    const started = await startCheckout(browser, items);
    expect(started.statusCode).toBe(201);
    const body = started.json() as { checkoutId: string; orderIds: string[]; url: string };
    const sessionId = new URL(body.url).pathname.split('/').pop() as string;
    return { ...body, sessionId };
  }

  it('opens one Checkout Session for a 2-year VMC and a monthly DMARC Plus: one subscription in flexible billing mode', async () => {
    const browser = await buyer(stripe.store);
    const before = stripe.double.requests.length;
    const { checkoutId, orderIds, sessionId } = await paidCheckout(browser);
    const calls = stripe.double.requests.slice(before);
    const create = calls.find((call) => call.method === 'POST' && call.path === '/v1/checkout/sessions');
    expect(create).toBeDefined();
    expect(create?.stripeVersion).toBe(STRIPE_API_VERSION);
    expect(create?.idempotencyKey).toBe(`checkout-${checkoutId}`);
    const { prices, settings } = catalogPrices();
    expect(prices.length).toBeGreaterThan(0);
    expect(create?.body).toMatchObject({
      mode: 'subscription',
      client_reference_id: checkoutId,
      customer: expect.stringMatching(/^cus_/),
      success_url: `${SITE}/checkout/success?checkout=${checkoutId}`,
      cancel_url: `${SITE}/checkout/cancel?checkout=${checkoutId}`,
      line_items: [
        { price: settings.STRIPE_VMC_2_YEAR_PRICE, quantity: '3', metadata: { order_id: orderIds[0], checkout_id: checkoutId } },
        { price: settings.STRIPE_DMARC_PLUS_MONTHLY_PRICE, quantity: '1000', metadata: { order_id: orderIds[1], checkout_id: checkoutId } },
      ],
      metadata: { checkout_id: checkoutId, order_1: `${orderIds[0]} ${settings.STRIPE_VMC_2_YEAR_PRICE} 3`, order_2: `${orderIds[1]} ${settings.STRIPE_DMARC_PLUS_MONTHLY_PRICE} 1000` },
      subscription_data: { billing_mode: { type: 'flexible' }, metadata: { checkout_id: checkoutId } },
    });
    // What Stripe will charge today is what the catalog quoted.
    expect(stripe.double.sessions.get(sessionId)?.amount_total).toBe(3 * certificatePlanCents('verified-mark-certificate', 2) + 11199);

    // One Stripe customer per user, however many checkouts.
    const customersBefore = stripe.double.customers.size;
    await paidCheckout(browser);
    expect(stripe.double.customers.size).toBe(customersBefore);
  });

  it("turns the completed session's signed webhooks into paid orders, each exactly once however often they come", async () => {
    const browser = await buyer(stripe.store);
    const { checkoutId, sessionId } = await paidCheckout(browser);
    const ordersBefore = await countRows(stripe, 'orders');
    const events = await stripe.double.completeSession(sessionId);
    const deliveries = stripe.double.deliveries.slice(-2);
    expect(deliveries.map((delivery) => [delivery.event.type, delivery.status])).toEqual([
      ['invoice.paid', 200],
      ['checkout.session.completed', 200],
    ]);
    expect((await browser.request({ url: `/api/account/checkout/${checkoutId}` })).json()).toMatchObject({ status: 'paid' });
    const list = (await browser.request({ url: '/api/account/orders?status=all' })).json() as { orders: { id: string; status: string }[] };
    expect(list.orders).toHaveLength(2);

    // Replayed and duplicated deliveries: 2xx, nothing applied, no order made or lost.
    for (const event of [...events, ...events]) {
      const again = await stripe.double.deliver(event);
      expect(again.status).toBe(200);
      expect(JSON.parse(again.body)).toEqual({ received: true, applied: 0 });
    }
    expect(await countRows(stripe, 'orders')).toBe(ordersBefore);
    expect(((await browser.request({ url: '/api/account/orders?status=all' })).json() as { orders: unknown[] }).orders).toHaveLength(2);
    const transactions = (await browser.request({ url: '/api/account/billing/transactions' })).json() as { transactions: { amount: number; status: string }[] };
    expect(transactions.transactions).toEqual([expect.objectContaining({ status: 'paid', amount: 3 * certificatePlanCents('verified-mark-certificate', 2) + 11199 })]);
  });

  it('applies events in any order: checkout.session.completed before invoice.paid, and an older subscription state after a newer one', async () => {
    const browser = await buyer(stripe.store);
    const { checkoutId, orderIds, sessionId } = await paidCheckout(browser);
    const [invoicePaid, completed] = await stripe.double.completeSession(sessionId, { deliver: false });
    expect((await stripe.double.deliver(completed!)).status).toBe(200);
    expect((await stripe.double.deliver(invoicePaid!)).status).toBe(200);
    expect((await browser.request({ url: `/api/account/checkout/${checkoutId}` })).json()).toMatchObject({ status: 'paid' });

    const subscription = [...stripe.double.subscriptions.values()].find((candidate) => candidate.metadata.checkout_id === checkoutId);
    if (!subscription) throw new Error('no subscription');
    const at = Math.floor(stripe.store.clock.now / 1000);
    const newer = stripe.double.eventFor('customer.subscription.updated', { ...subscription, cancel_at_period_end: true }, at + 120);
    const older = stripe.double.eventFor('customer.subscription.updated', { ...subscription, cancel_at_period_end: false }, at + 60);
    expect((await stripe.double.deliver(newer)).status).toBe(200);
    expect((await stripe.double.deliver(older)).status).toBe(200);
    for (const orderId of orderIds) {
      const order = (await browser.request({ url: `/api/account/orders/${orderId}` })).json() as { renews: boolean };
      expect(order.renews).toBe(false);
    }
  });

  it('answers 400 to a badly signed, unsigned or foreign-secret webhook and changes nothing', async () => {
    const browser = await buyer(stripe.store);
    const { checkoutId, sessionId } = await paidCheckout(browser);
    const events = await stripe.double.completeSession(sessionId, { deliver: false });
    const event = events[1]!;
    const payload = JSON.stringify(event);
    const bad = [
      stripe.double.sign(payload, 'whsec_someone_else'),
      stripe.double.sign(`${payload} `),
      't=1,v1=00',
      stripe.double.sign(payload, stripe.double.webhookSecret, Math.floor(Date.now() / 1000) - 3600),
      // Signed 10 minutes in the future (issue 31).
      stripe.double.sign(payload, stripe.double.webhookSecret, Math.floor(Date.now() / 1000) + 600),
    ];
    for (const signature of bad) {
      const answer = await stripe.double.deliver(event, { signature });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).message).toMatch(/^Webhook signature verification failed/);
    }
    const unsigned = await stripe.store.app.inject({ method: 'POST', url: '/api/payments/webhook', headers: { 'content-type': 'application/json' }, payload });
    expect(unsigned.statusCode).toBe(400);
    expect((await browser.request({ url: `/api/account/checkout/${checkoutId}` })).json()).toMatchObject({ status: 'open' });
    expect((await stripe.double.deliver(event)).status).toBe(200);
    expect((await browser.request({ url: `/api/account/checkout/${checkoutId}` })).json()).toMatchObject({ status: 'paid' });
  });

  it('maps an expired session, a failed asynchronous payment and a failed renewal invoice', async () => {
    const browser = await buyer(stripe.store);
    const expired = await paidCheckout(browser);
    await stripe.double.expireSession(expired.sessionId);
    expect((await browser.request({ url: `/api/account/checkout/${expired.checkoutId}` })).json()).toMatchObject({ status: 'expired' });

    const failed = await paidCheckout(browser);
    const session = stripe.double.sessions.get(failed.sessionId);
    const asyncFailed = stripe.double.eventFor('checkout.session.async_payment_failed', { ...session, line_items_record: undefined, subscription_data: undefined });
    expect((await stripe.double.deliver(asyncFailed)).status).toBe(200);
    expect((await browser.request({ url: `/api/account/checkout/${failed.checkoutId}` })).json()).toMatchObject({
      status: 'failed',
      failureMessage: expect.stringContaining('did not go through'),
    });

    const renewed = await paidCheckout(browser, [{ productId: 'dmarc-premium', emailVolume: 100_000, billingPeriod: 'monthly' }]);
    await stripe.double.completeSession(renewed.sessionId);
    const subscription = [...stripe.double.subscriptions.values()].find((candidate) => candidate.metadata.checkout_id === renewed.checkoutId);
    if (!subscription) throw new Error('no subscription');
    const invoice = stripe.double.invoiceFor(subscription, 'subscription_cycle', false);
    expect((await stripe.double.deliver(stripe.double.eventFor('invoice.payment_failed', invoice))).status).toBe(200);
    const transactions = (await browser.request({ url: '/api/account/billing/transactions' })).json() as { transactions: { status: string; amount: number; orderId: string | null }[] };
    expect(transactions.transactions).toEqual(expect.arrayContaining([expect.objectContaining({ status: 'failed', amount: 7199, orderId: renewed.orderIds[0] })]));
  });

  it('acknowledges events the store does not act on without changing anything', async () => {
    const event = stripe.double.eventFor('customer.created', { id: 'cus_x', object: 'customer' });
    const answer = await stripe.double.deliver(event);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ received: true, applied: 0 });
    // As Stripe sends it: with a charset.
    const payload = JSON.stringify(stripe.double.eventFor('customer.created', { id: 'cus_y', object: 'customer' }));
    const withCharset = await stripe.store.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': stripe.double.sign(payload) },
      payload,
    });
    expect(withCharset.statusCode).toBe(200);
    // Another content type is verified all the same: the signature covers the bytes.
    const text = await stripe.store.app.inject({ method: 'POST', url: '/api/payments/webhook', headers: { 'content-type': 'text/plain', 'stripe-signature': 't=1,v1=00' }, payload });
    expect(text.statusCode).toBe(400);
  });

  it('repeats the idempotency key when the SDK retries a failed session call, so Stripe makes one session', async () => {
    const browser = await buyer(stripe.store);
    await paidCheckout(browser);
    stripe.double.failNext('POST', /^\/v1\/checkout\/sessions$/, 500, 1);
    const before = stripe.double.requests.length;
    const { checkoutId } = await paidCheckout(browser);
    const attempts = stripe.double.requests.slice(before).filter((call) => call.method === 'POST' && call.path === '/v1/checkout/sessions');
    expect(attempts).toHaveLength(2);
    expect(attempts.map((call) => call.idempotencyKey)).toEqual([`checkout-${checkoutId}`, `checkout-${checkoutId}`]);
    expect([...stripe.double.sessions.values()].filter((session) => session.client_reference_id === checkoutId)).toHaveLength(1);
  });

  it('answers 502 in words when Stripe does not answer after the retries, and closes the checkout as failed', async () => {
    const browser = await buyer(stripe.store);
    await paidCheckout(browser);
    stripe.double.failNext('POST', /^\/v1\/checkout\/sessions$/, 500, 3);
    const answer = await startCheckout(browser);
    expect(answer.statusCode).toBe(502);
    expect(answer.json().message).toBe('We could not open the payment page: the payment provider did not answer. Nothing was charged; please try again in a moment.');
    const failed = await stripe.store.app.db.selectFrom('checkouts').select('id').where('failure_message', '=', PAYMENT_PAGE_NOT_OPENED).execute();
    expect(failed).toHaveLength(1);
    expect((await browser.request({ url: `/api/account/checkout/${failed[0]?.id}` })).json()).toMatchObject({ status: 'failed' });
    expect((await startCheckout(browser)).statusCode).toBe(201);
  });

  it("answers another user's checkout with 404", async () => {
    const owner = await buyer(stripe.store);
    const { checkoutId } = await paidCheckout(owner);
    const stranger = await buyer(stripe.store, 'Eve Other');
    expect((await stranger.request({ url: `/api/account/checkout/${checkoutId}` })).statusCode).toBe(404);
    expect((await owner.request({ url: `/api/account/checkout/${checkoutId}` })).statusCode).toBe(200);
    expect((await owner.request({ url: '/api/account/checkout/no-such-checkout' })).statusCode).toBe(404);
  });

  it("charges two lines at one price (a VMC with two logos) as ONE line item with the summed quantity, pays every order and keeps each order's share", async () => {
    const browser = await buyer(stripe.store);
    const { settings } = catalogPrices();
    const plan = certificatePlanCents('verified-mark-certificate', 1);
    const { checkoutId, orderIds, sessionId } = await paidCheckout(browser, [
      { productId: 'verified-mark-certificate', domains: 2, years: 1 },
      { productId: 'verified-mark-certificate', domains: 1, years: 1 },
      { productId: 'dmarc-plus', emailVolume: 1_000_000, billingPeriod: 'monthly' },
    ]);
    expect(orderIds).toHaveLength(3);
    const create = stripe.double.requestsTo('POST', /^\/v1\/checkout\/sessions$/).pop();
    expect(create?.body.line_items).toEqual([
      { price: settings.STRIPE_VMC_1_YEAR_PRICE, quantity: '3', metadata: { checkout_id: checkoutId } },
      { price: settings.STRIPE_DMARC_PLUS_MONTHLY_PRICE, quantity: '1000', metadata: { order_id: orderIds[2], checkout_id: checkoutId } },
    ]);
    const shares = {
      checkout_id: checkoutId,
      order_1: `${orderIds[0]} ${settings.STRIPE_VMC_1_YEAR_PRICE} 2`,
      order_2: `${orderIds[1]} ${settings.STRIPE_VMC_1_YEAR_PRICE} 1`,
      order_3: `${orderIds[2]} ${settings.STRIPE_DMARC_PLUS_MONTHLY_PRICE} 1000`,
    };
    expect(create?.body).toMatchObject({ metadata: shares, subscription_data: { metadata: shares } });
    expect(stripe.double.sessions.get(sessionId)?.amount_total).toBe(3 * plan + 11199);

    const events = await stripe.double.completeSession(sessionId);
    expect(stripe.double.deliveries.slice(-2).map((delivery) => delivery.status)).toEqual([200, 200]);
    expect((await browser.request({ url: `/api/account/checkout/${checkoutId}` })).json()).toMatchObject({ status: 'paid' });
    const paid = await stripe.store.app.db.selectFrom('orders').select(['id', 'payment_status', 'item_ref']).where('checkout_id', '=', checkoutId).execute();
    expect(paid.map((order) => order.payment_status)).toEqual(['paid', 'paid', 'paid']);
    const subscription = [...stripe.double.subscriptions.values()].find((candidate) => candidate.metadata.checkout_id === checkoutId);
    if (!subscription) throw new Error('no subscription');
    const [vmcItem, dmarcItem] = subscription.items.data;
    if (!vmcItem || !dmarcItem) throw new Error('no items');
    expect(subscription.items.data.map((item) => [item.price.id, item.quantity])).toEqual([
      ['price_vmc_1y', 3],
      ['price_dmarc_plus_monthly', 1000],
    ]);
    const itemOf = new Map(paid.map((order) => [order.id, order.item_ref]));
    expect([itemOf.get(orderIds[0]!), itemOf.get(orderIds[1]!), itemOf.get(orderIds[2]!)]).toEqual([vmcItem.id, vmcItem.id, dmarcItem.id]);
    // The one invoice line of the shared item is each VMC order's line for its share.
    const lines = await stripe.store.app.db.selectFrom('transaction_lines').select(['order_id', 'amount']).where('order_id', 'in', orderIds).execute();
    expect(new Map(lines.map((line) => [line.order_id, line.amount]))).toEqual(
      new Map([
        [orderIds[0], 2 * plan],
        [orderIds[1], plan],
        [orderIds[2], 11199],
      ]),
    );
    // Replays apply nothing.
    for (const event of events) expect(JSON.parse((await stripe.double.deliver(event)).body)).toEqual({ received: true, applied: 0 });

    // Renewal off for the 1-domain order: its share is marked on the shared item; the subscription and the other orders go on.
    expect((await browser.write('PUT', `/api/account/orders/${orderIds[1]}/renewal`, { renew: false })).statusCode).toBe(200);
    expect(vmcItem.metadata).toMatchObject({ renewal_off: '2' });
    expect(subscription.cancel_at_period_end).toBe(false);
    const renewsOf = async () => Promise.all(orderIds.map(async (orderId) => ((await browser.request({ url: `/api/account/orders/${orderId}` })).json() as { renews: boolean }).renews));
    expect(await until(renewsOf, (value) => value.join() === 'true,false,true')).toEqual([true, false, true]);

    // The renewal job: nothing until the last day of the item's period; then the item's quantity drops by the order's share.
    const job = stripe.store.app.payments.stripe;
    if (!job) throw new Error('no Stripe provider');
    const vmcEnd = vmcItem.current_period_end * 1000;
    expect(await job.endNonRenewingItems(stripe.store.clock.now)).toEqual([]);
    stripe.store.advance(vmcEnd - 60 * 60 * 1000 - stripe.store.clock.now);
    const updatesBefore = stripe.double.deliveries.length;
    expect(await job.endNonRenewingItems(stripe.store.clock.now)).toEqual([vmcItem.id]);
    expect(subscription.items.data.map((item) => [item.price.id, item.quantity])).toEqual([
      ['price_vmc_1y', 2],
      ['price_dmarc_plus_monthly', 1000],
    ]);
    expect(vmcItem.metadata.renewal_off).toBeUndefined();
    expect(subscription.metadata.order_2).toBeUndefined();
    expect(subscription.metadata.order_1).toBe(shares.order_1);
    // Run again (another replica, the next hour): nothing more is lowered.
    expect(await job.endNonRenewingItems(stripe.store.clock.now)).toEqual([]);
    expect(vmcItem.quantity).toBe(2);
    await until(
      async () => stripe.double.deliveries.length,
      (count) => count > updatesBefore,
    );
    const leaving = await until(
      () => stripe.store.app.db.selectFrom('orders').select(['id', 'ended_at', 'renews']).where('id', '=', orderIds[1]!).executeTakeFirstOrThrow(),
      (order) => order.ended_at !== null,
    );
    // It ends when its paid year does, not when the quantity was lowered.
    expect(leaving.ended_at).toBe(new Date(vmcEnd).toISOString());
    // It has left the item: turning its renewal back on is refused in words, and changes nothing at Stripe.
    await expect(job.setRenewal({ subscriptionRef: subscription.id, itemRef: vmcItem.id, orderId: orderIds[1]! }, true)).rejects.toThrow(ORDER_LEFT_ITS_SUBSCRIPTION);
    expect(vmcItem.quantity).toBe(2);

    // At the period end Stripe renews the item at its new quantity: the order that renews is charged and runs another year.
    stripe.store.advance(2 * 60 * 60 * 1000);
    const renewal = await stripe.double.renewDueItems(subscription.id);
    expect(stripe.double.deliveries.at(-1)?.status).toBe(200);
    expect(renewal.invoice.lines.data.find((line) => line.pricing?.price_details?.price === 'price_vmc_1y')?.amount).toBe(2 * plan);
    const renewedLines = await stripe.store.app.db
      .selectFrom('transaction_lines')
      .innerJoin('transactions', 'transactions.id', 'transaction_lines.transaction_id')
      .select(['transaction_lines.order_id', 'transaction_lines.amount'])
      .where('transactions.invoice_ref', '=', renewal.invoice.id)
      .execute();
    expect(new Map(renewedLines.map((line) => [line.order_id, line.amount]))).toEqual(
      new Map([
        [orderIds[0], 2 * plan],
        [orderIds[2], 11199],
      ]),
    );
    // (A year on, the browser's session has expired: the orders are read from the database.)
    const after = await stripe.store.app.db.selectFrom('orders').select(['id', 'renews', 'current_period_end', 'ended_at']).where('id', 'in', orderIds.slice(0, 2)).execute();
    const renewing = after.find((order) => order.id === orderIds[0]);
    expect(renewing).toMatchObject({ renews: 1, ended_at: null });
    expect(Date.parse(renewing?.current_period_end ?? '')).toBe(vmcItem.current_period_end * 1000);
    expect(Date.parse(renewing?.current_period_end ?? '')).toBeGreaterThan(vmcEnd);
    expect(after.find((order) => order.id === orderIds[1])).toMatchObject({ renews: 0, ended_at: new Date(vmcEnd).toISOString(), current_period_end: new Date(vmcEnd).toISOString() });
  });

  it('refuses more lines than one Stripe checkout can name (50 metadata keys) with a clear 400 and no order, and takes 48', async () => {
    const browser = await buyer(stripe.store);
    const line = { productId: 'stripe-test-product' };
    const ordersBefore = await countRows(stripe, 'orders');
    const refused = await startCheckout(
      browser,
      Array.from({ length: 49 }, () => line),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('items: a checkout takes at most 48 items; pay for the others in a second checkout');
    expect(await countRows(stripe, 'orders')).toBe(ordersBefore);
    const taken = await paidCheckout(
      browser,
      Array.from({ length: 48 }, () => line),
    );
    expect(taken.orderIds).toHaveLength(48);
    expect(stripe.double.requestsTo('POST', /^\/v1\/checkout\/sessions$/).pop()?.body.line_items).toEqual([
      { price: 'price_test', quantity: '48', metadata: { checkout_id: taken.checkoutId } },
    ]);
  });

  it('refuses two lines at one DMARC plan (its volume tiers price the summed volume, not each line) with a clear 400', async () => {
    const browser = await buyer(stripe.store);
    const answer = await startCheckout(browser, [
      { productId: 'dmarc-plus', emailVolume: 100_000, billingPeriod: 'monthly' },
      { productId: 'dmarc-plus', emailVolume: 100_000, billingPeriod: 'monthly' },
    ]);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toMatch(/^items\[1\]: the same plan as items\[0\] cannot be paid twice in one checkout; choose a larger email volume/);
  });

  it("lists the cards Stripe keeps, sets the default and removes one; another user's card is 404", async () => {
    const browser = await buyer(stripe.store);
    const { sessionId } = await paidCheckout(browser);
    await stripe.double.completeSession(sessionId, { card: { brand: 'visa', last4: '4242' } });
    const customer = stripe.double.sessions.get(sessionId)?.customer as string;
    const subscription = stripe.double.subscriptions.get(stripe.double.sessions.get(sessionId)?.subscription as string);
    const first = subscription?.default_payment_method as string;
    // As Stripe Checkout: the card pays the new subscription, and is not the customer's default.
    expect(first).toMatch(/^pm_/);
    expect(stripe.double.customers.get(customer)?.invoice_settings.default_payment_method).toBeNull();
    const second = stripe.double.addCard(customer, { brand: 'mastercard', last4: '4444' });
    const list = (await browser.request({ url: '/api/account/billing/payment-methods' })).json() as { paymentMethods: { id: string; last4: string; isDefault: boolean }[] };
    // The oldest card becomes the customer's default when there is none, as with the test payments.
    expect(list.paymentMethods.map((card) => [card.last4, card.isDefault])).toEqual([
      ['4242', true],
      ['4444', false],
    ]);
    expect(stripe.double.customers.get(customer)?.invoice_settings.default_payment_method).toBe(first);
    const made = await browser.write('PUT', `/api/account/billing/payment-methods/${second.id}/default`);
    expect(made.statusCode).toBe(200);
    expect(stripe.double.customers.get(customer)?.invoice_settings.default_payment_method).toBe(second.id);
    // …and the subscription Checkout made is charged on it too: its own card would come before the customer's.
    expect(subscription?.default_payment_method).toBe(second.id);
    const stranger = await buyer(stripe.store, 'Eve Other');
    expect((await stranger.write('DELETE', `/api/account/billing/payment-methods/${second.id}`)).statusCode).toBe(404);
    const removed = await browser.write('DELETE', `/api/account/billing/payment-methods/${second.id}`);
    expect(stripe.double.requestsTo('POST', new RegExp(`^/v1/payment_methods/${second.id}/detach$`))).toHaveLength(1);
    // The default is gone: the card left is the default again (the subscription falls back to it).
    expect(removed.json().paymentMethods).toEqual([expect.objectContaining({ id: first, last4: '4242', isDefault: true })]);
    expect(stripe.double.customers.get(customer)?.invoice_settings.default_payment_method).toBe(first);
    expect(subscription?.default_payment_method).toBeNull();

    const setup = await browser.write('POST', '/api/account/billing/payment-methods/setup');
    expect(setup.statusCode).toBe(200);
    const setupCall = stripe.double.requestsTo('POST', /^\/v1\/checkout\/sessions$/).pop();
    expect(setupCall?.body).toMatchObject({ mode: 'setup', customer, success_url: `${SITE}/account/billing/payment-methods` });
    // The card saved on the setup page is listed; the setup session's checkout.session.completed is taken (200) and changes no order.
    const setupSession = new URL((setup.json() as { url: string }).url).pathname.split('/').pop() as string;
    const [completed] = await stripe.double.completeSession(setupSession, { card: { brand: 'amex', last4: '0005', expMonth: 3, expYear: 2031 } });
    expect(stripe.double.deliveries.find((delivery) => delivery.event.id === completed?.id)?.status).toBe(200);
    const after = (await browser.request({ url: '/api/account/billing/payment-methods' })).json() as {
      paymentMethods: { last4: string; expMonth: number; expYear: number; isDefault: boolean }[];
    };
    expect(after.paymentMethods.map((card) => [card.last4, card.expMonth, card.expYear, card.isDefault])).toEqual([
      ['4242', 12, 2034, true],
      ['0005', 3, 2031, false],
    ]);
  });

  it('makes no card the default of a customer who has none left', async () => {
    const browser = await buyer(stripe.store);
    const { sessionId } = await paidCheckout(browser);
    await stripe.double.completeSession(sessionId);
    const [card] = (await browser.request({ url: '/api/account/billing/payment-methods' })).json().paymentMethods as { id: string }[];
    const removed = await browser.write('DELETE', `/api/account/billing/payment-methods/${card?.id}`);
    expect(removed.json()).toEqual({ paymentMethods: [] });
    const customer = stripe.double.sessions.get(sessionId)?.customer as string;
    expect(stripe.double.customers.get(customer)?.invoice_settings.default_payment_method).toBeNull();
  });

  it('turns renewal off for one item of a mixed subscription by marking it, and for a lone item with cancel_at_period_end', async () => {
    const browser = await buyer(stripe.store);
    const mixed = await paidCheckout(browser);
    await stripe.double.completeSession(mixed.sessionId);
    const off = await browser.write('PUT', `/api/account/orders/${mixed.orderIds[1]}/renewal`, { renew: false });
    expect(off.statusCode).toBe(200);
    const subscription = [...stripe.double.subscriptions.values()].find((candidate) => candidate.metadata.checkout_id === mixed.checkoutId);
    expect(subscription?.cancel_at_period_end).toBe(false);
    expect(subscription?.items.data.map((item) => item.metadata.renews ?? 'true')).toEqual(['true', 'false']);

    // The renewal job leaves the item alone until the last day of its period, then removes it; the certificate goes on.
    const job = stripe.store.app.payments.stripe;
    if (!job || !subscription) throw new Error('no Stripe provider');
    const dmarcItem = subscription.items.data[1]!;
    expect(await job.endNonRenewingItems(stripe.store.clock.now)).toEqual([]);
    expect(await job.endNonRenewingItems(dmarcItem.current_period_end * 1000 - 60 * 60 * 1000)).toEqual([dmarcItem.id]);
    expect(subscription.items.data.map((item) => item.price.id)).toEqual(['price_vmc_2y']);
    expect(subscription.cancel_at_period_end).toBe(false);

    const lone = await paidCheckout(browser, [{ productId: 'common-mark-certificate', domains: 1, years: 3 }]);
    await stripe.double.completeSession(lone.sessionId);
    expect((await browser.write('PUT', `/api/account/orders/${lone.orderIds[0]}/renewal`, { renew: false })).statusCode).toBe(200);
    const loneSubscription = [...stripe.double.subscriptions.values()].find((candidate) => candidate.metadata.checkout_id === lone.checkoutId);
    expect(loneSubscription?.cancel_at_period_end).toBe(true);
  });
});

describe('a checkout left without its payment page (its process stopped in between)', () => {
  it('closes as failed once the grace period has passed, and only such a checkout', async () => {
    const stripe = await startStripeStore(SQLITE);
    try {
      const { store } = stripe;
      // One buyer each: a buyer's new checkout supersedes the unpaid one before it (issue 30).
      const open = async () => {
        const browser = await buyer(store);
        const started = await startCheckout(browser);
        expect(started.statusCode).toBe(201);
        return { ...(started.json() as { checkoutId: string; orderIds: string[] }), browser };
      };
      // A replica killed after storing the orders and before attaching Stripe's page leaves this.
      const orphan = await open();
      await store.app.db.updateTable('checkouts').set({ session_ref: null, session_url: null }).where('id', '=', orphan.checkoutId).execute();
      const withPage = await open();
      store.advance(CHECKOUT_PAGE_GRACE_MS - 60_000);
      const recent = await open();
      await store.app.db.updateTable('checkouts').set({ session_ref: null, session_url: null }).where('id', '=', recent.checkoutId).execute();

      expect(await store.app.jobs.runNow('checkout-sweep')).toEqual([]);
      store.advance(2 * 60_000);
      expect(await store.app.jobs.runNow('checkout-sweep')).toEqual([orphan.checkoutId]);
      expect(await store.app.jobs.runNow('checkout-sweep')).toEqual([]);

      const checkouts = await store.app.db.selectFrom('checkouts').select(['id', 'status', 'failure_message']).execute();
      const byId = new Map(checkouts.map((row) => [row.id, row]));
      expect(byId.get(orphan.checkoutId)).toMatchObject({ status: 'failed', failure_message: PAYMENT_PAGE_NOT_OPENED });
      expect(byId.get(withPage.checkoutId)?.status).toBe('open');
      expect(byId.get(recent.checkoutId)?.status).toBe('open');
      const orders = await store.app.db.selectFrom('orders').select(['id', 'payment_status']).where('checkout_id', '=', orphan.checkoutId).execute();
      expect(orders.map((order) => order.payment_status)).toEqual(orphan.orderIds.map(() => 'failed'));
      expect((await orphan.browser.request({ url: `/api/account/checkout/${orphan.checkoutId}` })).json()).toMatchObject({ status: 'failed', failureMessage: PAYMENT_PAGE_NOT_OPENED });
    } finally {
      await stripe.store.cleanUp();
      await stripe.double.stop();
    }
  });
});

describe('the price check before a Stripe session', () => {
  it.each([
    [
      'a tampered amount',
      (prices: ReturnType<typeof catalogPrices>['prices']) => prices.map((price) => (price.id === 'price_vmc_2y' ? perUnitPrice('price_vmc_2y', 100, 'year', 2) : price)),
      /charges 100 a unit/,
    ],
    [
      'a wrong interval',
      (prices: ReturnType<typeof catalogPrices>['prices']) =>
        prices.map((price) => (price.id === 'price_vmc_2y' ? perUnitPrice('price_vmc_2y', certificatePlanCents('verified-mark-certificate', 2), 'year', 1) : price)),
      /renews every 1 year/,
    ],
    ['a missing price', (prices: ReturnType<typeof catalogPrices>['prices']) => prices.filter((price) => price.id !== 'price_dmarc_plus_monthly'), /does not exist/],
    [
      'a wrong DMARC tier',
      (prices: ReturnType<typeof catalogPrices>['prices']) =>
        prices.map((price) => (price.id === 'price_dmarc_plus_monthly' ? { ...price, tiers: price.tiers?.map((tier) => ({ ...tier, flat_amount: 1 })) } : price)),
      /comes to 1, the catalog to 11199/,
    ],
  ])('refuses %s with a clear 400, logs the details, and makes no order and no session', async (_name, tamper, logged) => {
    const stripe = await startStripeStore(SQLITE, { prices: tamper(catalogPrices().prices) });
    try {
      const browser = await buyer(stripe.store);
      const answer = await startCheckout(browser);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe(PRICE_BEING_UPDATED);
      expect(logText(stripe)).toMatch(logged);
      expect(await countRows(stripe, 'orders')).toBe(0);
      expect(stripe.double.requestsTo('POST', /^\/v1\/checkout\/sessions$/)).toHaveLength(0);
    } finally {
      await stripe.store.cleanUp();
      await stripe.double.stop();
    }
  });

  it('refuses a price setting that is not set, and fetches each price once (cached)', async () => {
    const stripe = await startStripeStore(SQLITE, { env: { STRIPE_DMARC_PLUS_MONTHLY_PRICE: '' } });
    try {
      expect(logText(stripe)).toContain('STRIPE_DMARC_PLUS_MONTHLY_PRICE');
      const browser = await buyer(stripe.store);
      const refused = await startCheckout(browser);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(PRICE_BEING_UPDATED);
      // With Stripe charging, the missing identifier is an error (spec §8), logged once, not per request.
      expect((await startCheckout(browser)).statusCode).toBe(400);
      const priceErrors = stripe.store.logs.entries.filter(
        (entry) => entry.level === 50 && entry.msg.startsWith('price identifier') && entry.msg.includes('STRIPE_DMARC_PLUS_MONTHLY_PRICE'),
      );
      expect(priceErrors).toHaveLength(1);
      const vmcOnly = [MIXED_CART[0]];
      expect((await startCheckout(browser, vmcOnly)).statusCode).toBe(201);
      expect((await startCheckout(browser, vmcOnly)).statusCode).toBe(201);
      expect(stripe.double.requestsTo('GET', /^\/v1\/prices\/price_vmc_2y$/)).toHaveLength(1);
    } finally {
      await stripe.store.cleanUp();
      await stripe.double.stop();
    }
  });
});
