import { MAX_CHARGE_CENTS, quoteCart } from '@bimi/catalog/quote';
import { GOOD_PASSWORD, type IdentityStore, startIdentityStore } from './identity-fixtures';
import { ORDERS_PER_DAY } from '../src/plugins/app/payments/payments';
import { buyer, startCheckout } from './payments-fixtures';

// The buyer signs up (argon2); the shared 2-core machine is often busy.

/** Issue 30, finding 7: the reviewer's one allowed line, 250 domains, 3 years, 10 logos, 99 copies: $985,000,500.00. */
const HUGE_LINE = { productId: 'verified-mark-certificate', domains: 250, years: 3, logos: 10, quantity: 99 };

describe("a cart above the payment provider's one-charge limit", () => {
  let store: IdentityStore;
  beforeAll(async () => {
    store = await startIdentityStore({ name: 'SQLite', postgres: false, redis: false });
  });
  afterAll(() => store.cleanUp());

  const rows = async () => ({
    checkouts: (await store.app.db.selectFrom('checkouts').select('id').execute()).length,
    orders: (await store.app.db.selectFrom('orders').select('id').execute()).length,
  });

  it('is quoted as not payable', async () => {
    const answer = await store.app.inject({ method: 'POST', url: '/api/cart/quote', payload: { items: [HUGE_LINE] } });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ total: 98_500_050_000, payable: false });
    const fits = await store.app.inject({ method: 'POST', url: '/api/cart/quote', payload: { items: [{ productId: 'verified-mark-certificate', domains: 250, years: 3 }] } });
    expect(fits.json()).toMatchObject({ total: 99_495_000, payable: true });
  });

  it('is refused by checkout with a clear message, and nothing is stored', async () => {
    const browser = await buyer(store);
    const before = await rows();
    // Ten lines at $994,950.00 each: every line fits, the cart does not.
    const lines = Array.from({ length: 10 }, () => ({ productId: 'verified-mark-certificate', domains: 250, years: 3 }));
    expect(quoteCart(lines, {}, { error: () => undefined }).total).toBeGreaterThan(MAX_CHARGE_CENTS);
    for (const items of [[HUGE_LINE], lines]) {
      const answer = await startCheckout(browser, items);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toMatch(/^This cart comes to \$[\d,]+\.\d\d, more than the \$999,999\.99 our payment provider can take in one payment\. Talk to sales/);
    }
    expect(await rows()).toEqual(before);
    // Just under the limit the same buyer can check out.
    expect((await startCheckout(browser, [{ productId: 'verified-mark-certificate', domains: 250, years: 3 }])).statusCode).toBe(201);
    expect((await rows()).orders).toBe(before.orders + 1);
  });
});

describe('orders placed by one buyer in a day', () => {
  let store: IdentityStore;
  beforeAll(async () => {
    store = await startIdentityStore({ name: 'SQLite', postgres: false, redis: false });
  });
  afterAll(() => store.cleanUp());

  it(`stop at ${ORDERS_PER_DAY} with a clear message, and start again a day later`, async () => {
    const email = 'busy-buyer@example.com';
    const browser = await buyer(store, 'Busy Buyer', email);
    // Every try keeps its orders, and the buyer's list reads them all: full carts, again and again.
    const cart = Array.from({ length: 50 }, () => ({ productId: 'stripe-test-product' }));
    for (let placed = 0; placed < ORDERS_PER_DAY; placed += cart.length) expect((await startCheckout(browser, cart)).statusCode).toBe(201);
    const count = async () => (await store.app.db.selectFrom('orders').select('id').execute()).length;
    const stored = await count();
    const refused = await startCheckout(browser, cart.slice(0, 1));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(
      `You started ${ORDERS_PER_DAY} orders in the last 24 hours, and we take at most ${ORDERS_PER_DAY} a day online. Pay the ones you started from your orders, or talk to sales for a larger purchase.`,
    );
    expect(await count()).toBe(stored);
    store.advance(24 * 60 * 60 * 1000 + 1000);
    expect((await browser.signIn(email, GOOD_PASSWORD)).statusCode).toBe(200);
    expect((await startCheckout(browser, cart.slice(0, 1))).statusCode).toBe(201);
  });
});
