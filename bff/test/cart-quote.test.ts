import { loadConfig } from '../src/config';
import { startTestStore, type TestStore } from './fixtures';

const PRICES = {
  STRIPE_VMC_1_YEAR_PRICE: 'price_vmc_1',
  STRIPE_VMC_2_YEAR_PRICE: 'price_vmc_2',
  STRIPE_DMARC_PREMIUM_ANNUAL_PRICE: 'price_dmarc_premium_annual',
  STRIPE_VMC_2_YEAR_PRODUCT: 'prod_vmc',
};

function quote(store: TestStore, payload: unknown) {
  return store.app.inject({ method: 'POST', url: '/api/cart/quote', payload: payload as object });
}

describe('POST /api/cart/quote', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await startTestStore(PRICES);
  });
  afterEach(() => store.cleanUp());

  it('prices each configuration in cents, with its price identifier, and sums them', async () => {
    const response = await quote(store, {
      items: [
        { productId: 'verified-mark-certificate', domains: 3, years: 2, logos: 2 },
        { productId: 'dmarc-premium', emailVolume: 5_000_000, billingPeriod: 'annual' },
        { productId: 'dmarc-plus', emailVolume: 100_000, billingPeriod: 'monthly' },
        { productId: 'common-mark-certificate', years: 3, quantity: 2 },
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      currency: 'usd',
      items: [
        { productId: 'verified-mark-certificate', unitAmount: 824904, amount: 1649808, quantity: 2, priceId: 'price_vmc_2' },
        { productId: 'dmarc-premium', unitAmount: 359988, amount: 359988, quantity: 1, priceId: 'price_dmarc_premium_annual' },
        { productId: 'dmarc-plus', unitAmount: 3599, amount: 3599, quantity: 1, priceId: null },
        { productId: 'common-mark-certificate', unitAmount: 294030, amount: 588060, quantity: 2, priceId: null },
      ],
      total: 1649808 + 359988 + 3599 + 588060,
      payable: true,
    });
    // Missing identifiers are logged (console-only, spec §8), not shown to the visitor: with the
    // built-in test payments (no Stripe price needed) as information, once per identifier.
    const logged = () => store.logs.messages(30).filter((message) => message.startsWith('price identifier'));
    expect(logged()).toEqual(expect.arrayContaining([expect.stringContaining('STRIPE_DMARC_PLUS_MONTHLY_PRICE'), expect.stringContaining('STRIPE_CMC_3_YEAR_PRICE')]));
    const once = logged().length;
    expect((await quote(store, { items: [{ productId: 'dmarc-plus', emailVolume: 100_000, billingPeriod: 'monthly' }] })).statusCode).toBe(200);
    expect(logged()).toHaveLength(once);
    expect(store.logs.messages(50).filter((message) => message.includes('STRIPE_DMARC_PLUS_MONTHLY_PRICE'))).toEqual([]);
  });

  it('ignores any amount the client sends', async () => {
    const response = await quote(store, { items: [{ productId: 'verified-mark-certificate', price: 1, unitAmount: 1, amount: 1 }] });
    expect(response.statusCode).toBe(200);
    expect(response.json().total).toBe(144720);
  });

  it.each([
    [{ productId: 'dmarc-plus', emailVolume: 250_000 }, 'items[1]: Unsupported email volume'],
    [{ productId: 'dmarc-plus', emailVolume: 5_000_000 }, 'items[1]: No pricing option found for email volume'],
    [{ productId: 'verified-mark-certificate', domains: 251 }, 'items[1]: Domains must be a whole number from 1 to 250'],
    [{ productId: 'verified-mark-certificate', years: 0 }, 'items[1]: Years must be 1, 2 or 3'],
    [{ productId: 'platinum-plan' }, 'items[1]: Unknown product'],
  ])('answers 400 naming the line and the rule for %j', async (bad, message) => {
    const response = await quote(store, { items: [{ productId: 'verified-mark-certificate' }, bad] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message });
  });

  it.each([
    [{}, 'items'],
    [{ items: 'everything' }, 'items'],
    [{ items: [{ productId: 'verified-mark-certificate', domains: '3' }] }, 'domains'],
    [{ items: [{ productId: 'verified-mark-certificate', domains: 2.5 }] }, 'domains'],
    [{ items: [{ productId: 'dmarc-plus', emailVolume: 100_000, billingPeriod: 'weekly' }] }, 'billingPeriod'],
    [{ items: Array.from({ length: 101 }, () => ({ productId: 'bimi-checker' })) }, 'items'],
  ])('answers 400 for a malformed body %#', async (payload, field) => {
    const response = await quote(store, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(field);
  });

  it('hands the configured identifiers to the browser in the public config', async () => {
    const response = await store.app.inject({ method: 'GET', url: '/api/public-config' });
    expect(response.json().priceSettings).toEqual(PRICES);
  });
});

describe('price settings in the configuration', () => {
  it('refuses an identifier that could break out of the page', () => {
    expect(() => loadConfig({ STRIPE_VMC_1_YEAR_PRICE: 'price_1"</script>' })).toThrow('STRIPE_VMC_1_YEAR_PRICE must be a price or product identifier');
  });

  it('treats an empty setting as unset and logs every unset price at start', async () => {
    const store = await startTestStore({ STRIPE_VMC_1_YEAR_PRICE: '', STRIPE_CMC_1_YEAR_PRICE: 'price_cmc_1' });
    try {
      expect(store.app.config.priceSettings).toEqual({ STRIPE_CMC_1_YEAR_PRICE: 'price_cmc_1' });
      const note = store.logs.messages().find((line) => line.startsWith('payments: price settings'));
      expect(note).toContain('STRIPE_VMC_1_YEAR_PRICE');
      expect(note).not.toContain('STRIPE_CMC_1_YEAR_PRICE');
      expect(note).not.toContain('_PRODUCT');
    } finally {
      await store.cleanUp();
    }
  });
});
