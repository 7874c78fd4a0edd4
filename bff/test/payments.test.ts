import { quoteCart } from '@bimi/catalog/quote';
import { formatUsd } from '@bimi/catalog/prices';
import { type IdentityStore, GOOD_PASSWORD, signedInUser, startIdentityStore, Browser } from './identity-fixtures';
import { MIXED_CART, SITE, buyer, formTokenOf, pathOf, payOnTestPage, startCheckout, until } from './payments-fixtures';
import { loadConfig, paymentProviderName } from '../src/config';

// Each test signs buyers up (argon2) and runs whole checkouts; the shared 2-core machine is often busy.

const logText = (store: IdentityStore) => store.logs.entries.map((entry) => `${entry.msg} ${JSON.stringify(entry)}`).join('\n');
const MANY_SIGN_UPS = { SIGNUP_RATE_LIMIT_PER_HOUR: '1000' };

const SVG_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 100 100"><title>Example</title><rect width="100" height="100" fill="#1a5fb4"/></svg>';

describe('built-in test payments (no STRIPE_SECRET_KEY)', () => {
  let store: IdentityStore;
  beforeAll(async () => {
    store = await startIdentityStore({ name: 'SQLite', postgres: false, redis: false }, MANY_SIGN_UPS);
  });
  afterAll(async () => {
    await store.cleanUp();
  });

  it('says at start that test payments run, and every unset price setting', () => {
    expect(store.app.payments.provider.name).toBe('test');
    expect(logText(store)).toContain('payments: built-in test payments');
    expect(logText(store)).toContain('STRIPE_VMC_2_YEAR_PRICE');
  });

  it('pays the mixed cart with 4242: the page shows the catalog amounts, the orders are paid, back to the success URL', async () => {
    const browser = await buyer(store);
    const started = await startCheckout(browser);
    expect(started.statusCode).toBe(201);
    const { checkoutId, orderIds, url } = started.json() as { checkoutId: string; orderIds: string[]; url: string };
    expect(orderIds).toHaveLength(2);
    // A path on the site the buyer is on (localhost or 127.0.0.1 alike), so the session cookie goes with it.
    expect(url).toMatch(/^\/api\/payments\/test\/checkout\/test_cs_[0-9a-f]{24}$/);

    const page = await browser.request({ url: pathOf(url) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('TEST MODE');
    const quote = quoteCart(MIXED_CART, {}, { error: () => undefined });
    for (const item of quote.items) expect(page.body).toContain(formatUsd(item.amount));
    expect(page.body).toContain(`Pay ${formatUsd(quote.total)}`);
    expect(page.body).toContain('every 2 years');
    expect(page.body).toContain('every month');

    const paid = await payOnTestPage(browser, url, '4242 4242 4242 4242');
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/checkout/success?checkout=${checkoutId}`);
    const state = await browser.request({ url: `/api/account/checkout/${checkoutId}` });
    expect(state.json()).toMatchObject({ checkoutId, status: 'paid', failureMessage: null });

    // The page cannot be paid twice, and says it was paid, once, with a link to the orders (issue 30, finding 4).
    const again = await browser.request({ url: pathOf(url) });
    expect(again.body).toContain('This payment went through: your order is paid.');
    expect(again.body).toContain('href="/account/orders"');
    expect(again.body).not.toContain('try again');
    expect(again.body).not.toContain('/checkout/cancel');
    expect(again.body).not.toContain('<form');
    // A second post of the paid page (Back, then Pay again) says the same, once.
    const repost = await browser.request({
      method: 'POST',
      url: pathOf(url),
      form: { formToken: formTokenOf(page.body), cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' },
      headers: { origin: SITE },
    });
    expect(repost.statusCode).toBe(422);
    expect(repost.body.split('This payment went through').length - 1).toBe(1);
    expect(repost.body).not.toContain('can no longer be used');
  });

  it.each([
    ['4000 0000 0000 0002', 'Your card was declined.'],
    ['4000000000009995', 'Your card has insufficient funds.'],
  ])('card %s fails the checkout with "%s" and goes back to checkout with the reason', async (card, message) => {
    const browser = await buyer(store);
    const { checkoutId, url } = (await startCheckout(browser)).json() as { checkoutId: string; url: string };
    const answer = await payOnTestPage(browser, url, card);
    expect(answer.statusCode).toBe(303);
    const location = new URL(answer.headers.location as string, SITE);
    expect(answer.headers.location).toMatch(/^\/checkout\/cancel\?/);
    expect(location.pathname).toBe('/checkout/cancel');
    expect(location.searchParams.get('checkout')).toBe(checkoutId);
    expect(location.searchParams.get('reason')).toBe(message);
    const state = await browser.request({ url: `/api/account/checkout/${checkoutId}` });
    expect(state.json()).toMatchObject({ status: 'failed', failureMessage: message });
  });

  it('refuses any other card number, a past expiry and a bad CVC on the page, and changes nothing', async () => {
    const browser = await buyer(store);
    const { checkoutId, url } = (await startCheckout(browser)).json() as { checkoutId: string; url: string };
    const other = await payOnTestPage(browser, url, '5105 1051 0510 5100');
    expect(other.statusCode).toBe(422);
    expect(other.body).toContain('use the test card 4242 4242 4242 4242');
    const expired = await payOnTestPage(browser, url, '4242424242424242', { expiry: '01/20' });
    expect(expired.statusCode).toBe(422);
    expect(expired.body).toContain('Enter the expiry date as MM/YY, in the future.');
    const cvc = await payOnTestPage(browser, url, '4242424242424242', { cvc: 'abc' });
    expect(cvc.body).toContain('Enter the 3 or 4 digit security code.');
    expect((await browser.request({ url: `/api/account/checkout/${checkoutId}` })).json()).toMatchObject({ status: 'open' });
  });

  it('refuses a post without the page token, and another user or a visitor gets 404 for the page', async () => {
    const owner = await buyer(store);
    const { checkoutId, url } = (await startCheckout(owner)).json() as { checkoutId: string; url: string };
    const forged = await owner.request({
      method: 'POST',
      url: pathOf(url),
      form: { formToken: 'x'.repeat(32), cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' },
      headers: { origin: SITE },
    });
    expect(forged.statusCode).toBe(422);
    expect(forged.body).toContain('can no longer be used');

    const stranger = await buyer(store, 'Eve Other');
    expect((await stranger.request({ url: pathOf(url) })).statusCode).toBe(404);
    const page = await owner.request({ url: pathOf(url) });
    const theirs = await stranger.request({
      method: 'POST',
      url: pathOf(url),
      form: { formToken: formTokenOf(page.body), cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' },
      headers: { origin: SITE },
    });
    expect(theirs.statusCode).toBe(404);
    expect((await new Browser(store.app).request({ url: pathOf(url) })).statusCode).toBe(404);
    expect((await owner.request({ url: '/api/payments/test/checkout/not-a-ref' })).statusCode).toBe(404);
    // Another user's checkout state is 404 too.
    expect((await stranger.request({ url: `/api/account/checkout/${checkoutId}` })).statusCode).toBe(404);
    expect((await owner.request({ url: `/api/account/checkout/${checkoutId}` })).json()).toMatchObject({ status: 'open' });
  });

  it('answers every bad checkout input with a 4xx message and creates no order', async () => {
    const browser = await buyer(store);
    const countOrders = async () =>
      Number(
        (
          await store.app.db
            .selectFrom('orders')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await countOrders();
    const cases: [unknown, number, RegExp][] = [
      [{ items: [], acceptTerms: true }, 400, /items/],
      [{ items: MIXED_CART }, 400, /acceptTerms/],
      [{ items: MIXED_CART, acceptTerms: false }, 400, /acceptTerms/],
      [{ items: [{ productId: 'no-such-product' }], acceptTerms: true }, 400, /items\[0\]: Unknown product/],
      [{ items: [{ productId: 'verified-mark-certificate', domains: 251 }], acceptTerms: true }, 400, /items\[0\]: Domains must be/],
      [{ items: [{ productId: 'dmarc-plus', emailVolume: 123 }], acceptTerms: true }, 400, /Unsupported email volume/],
      [{ items: [{ productId: 'dmarc-plus', emailVolume: 100_000, quantity: 2 }], acceptTerms: true }, 400, /DMARC plan is bought one at a time/],
      [{ items: [{ productId: 'bimi-checker' }], acceptTerms: true }, 400, /free/],
      [{ items: [{ productId: 'verified-mark-certificate', amount: 1 }], acceptTerms: true, total: 1 }, 201, /./],
      [
        {
          items: [
            {
              productId: 'dmarc-plus',
              emailVolume: 100_000,
              details: { organizationId: 'o', domains: ['a.com'], logoSvg: SVG_LOGO, contacts: { legal: 'a', technical: 'a', billing: 'a' } },
            },
          ],
          acceptTerms: true,
        },
        400,
        /items\[0\]\.details: only certificate orders take validation details/,
      ],
      [
        {
          items: [
            {
              productId: 'common-mark-certificate',
              domains: 2,
              details: { organizationId: 'o', domains: ['a.com'], logoSvg: SVG_LOGO, contacts: { legal: 'a', technical: 'a', billing: 'a' } },
            },
          ],
          acceptTerms: true,
        },
        400,
        /give exactly 2 domains/,
      ],
      [
        {
          items: [
            {
              productId: 'common-mark-certificate',
              details: { organizationId: 'someone-elses', domains: ['a.com'], logoSvg: SVG_LOGO, contacts: { legal: 'a', technical: 'a', billing: 'a' } },
            },
          ],
          acceptTerms: true,
        },
        400,
        /not one of your organizations/,
      ],
      [
        {
          items: [
            { productId: 'common-mark-certificate', details: { organizationId: 'o', domains: ['not a domain'], logoSvg: SVG_LOGO, contacts: { legal: 'a', technical: 'a', billing: 'a' } } },
          ],
          acceptTerms: true,
        },
        400,
        /domains\[0\]/,
      ],
      [
        {
          items: [{ productId: 'common-mark-certificate', details: { organizationId: 'o', domains: ['a.com'], logoSvg: '<svg>', contacts: { legal: 'a', technical: 'a', billing: 'a' } } }],
          acceptTerms: true,
        },
        400,
        /not SVG Tiny PS/,
      ],
    ];
    let created = 0;
    for (const [body, status, message] of cases) {
      const answer = await browser.write('POST', '/api/account/checkout', body);
      expect({ body, status: answer.statusCode }).toEqual({ body, status });
      expect((answer.json() as { message?: string }).message ?? 'created').toMatch(message);
      if (status === 201) {
        created += 1;
        // An amount the browser sends is ignored: the catalog prices the line.
        const { url } = answer.json() as { url: string };
        expect((await browser.request({ url: pathOf(url) })).body).toContain(formatUsd(quoteCart([{ productId: 'verified-mark-certificate' }], {}, { error: () => undefined }).total));
      }
    }
    expect(await countOrders()).toBe(before + created);
    const text = await browser.request({ method: 'POST', url: '/api/account/checkout', headers: { 'content-type': 'text/plain', 'x-csrf-token': await browser.csrfToken() } });
    expect([400, 415]).toContain(text.statusCode);
  });

  it("takes validation details of the buyer's own organization and contacts", async () => {
    const browser = await buyer(store);
    const organization = (await browser.write('POST', '/api/account/organizations', { name: 'Example Corp' })).json() as { id: string };
    const contact = (await browser.write('POST', '/api/account/contacts', { kind: 'legal', name: 'Lee Legal', email: 'legal@example.com' })).json() as { id: string };
    const details = {
      organizationId: organization.id,
      domains: ['Example.com', 'mail.example.com'],
      logoSvg: SVG_LOGO,
      contacts: { legal: contact.id, technical: contact.id, billing: contact.id },
    };
    const answer = await browser.write('POST', '/api/account/checkout', { items: [{ productId: 'common-mark-certificate', domains: 2, details }], acceptTerms: true });
    expect(answer.statusCode).toBe(201);
    const stranger = await buyer(store, 'Eve Other');
    const theirs = await stranger.write('POST', '/api/account/checkout', { items: [{ productId: 'common-mark-certificate', domains: 2, details }], acceptTerms: true });
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json().message).toMatch(/not one of your organizations/);
  });

  it('needs a session and the CSRF token', async () => {
    const visitor = new Browser(store.app);
    expect((await visitor.write('POST', '/api/account/checkout', { items: MIXED_CART, acceptTerms: true })).statusCode).toBe(401);
    const browser = await buyer(store);
    const noToken = await browser.request({ method: 'POST', url: '/api/account/checkout', json: { items: MIXED_CART, acceptTerms: true } });
    expect(noToken.statusCode).toBe(403);
  });

  it("adds a test card on the add-a-card page, sets the default, removes it; another user's card is 404", async () => {
    const email = `cards-${Date.now()}@example.com`;
    const browser = await buyer(store, 'Card Owner', email);
    expect((await browser.request({ url: '/api/account/billing/payment-methods' })).json()).toEqual({ paymentMethods: [] });
    const add = async (cardNumber: string) => {
      const { url } = (await browser.write('POST', '/api/account/billing/payment-methods/setup')).json() as { url: string };
      expect(url).toMatch(/\/api\/payments\/test\/setup\/test_seti_/);
      return payOnTestPage(browser, url, cardNumber);
    };
    const declined = await add('4000000000000002');
    expect(declined.statusCode).toBe(422);
    expect(declined.body).toContain('Your card was declined.');
    const saved = await add('4242424242424242');
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/account/billing/payment-methods');
    await add('5555 5555 5555 4444');
    const list = (await browser.request({ url: '/api/account/billing/payment-methods' })).json() as { paymentMethods: { id: string; brand: string; last4: string; isDefault: boolean }[] };
    expect(list.paymentMethods.map((card) => [card.brand, card.last4, card.isDefault])).toEqual([
      ['visa', '4242', true],
      ['mastercard', '4444', false],
    ]);
    const second = list.paymentMethods[1]?.id as string;
    const defaulted = await browser.write('PUT', `/api/account/billing/payment-methods/${second}/default`);
    expect(defaulted.json().paymentMethods.find((card: { id: string }) => card.id === second).isDefault).toBe(true);

    const stranger = await buyer(store, 'Eve Other');
    await stranger.write('POST', '/api/account/billing/payment-methods/setup');
    expect((await stranger.write('DELETE', `/api/account/billing/payment-methods/${second}`)).statusCode).toBe(404);
    expect((await stranger.write('PUT', `/api/account/billing/payment-methods/${second}/default`)).statusCode).toBe(404);
    expect((await browser.write('DELETE', '/api/account/billing/payment-methods/pm_no_such')).statusCode).toBe(404);
    expect((await browser.write('DELETE', '/api/account/billing/payment-methods/bad%20id')).statusCode).toBe(400);

    const removed = await browser.write('DELETE', `/api/account/billing/payment-methods/${second}`);
    expect(removed.json().paymentMethods).toEqual([expect.objectContaining({ last4: '4242', isDefault: true })]);

    // Saved test cards are stored, so they outlive a restart of the bff.
    await store.restart();
    const afterRestart = new Browser(store.app, browser.ip);
    expect((await afterRestart.signIn(email, GOOD_PASSWORD)).statusCode).toBe(200);
    expect((await afterRestart.request({ url: '/api/account/billing/payment-methods' })).json().paymentMethods).toEqual([expect.objectContaining({ last4: '4242', isDefault: true })]);
  });

  it('turns renewal off and on for a test-paid order with the same events Stripe would send, also after a restart', async () => {
    const email = `renewal-${Date.now()}@example.com`;
    let browser = await buyer(store, 'Rene Wal', email);
    const { orderIds, url } = (await startCheckout(browser)).json() as { orderIds: string[]; url: string };
    expect((await payOnTestPage(browser, url, '4242424242424242')).statusCode).toBe(303);
    const [certificate, plan] = orderIds as [string, string];
    const renews = async (orderId: string) => ((await browser.request({ url: `/api/account/orders/${orderId}` })).json() as { renews: boolean }).renews;
    expect(await renews(plan)).toBe(true);
    expect((await browser.write('PUT', `/api/account/orders/${plan}/renewal`, { renew: false })).statusCode).toBe(200);
    expect([await renews(certificate), await renews(plan)]).toEqual([true, false]);

    await store.restart();
    browser = new Browser(store.app, browser.ip);
    expect((await browser.signIn(email, GOOD_PASSWORD)).statusCode).toBe(200);
    expect((await browser.write('PUT', `/api/account/orders/${plan}/renewal`, { renew: true })).statusCode).toBe(200);
    expect((await browser.write('PUT', `/api/account/orders/${certificate}/renewal`, { renew: false })).statusCode).toBe(200);
    expect([await renews(certificate), await renews(plan)]).toEqual([false, true]);
  });

  it('refuses a cross-site post of the test payment form', async () => {
    const browser = await buyer(store);
    const { url } = (await startCheckout(browser)).json() as { url: string };
    const page = await browser.request({ url: pathOf(url) });
    const answer = await browser.request({
      method: 'POST',
      url: pathOf(url),
      form: { formToken: formTokenOf(page.body), cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' },
      headers: { origin: 'https://evil.example' },
    });
    expect(answer.statusCode).toBe(403);
  });

  it('refuses webhooks: test payments have none', async () => {
    const answer = await store.app.inject({ method: 'POST', url: '/api/payments/webhook', headers: { 'content-type': 'application/json' }, payload: '{"id":"evt_1"}' });
    expect(answer.statusCode).toBe(400);
  });
});

describe('test payment pages are stored: they outlive a restart and expire after 24 hours', () => {
  let store: IdentityStore;
  beforeAll(async () => {
    store = await startIdentityStore({ name: 'SQLite', postgres: false, redis: false }, MANY_SIGN_UPS);
  });
  afterAll(async () => {
    await store.cleanUp();
  });

  const HOUR = 60 * 60 * 1000;
  const checkoutRow = (checkoutId: string) => store.app.db.selectFrom('checkouts').select(['status', 'failure_message']).where('id', '=', checkoutId).executeTakeFirstOrThrow();
  const paymentStatuses = async (orderIds: string[]) =>
    (await store.app.db.selectFrom('orders').select(['id', 'payment_status']).where('id', 'in', orderIds).orderBy('number').execute()).map((row) => row.payment_status);

  it('serves and takes an open payment page after a restart of the bff', async () => {
    const email = `restart-${Date.now()}@example.com`;
    const before = await buyer(store, 'Ada Buyer', email);
    const { checkoutId, orderIds, url } = (await startCheckout(before)).json() as { checkoutId: string; orderIds: string[]; url: string };
    expect((await before.request({ url: pathOf(url) })).statusCode).toBe(200);

    await store.restart();
    const browser = new Browser(store.app, before.ip);
    expect((await browser.signIn(email, GOOD_PASSWORD)).statusCode).toBe(200);
    const page = await browser.request({ url: pathOf(url) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Pay ${formatUsd(quoteCart(MIXED_CART, {}, { error: () => undefined }).total)}`);
    // Still only its owner's.
    const stranger = await buyer(store, 'Eve Other');
    expect((await stranger.request({ url: pathOf(url) })).statusCode).toBe(404);

    const paid = await payOnTestPage(browser, url, '4242 4242 4242 4242');
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/checkout/success?checkout=${checkoutId}`);
    expect(await checkoutRow(checkoutId)).toMatchObject({ status: 'paid' });
    expect(await paymentStatuses(orderIds)).toEqual(['paid', 'paid']);
    // Paid once: the stored page says so.
    expect((await browser.request({ url: pathOf(url) })).body).toContain('This payment went through');
  });

  it('expires a page left unpaid for 24 hours with checkout.expired, once; it can no longer be paid', async () => {
    const email = `expiry-${Date.now()}@example.com`;
    const browser = await buyer(store, 'Ada Buyer', email);
    const { checkoutId, orderIds, url } = (await startCheckout(browser)).json() as { checkoutId: string; orderIds: string[]; url: string };
    const ref = url.split('/').pop() as string;
    expect(store.app.payments.mode).toBe('test');
    const page = await browser.request({ url: pathOf(url) });

    store.advance(23 * HOUR);
    expect(await store.app.jobs.runNow('test-pages-expire')).toEqual([]);
    expect(await checkoutRow(checkoutId)).toMatchObject({ status: 'open' });

    store.advance(HOUR);
    expect(await store.app.jobs.runNow('test-pages-expire')).toEqual([ref]);
    expect(await checkoutRow(checkoutId)).toMatchObject({ status: 'expired' });
    expect(await paymentStatuses(orderIds)).toEqual(['expired', 'expired']);
    const applied = await store.app.db.selectFrom('processed_payment_events').select('event_id').where('event_id', '=', `test_expired_${ref}`).execute();
    expect(applied).toHaveLength(1);
    // The next run (or another bff process) finds nothing more to do.
    expect(await store.app.jobs.runNow('test-pages-expire')).toEqual([]);

    // The form served before it expired cannot pay it (signed in again: a day has passed).
    const later = new Browser(store.app, browser.ip);
    expect((await later.signIn(email, GOOD_PASSWORD)).statusCode).toBe(200);
    const late = await later.request({
      method: 'POST',
      url: pathOf(url),
      form: { formToken: formTokenOf(page.body), cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' },
      headers: { origin: SITE },
    });
    expect(late.statusCode).toBe(422);
    expect(late.body).toContain('can no longer be used');
    expect(await checkoutRow(checkoutId)).toMatchObject({ status: 'expired' });

    // Thirty days on, the closed page is forgotten; its checkout keeps the outcome.
    const stored = () => store.app.db.selectFrom('test_payment_sessions').select('ref').where('ref', '=', ref).execute();
    expect(await stored()).toHaveLength(1);
    store.advance(30 * 24 * HOUR);
    await store.app.jobs.runNow('test-pages-expire');
    expect(await stored()).toHaveLength(0);
    expect(await checkoutRow(checkoutId)).toMatchObject({ status: 'expired' });
  });

  it('expires, at the start of a restarted bff (the hourly job runs at start), a page whose 24 hours ran out while it was down', async () => {
    const browser = await buyer(store);
    const { checkoutId, orderIds } = (await startCheckout(browser)).json() as { checkoutId: string; orderIds: string[] };
    store.advance(25 * HOUR);
    await store.restart();
    expect(
      await until(
        () => checkoutRow(checkoutId),
        (row) => row.status === 'expired',
      ),
    ).toMatchObject({ status: 'expired', failure_message: null });
    expect(await paymentStatuses(orderIds)).toEqual(['expired', 'expired']);
  });
});

describe('which payment provider runs', () => {
  it('is Stripe with a key, test payments without, and none in production unless TEST_PAYMENTS=true', () => {
    expect(paymentProviderName(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' }))).toBe('stripe');
    expect(paymentProviderName(loadConfig({}))).toBe('test');
    expect(paymentProviderName(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) }))).toBe('none');
    expect(paymentProviderName(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), TEST_PAYMENTS: 'true' }))).toBe('test');
    expect(paymentProviderName(loadConfig({ TEST_PAYMENTS: 'false' }))).toBe('none');
  });

  it('refuses an http Stripe API address in production, and a bad one anywhere', () => {
    const production = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), STRIPE_SECRET_KEY: 'sk_live_1', STRIPE_WEBHOOK_SECRET: 'whsec_12345678' };
    expect(() => loadConfig({ ...production, STRIPE_API_BASE_URL: 'http://127.0.0.1:12111' })).toThrow('STRIPE_API_BASE_URL must use https when NODE_ENV is production');
    expect(() => loadConfig({ ...production, STRIPE_API_PROTOCOL: 'http' })).toThrow('must use https');
    expect(loadConfig({ ...production, STRIPE_API_BASE_URL: 'https://stripe-proxy.internal:8443' }).stripe.api).toEqual({ host: 'stripe-proxy.internal', port: 8443, protocol: 'https' });
    expect(() => loadConfig({ STRIPE_API_BASE_URL: 'ftp://x' })).toThrow('STRIPE_API_BASE_URL must be an absolute http(s) URL');
    expect(() => loadConfig({ STRIPE_API_PORT: '70000' })).toThrow('STRIPE_API_PORT');
    expect(() => loadConfig({ ...production, STRIPE_WEBHOOK_SECRET: undefined })).toThrow('STRIPE_WEBHOOK_SECRET is required');
    expect(loadConfig({ STRIPE_API_HOST: 'localhost', STRIPE_API_PORT: '12111', STRIPE_API_PROTOCOL: 'http' }).stripe.api).toEqual({ host: 'localhost', port: 12111, protocol: 'http' });
  });

  it('in production without a key nor TEST_PAYMENTS, checkout answers 503 and the test pages do not exist', async () => {
    const store = await startIdentityStore({ name: 'SQLite', postgres: false, redis: false }, { TEST_PAYMENTS: 'false' });
    try {
      expect(logText(store)).toContain('payments: none');
      const browser = await signedInUser(store, 'Ada', 'ada-none@example.com');
      const answer = await startCheckout(browser);
      expect(answer.statusCode).toBe(503);
      expect(answer.json().message).toBe('Card payments are not available right now. Please contact us.');
      expect((await browser.request({ url: '/api/payments/test/checkout/test_cs_0123456789abcdef01234567' })).statusCode).toBe(404);
    } finally {
      await store.cleanUp();
    }
  });
});
