import { PRICE_SETTING_NAMES, productWithIdentifiers, resolvePriceId, resolveProductId } from './price-ids';
import { PRODUCTS } from './products';

function recordingLogger() {
  const errors: string[] = [];
  return { errors, logger: { error: (message: string) => errors.push(message) } };
}

const settings = {
  STRIPE_VMC_1_YEAR_PRICE: 'price_vmc_1',
  STRIPE_VMC_2_YEAR_PRICE: 'price_vmc_2',
  STRIPE_VMC_3_YEAR_PRICE: 'price_vmc_3',
  STRIPE_CMC_1_YEAR_PRICE: 'price_cmc_1',
  STRIPE_CMC_2_YEAR_PRICE: 'price_cmc_2',
  STRIPE_GMC_3_YEAR_PRICE: 'price_gmc_3',
  STRIPE_VMC_2_YEAR_PRODUCT: 'prod_vmc_2',
  STRIPE_DMARC_PLUS_ANNUAL_PRICE: 'price_dmarc_plus_annual',
  STRIPE_DMARC_PLUS_PRODUCT: 'prod_dmarc_plus',
};

describe('resolvePriceId (spec §5)', () => {
  it('takes the identifier on the item first', () => {
    const { errors, logger } = recordingLogger();
    const subscriptionOptions = { '1yr': { priceId: 'price_VMC_from_options' } };
    expect(resolvePriceId({ id: 'verified-mark-certificate', priceId: 'price_vmc_item', subscriptionOptions }, settings, logger)).toBe('price_vmc_item');
    expect(errors).toEqual([]);
  });

  it('then the one in subscriptionOptions for the chosen year', () => {
    const { errors, logger } = recordingLogger();
    const subscriptionOptions = { '1yr': { priceId: 'price_vmc_opt1' }, '2yr': { priceId: 'price_vmc_opt2' } };
    expect(resolvePriceId({ id: 'verified-mark-certificate', subscriptionOptions, options: { year: 2 } }, settings, logger)).toBe('price_vmc_opt2');
    expect(errors).toEqual([]);
  });

  it('then the configured STRIPE_{prefix}_{years}_YEAR_PRICE, with year 1 by default', () => {
    const { errors, logger } = recordingLogger();
    expect(resolvePriceId({ id: 'verified-mark-certificate' }, settings, logger)).toBe('price_vmc_1');
    expect(resolvePriceId({ id: 'verified-mark-certificate', options: { year: 3 } }, settings, logger)).toBe('price_vmc_3');
    expect(resolvePriceId({ id: 'government-mark-certificate', options: { year: 3 } }, settings, logger)).toBe('price_gmc_3');
    expect(resolvePriceId({ id: 'common-mark-certificate', options: { year: 2 } }, settings, logger)).toBe('price_cmc_2');
    expect(resolvePriceId({ id: 'dmarc-plus', billingPeriod: 'annual' }, settings, logger)).toBe('price_dmarc_plus_annual');
    expect(errors).toEqual([]);
  });

  it('gives the modified registered mark the common mark identifiers', () => {
    const { errors, logger } = recordingLogger();
    expect(resolvePriceId({ id: 'modified-registered-mark', options: { year: 2 } }, settings, logger)).toBe('price_cmc_2');
    expect(resolvePriceId({ id: 'modified-registered-mark', priceId: 'price_CMC_custom' }, settings, logger)).toBe('price_CMC_custom');
    expect(resolvePriceId({ id: 'modified-registered-mark', priceId: 'price_vmc_wrong' }, settings, logger)).toBe('price_cmc_1');
    expect(errors).toHaveLength(1);
  });

  it('checks vmc, cmc and gmc case-insensitively', () => {
    const { errors, logger } = recordingLogger();
    expect(resolvePriceId({ id: 'verified-mark-certificate', priceId: 'price_1VMCabc' }, settings, logger)).toBe('price_1VMCabc');
    expect(resolvePriceId({ id: 'common-mark-certificate', priceId: 'Price_Cmc_9' }, settings, logger)).toBe('Price_Cmc_9');
    expect(resolvePriceId({ id: 'government-mark-certificate', priceId: 'gMc' }, settings, logger)).toBe('gMc');
    expect(errors).toEqual([]);
  });

  it.each([
    ['verified-mark-certificate', 'price_cmc_x', 'price_vmc_1', 'vmc'],
    ['common-mark-certificate', 'price_vmc_x', 'price_cmc_1', 'cmc'],
    ['government-mark-certificate', 'price_vmc_x', undefined, 'gmc'],
  ] as const)('logs a mismatched identifier on %s as an error and uses configuration instead', (id, priceId, expected, marker) => {
    const { errors, logger } = recordingLogger();
    expect(resolvePriceId({ id, priceId }, settings, logger)).toBe(expected);
    expect(errors[0]).toContain(`does not contain "${marker}"`);
    expect(errors[0]).toContain(priceId);
  });

  it('applies the same check to an identifier from subscriptionOptions', () => {
    const { errors, logger } = recordingLogger();
    const subscriptionOptions = { '2yr': { priceId: 'price_gmc_2' } };
    expect(resolvePriceId({ id: 'verified-mark-certificate', subscriptionOptions, options: { year: 2 } }, settings, logger)).toBe('price_vmc_2');
    expect(errors).toHaveLength(1);
  });

  it('logs an error and answers undefined when nothing is found', () => {
    const { errors, logger } = recordingLogger();
    expect(resolvePriceId({ id: 'government-mark-certificate', options: { year: 1 } }, settings, logger)).toBeUndefined();
    expect(errors).toEqual(['[price-id] government-mark-certificate: no price identifier for 1 year(s); set STRIPE_GMC_1_YEAR_PRICE']);
    expect(resolvePriceId({ id: 'verified-mark-certificate' }, {}, logger)).toBeUndefined();
    expect(resolvePriceId({ id: 'dmarc-premium', billingPeriod: 'monthly' }, settings, logger)).toBeUndefined();
    expect(errors[2]).toContain('STRIPE_DMARC_PREMIUM_MONTHLY_PRICE');
    expect(resolvePriceId({ id: 'bimi-checker' }, settings, logger)).toBeUndefined();
    expect(errors[3]).toContain('has no price identifier');
  });

  it('treats an empty configured value as missing', () => {
    const { errors, logger } = recordingLogger();
    expect(resolvePriceId({ id: 'verified-mark-certificate' }, { STRIPE_VMC_1_YEAR_PRICE: '' }, logger)).toBeUndefined();
    expect(errors).toHaveLength(1);
  });

  it('refuses a year outside 1 to 3 with an error', () => {
    const { errors, logger } = recordingLogger();
    expect(resolvePriceId({ id: 'verified-mark-certificate', options: { year: 4 } }, settings, logger)).toBeUndefined();
    expect(errors[0]).toContain('year 4 is outside 1 to 3');
  });
});

describe('price settings', () => {
  it('names every identifier the store reads', () => {
    expect(PRICE_SETTING_NAMES).toContain('STRIPE_VMC_1_YEAR_PRICE');
    expect(PRICE_SETTING_NAMES).toContain('STRIPE_GMC_3_YEAR_PRODUCT');
    expect(PRICE_SETTING_NAMES).toContain('STRIPE_DMARC_PREMIUM_ANNUAL_PRICE');
    expect(PRICE_SETTING_NAMES).toContain('STRIPE_TEST_PRICE');
    expect(PRICE_SETTING_NAMES).toHaveLength(3 * 3 * 2 + 2 * 3 + 2);
    expect(new Set(PRICE_SETTING_NAMES).size).toBe(PRICE_SETTING_NAMES.length);
  });

  it('fills configured identifiers into a product', () => {
    const vmc = productWithIdentifiers(PRODUCTS['verified-mark-certificate'], settings);
    expect(vmc.subscriptionOptions?.['2yr']).toMatchObject({ amount: 274968, priceId: 'price_vmc_2', productId: 'prod_vmc_2' });
    expect(vmc.subscriptionOptions?.['3yr']?.productId).toBeUndefined();
    expect(PRODUCTS['verified-mark-certificate'].subscriptionOptions?.['2yr']?.priceId).toBeUndefined();
    expect(resolveProductId('dmarc-plus', 1, settings)).toBe('prod_dmarc_plus');
    expect(resolveProductId('bimi-checker', 1, settings)).toBeUndefined();
  });
});
