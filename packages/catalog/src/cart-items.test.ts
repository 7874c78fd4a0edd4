import { CartItem, certificateCartItems, cmcTypeFor, dmarcCartItem, generateCertId } from './cart-items';

const settings = { STRIPE_VMC_2_YEAR_PRICE: 'price_vmc_2', STRIPE_VMC_2_YEAR_PRODUCT: 'prod_vmc_2', STRIPE_DMARC_PREMIUM_ANNUAL_PRICE: 'price_dp_a' };
const quiet = { error: jest.fn() };

describe('certId and cmcType (spec §3)', () => {
  it.each([
    ['verified-mark-certificate', 'V'],
    ['modified-registered-mark', 'M'],
    ['common-mark-certificate', 'C'],
    ['government-mark-certificate', 'G'],
    ['dmarc-plus', 'N'],
    ['stripe-test-product', 'N'],
  ] as const)('%s gets a certId of %s and 7 digits', (productId, letter) => {
    for (let i = 0; i < 20; i++) expect(generateCertId(productId)).toMatch(new RegExp(`^${letter}\\d{7}$`));
  });

  it('pads small random numbers to 7 digits', () => {
    expect(generateCertId('common-mark-certificate', (bytes) => bytes.fill(0))).toBe('C0000000');
  });

  it('names the common mark type', () => {
    expect(cmcTypeFor('common-mark-certificate')).toBe('Prior Use Mark');
    expect(cmcTypeFor('modified-registered-mark')).toBe('Modified Registered Mark');
    expect(cmcTypeFor('verified-mark-certificate')).toBeNull();
    expect(cmcTypeFor('government-mark-certificate')).toBeNull();
  });
});

describe('certificateCartItems', () => {
  it('makes one item per logo, each priced from the plan for its domains and years', () => {
    const items = certificateCartItems(
      { productId: 'verified-mark-certificate', domains: 3, years: 2, logos: 2, trademarkStatus: 'Pending', sourcePageType: 'product' },
      { settings, logger: quiet },
    );
    expect(items).toHaveLength(2);
    items.forEach((item, index) => {
      expect(CartItem.parse(item)).toEqual(item);
      expect(item).toMatchObject({
        id: 'verified-mark-certificate',
        name: 'Verified Mark Certificate',
        quantity: 1,
        price: 824904,
        basePrice: 160800 * 3 * 2,
        options: { domain: 3, year: 2, logo: index + 1 },
        isSubscription: true,
        priceId: 'price_vmc_2',
        productId: 'prod_vmc_2',
        logoIndex: index + 1,
        logoCount: 2,
        cmcType: null,
        trademarkStatus: 'Pending',
        sourcePageType: 'product',
      });
      expect(item.certId).toMatch(/^V\d{7}$/);
    });
    expect(items[0]?.uniqueId).not.toBe(items[1]?.uniqueId);
  });

  it('defaults a government mark to a Federal agency and records the common mark type', () => {
    const [gmc] = certificateCartItems({ productId: 'government-mark-certificate', domains: 1, years: 1, logos: 1, sourcePageType: 'product' }, { settings: {}, logger: quiet });
    expect(gmc).toMatchObject({ agencyLevel: 'Federal', price: 144720, priceId: null, productId: null });
    expect(gmc?.trademarkStatus).toBeUndefined();
    const [modified] = certificateCartItems({ productId: 'modified-registered-mark', domains: 1, years: 3, logos: 1, sourcePageType: 'landing' }, { settings: {}, logger: quiet });
    expect(modified).toMatchObject({ cmcType: 'Modified Registered Mark', price: 294030, trademarkStatus: 'Registered' });
    expect(modified?.certId).toMatch(/^M\d{7}$/);
  });

  it('refuses a configuration the rules do not allow', () => {
    const build = (domains: number, years: number, logos: number) =>
      certificateCartItems({ productId: 'verified-mark-certificate', domains, years, logos, sourcePageType: 'product' }, { settings, logger: quiet });
    expect(() => build(251, 1, 1)).toThrow('Domains must be a whole number from 1 to 250');
    expect(() => build(1, 4, 1)).toThrow('Years must be 1, 2 or 3');
    expect(() => build(1, 1, 0)).toThrow('Logos must be a whole number from 1 to 10');
  });
});

describe('dmarcCartItem', () => {
  it('records the volume, both prices and the tier quantity', () => {
    const item = dmarcCartItem({ productId: 'dmarc-premium', emailVolume: 5_000_000, billingPeriod: 'annual', sourcePageType: 'product' }, { settings, logger: quiet });
    expect(item).toMatchObject({
      id: 'dmarc-premium',
      price: 359988,
      basePrice: 359988,
      emailVolume: 5_000_000,
      stripeQuantity: 5000,
      monthlyPrice: 29999,
      annualPrice: 359988,
      msrp: 29999,
      dmarcProductId: 'dmarc-premium',
      productType: 'dmarc',
      billingPeriod: 'annual',
      priceId: 'price_dp_a',
      cmcType: null,
      isSubscription: true,
    });
    expect(item.certId).toMatch(/^N\d{7}$/);
    const monthly = dmarcCartItem({ productId: 'dmarc-plus', emailVolume: 100_000, billingPeriod: 'monthly', sourcePageType: 'product' }, { settings, logger: quiet });
    expect(monthly).toMatchObject({ price: 3599, annualPrice: 43188, stripeQuantity: 100 });
  });

  it('refuses volumes outside the tables with the spec messages', () => {
    const build = (productId: 'dmarc-plus' | 'dmarc-premium', emailVolume: number) =>
      dmarcCartItem({ productId, emailVolume, billingPeriod: 'monthly', sourcePageType: 'product' }, { settings, logger: quiet });
    expect(() => build('dmarc-plus', 250_000)).toThrow('Unsupported email volume');
    expect(() => build('dmarc-plus', 5_000_000)).toThrow('No pricing option found for email volume');
  });
});
