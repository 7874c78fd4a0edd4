import { billingInterval, describeConfiguration } from './order-lines';

describe('order lines', () => {
  it.each([
    [{ productId: 'verified-mark-certificate', domains: 3, years: 2 }, '3 domains · 2 years'],
    [{ productId: 'verified-mark-certificate', domains: 1, years: 1, logos: 2, quantity: 3 }, '1 domain · 1 year · 2 logos · × 3'],
    [{ productId: 'dmarc-plus', emailVolume: 1_000_000, billingPeriod: 'monthly' as const }, '1,000,000 emails · monthly'],
    [{ productId: 'dmarc-plus', emailVolume: 500_000, billingPeriod: 'annual' as const }, '500,000 emails · yearly'],
  ])('describes %j as "%s"', (line, words) => {
    expect(describeConfiguration(line)).toBe(words);
  });

  it('renews a certificate every `years` years and a DMARC plan monthly or yearly', () => {
    expect(billingInterval({ productId: 'common-mark-certificate', years: 3 })).toEqual({ interval: 'year', intervalCount: 3 });
    expect(billingInterval({ productId: 'dmarc-plus', billingPeriod: 'monthly' })).toEqual({ interval: 'month', intervalCount: 1 });
    expect(billingInterval({ productId: 'dmarc-plus', billingPeriod: 'annual' })).toEqual({ interval: 'year', intervalCount: 1 });
  });
});
