import { MAX_CHARGE_CENTS, overChargeLimitMessage, quoteCart } from './quote';

const settings = { STRIPE_VMC_2_YEAR_PRICE: 'price_vmc_2', STRIPE_DMARC_PLUS_MONTHLY_PRICE: 'price_dp_m', STRIPE_TEST_PRICE: 'price_test' };
const quiet = { error: jest.fn() };

describe('quoteCart', () => {
  it('prices configurations in cents and sums them', () => {
    const quote = quoteCart(
      [
        { productId: 'verified-mark-certificate', domains: 3, years: 2, logos: 2 },
        { productId: 'dmarc-plus', emailVolume: 500_000, billingPeriod: 'monthly' },
        { productId: 'dmarc-premium', emailVolume: 1_000_000, billingPeriod: 'annual' },
        { productId: 'common-mark-certificate' },
        { productId: 'stripe-test-product' },
        { productId: 'bimi-checker' },
      ],
      settings,
      quiet,
    );
    expect(quote.items).toEqual([
      { productId: 'verified-mark-certificate', unitAmount: 824904, amount: 1649808, quantity: 2, priceId: 'price_vmc_2' },
      { productId: 'dmarc-plus', unitAmount: 5999, amount: 5999, quantity: 1, priceId: 'price_dp_m' },
      { productId: 'dmarc-premium', unitAmount: 230388, amount: 230388, quantity: 1, priceId: null },
      { productId: 'common-mark-certificate', unitAmount: 106920, amount: 106920, quantity: 1, priceId: null },
      { productId: 'stripe-test-product', unitAmount: 100, amount: 100, quantity: 1, priceId: 'price_test' },
      { productId: 'bimi-checker', unitAmount: 0, amount: 0, quantity: 1, priceId: null },
    ]);
    expect(quote.total).toBe(1649808 + 5999 + 230388 + 106920 + 100);
    expect(quote.currency).toBe('usd');
  });

  it('answers an empty cart with a zero total', () => {
    expect(quoteCart([], settings, quiet)).toEqual({ currency: 'usd', items: [], total: 0, payable: true });
  });

  it.each([
    [{ productId: 'gold-plan' }, 'items[1]: Unknown product'],
    [{ productId: 'dmarc-plus', emailVolume: 123 }, 'items[1]: Unsupported email volume'],
    [{ productId: 'dmarc-plus', emailVolume: 5_000_000 }, 'items[1]: No pricing option found for email volume'],
    [{ productId: 'dmarc-plus' }, 'items[1]: Email volume is required for a DMARC plan'],
    // Bought once: the checkout refused two at Pay after the quote had priced them (the review of 2026-11-28).
    [{ productId: 'dmarc-plus', emailVolume: 100_000, quantity: 2 }, 'items[1]: A DMARC plan is bought one at a time: choose a larger email volume instead of several copies'],
    [{ productId: 'dmarc-plus', emailVolume: 100_000, domains: 2 }, 'items[1]: Domains, years and logos apply to certificates only'],
    [{ productId: 'verified-mark-certificate', emailVolume: 100_000 }, 'items[1]: Email volume and billing period apply to DMARC plans only'],
    [{ productId: 'verified-mark-certificate', domains: 251 }, 'items[1]: Domains must be a whole number from 1 to 250'],
    [{ productId: 'verified-mark-certificate', domains: 0 }, 'items[1]: Domains must be a whole number from 1 to 250'],
    [{ productId: 'verified-mark-certificate', years: 4 }, 'items[1]: Years must be 1, 2 or 3'],
    [{ productId: 'verified-mark-certificate', logos: 11 }, 'items[1]: Logos must be a whole number from 1 to 10'],
    [{ productId: 'verified-mark-certificate', quantity: 0 }, 'items[1]: Quantity must be a whole number from 1 to 99'],
    [{ productId: 'stripe-test-product', billingPeriod: 'annual' as const }, 'items[1]: Email volume and billing period apply to DMARC plans only'],
  ])('refuses %j naming the line and the rule', (bad, message) => {
    expect(() => quoteCart([{ productId: 'verified-mark-certificate' }, bad], settings, quiet)).toThrow(message);
  });

  it('refuses a second line of one DMARC plan, as checkout does, and takes the other plan or period beside it', () => {
    const plus = { productId: 'dmarc-plus', emailVolume: 100_000, billingPeriod: 'annual' as const };
    expect(() => quoteCart([plus, { ...plus, emailVolume: 500_000 }], settings, quiet)).toThrow(
      'items[1]: the same plan as items[0] cannot be paid twice in one checkout; choose a larger email volume on that line or buy it in a second checkout',
    );
    expect(quoteCart([plus, { ...plus, billingPeriod: 'monthly' }, { ...plus, productId: 'dmarc-premium' }], settings, quiet).items).toHaveLength(3);
  });

  it("says a cart above the payment provider's one-charge limit is not payable (issue 30, finding 7)", () => {
    expect(MAX_CHARGE_CENTS).toBe(99_999_999);
    // The reviewer's line: 250 domains, 3 years, 10 logos, 99 copies.
    const huge = quoteCart([{ productId: 'verified-mark-certificate', domains: 250, years: 3, logos: 10, quantity: 99 }], settings, quiet);
    expect(huge.total).toBe(98_500_050_000);
    expect(huge.payable).toBe(false);
    expect(overChargeLimitMessage(huge.total)).toContain('$985,000,500.00, more than the $999,999.99');
    // $3,979.80 × 250 domains = $994,950.00: one certificate just under the limit is payable, a second is not.
    expect(quoteCart([{ productId: 'verified-mark-certificate', domains: 250, years: 3 }], settings, quiet)).toMatchObject({ total: 99_495_000, payable: true });
    expect(quoteCart([{ productId: 'verified-mark-certificate', domains: 250, years: 3, logos: 2 }], settings, quiet).payable).toBe(false);
    expect(quoteCart([{ productId: 'stripe-test-product', quantity: 99 }], settings, quiet).payable).toBe(true);
  });
});
