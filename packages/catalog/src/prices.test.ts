import {
  DMARC_OPTIONS,
  MAX_DOMAINS,
  certificateListCents,
  certificatePlanCents,
  certificatePriceCents,
  certificateSavingsCents,
  certificateSubscriptionCents,
  certificateYearlyCents,
  dmarcOptionFor,
  dmarcPriceCents,
  formatEmailVolume,
  formatUsd,
} from './prices';
import { PRODUCTS } from './products';

describe('certificate plans (spec §9 table)', () => {
  it.each([
    ['verified-mark-certificate', 1, 144720],
    ['verified-mark-certificate', 2, 274968],
    ['verified-mark-certificate', 3, 397980],
    ['government-mark-certificate', 1, 144720],
    ['government-mark-certificate', 2, 274968],
    ['government-mark-certificate', 3, 397980],
    ['common-mark-certificate', 1, 106920],
    ['common-mark-certificate', 2, 203148],
    ['common-mark-certificate', 3, 294030],
    ['modified-registered-mark', 1, 106920],
    ['modified-registered-mark', 2, 203148],
    ['modified-registered-mark', 3, 294030],
  ])('%s for %i year(s) costs %i cents per domain', (productId, years, cents) => {
    expect(certificatePlanCents(productId, years)).toBe(cents);
    const key = `${years}yr` as `${1 | 2 | 3}yr`;
    expect(PRODUCTS[productId as 'verified-mark-certificate'].subscriptionOptions?.[key]?.amount).toBe(cents);
  });

  it('keeps the base prices, the 10% discounts, the year multipliers and same-price extra domains of §9', () => {
    for (const id of ['verified-mark-certificate', 'government-mark-certificate'] as const) {
      expect(PRODUCTS[id]).toMatchObject({ basePricePerDomain: 160800, additionalDomainPrice: 160800, discountOffBase: 10, discountOffSAN: 10 });
    }
    for (const id of ['common-mark-certificate', 'modified-registered-mark'] as const) {
      expect(PRODUCTS[id]).toMatchObject({ basePricePerDomain: 118800, additionalDomainPrice: 118800, discountOffBase: 10, discountOffSAN: 10 });
    }
    expect(PRODUCTS['verified-mark-certificate'].yearMultipliers).toEqual({ '1yr': 100, '2yr': 190, '3yr': 275 });
    expect(PRODUCTS['stripe-test-product'].basePricePerDomain).toBe(100);
    expect(PRODUCTS['bimi-checker'].basePricePerDomain).toBe(0);
  });

  it('prices every domain at the plan amount, from 1 to 250', () => {
    expect(certificatePriceCents({ productId: 'verified-mark-certificate', domains: 3, years: 2 })).toBe(824904);
    expect(certificatePriceCents({ productId: 'common-mark-certificate', domains: MAX_DOMAINS, years: 3 })).toBe(294030 * 250);
    expect(() => certificatePriceCents({ productId: 'verified-mark-certificate', domains: 0, years: 1 })).toThrow('Domains must be a whole number from 1 to 250');
    expect(() => certificatePriceCents({ productId: 'verified-mark-certificate', domains: 251, years: 1 })).toThrow('Domains must be');
    expect(() => certificatePriceCents({ productId: 'verified-mark-certificate', domains: 1.5, years: 1 })).toThrow('Domains must be');
  });

  it('multiplies by logos for the whole subscription', () => {
    expect(certificateSubscriptionCents({ productId: 'verified-mark-certificate', domains: 3, years: 2, logos: 2 })).toBe(1649808);
    expect(() => certificateSubscriptionCents({ productId: 'verified-mark-certificate', domains: 1, years: 1, logos: 0 })).toThrow('Logos must be a whole number from 1 to 10');
    expect(() => certificateSubscriptionCents({ productId: 'verified-mark-certificate', domains: 1, years: 1, logos: 11 })).toThrow('Logos must be');
  });

  it('gives each plan per year and domain, to the cent', () => {
    expect(certificateYearlyCents('verified-mark-certificate', 1)).toBe(144720);
    expect(certificateYearlyCents('verified-mark-certificate', 2)).toBe(137484); // 2749.68 / 2
    expect(certificateYearlyCents('government-mark-certificate', 3)).toBe(132660); // 3979.80 / 3
    expect(certificateYearlyCents('common-mark-certificate', 3)).toBe(98010); // 2940.30 / 3
    expect(() => certificateYearlyCents('common-mark-certificate', 4)).toThrow('Years must be 1, 2 or 3');
  });

  it('refuses years outside 1 to 3 and products that are not certificates', () => {
    expect(() => certificatePlanCents('verified-mark-certificate', 0)).toThrow('Years must be 1, 2 or 3');
    expect(() => certificatePlanCents('verified-mark-certificate', 4)).toThrow('Years must be 1, 2 or 3');
    expect(() => certificatePlanCents('dmarc-plus', 1)).toThrow('Not a certificate');
    expect(() => certificatePlanCents('no-such-product', 1)).toThrow('Not a certificate');
  });

  it('states list price and savings per plan', () => {
    expect(certificateListCents({ productId: 'verified-mark-certificate', domains: 1, years: 2 })).toBe(321600);
    expect(certificateSavingsCents({ productId: 'verified-mark-certificate', domains: 1, years: 1 })).toBe(16080);
    expect(certificateSavingsCents({ productId: 'verified-mark-certificate', domains: 1, years: 3 })).toBe(482400 - 397980);
    expect(certificateSavingsCents({ productId: 'common-mark-certificate', domains: 2, years: 2 })).toBe(2 * (237600 - 203148));
    expect(PRODUCTS['common-mark-certificate'].subscriptionOptions?.['2yr']?.savings).toBe(237600 - 203148);
  });
});

describe('DMARC tables (spec §9)', () => {
  it.each([
    ['dmarc-plus', 100_000, 3599, 43188],
    ['dmarc-plus', 500_000, 5999, 71988],
    ['dmarc-plus', 1_000_000, 11199, 134388],
    ['dmarc-premium', 100_000, 7199, 86388],
    ['dmarc-premium', 500_000, 11199, 134388],
    ['dmarc-premium', 1_000_000, 19199, 230388],
    ['dmarc-premium', 5_000_000, 29999, 359988],
  ])('%s for %i emails costs %i a month and %i a year', (productId, emails, monthly, annual) => {
    expect(dmarcOptionFor(productId, emails)).toEqual({ emails, price: monthly, msrp: monthly, billingPeriod: 'month', annualPrice: annual });
    expect(dmarcPriceCents(productId, emails, 'monthly')).toBe(monthly);
    expect(dmarcPriceCents(productId, emails, 'annual')).toBe(annual);
  });

  it('has exactly the rows of the tables', () => {
    expect(DMARC_OPTIONS['dmarc-plus'].map((o) => o.emails)).toEqual([100_000, 500_000, 1_000_000]);
    expect(DMARC_OPTIONS['dmarc-premium'].map((o) => o.emails)).toEqual([100_000, 500_000, 1_000_000, 5_000_000]);
  });

  it('names the volume rule that is broken', () => {
    expect(() => dmarcOptionFor('dmarc-plus', 200_000)).toThrow('Unsupported email volume');
    expect(() => dmarcOptionFor('dmarc-premium', Number.NaN)).toThrow('Unsupported email volume');
    expect(() => dmarcOptionFor('dmarc-plus', 5_000_000)).toThrow('No pricing option found for email volume');
    expect(() => dmarcOptionFor('verified-mark-certificate', 100_000)).toThrow('Not a DMARC plan');
    expect(() => dmarcPriceCents('dmarc-plus', 100_000, 'weekly')).toThrow('Billing period must be monthly or annual');
  });
});

describe('formatUsd', () => {
  it('writes whole cents as dollars without float rounding', () => {
    expect(formatUsd(274968)).toBe('$2,749.68');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(5)).toBe('$0.05');
    expect(formatUsd(824904)).toBe('$8,249.04');
    expect(formatUsd(-16080)).toBe('-$160.80');
    expect(() => formatUsd(1.5)).toThrow(RangeError);
  });

  it('groups thousands exactly as en-US Intl does, up to the largest safe amount', () => {
    const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    const amounts = [1, 99, 100, 999_99, 1000_00, 123456_78, 1_000_000_00, 98_765_432_10, Number.MAX_SAFE_INTEGER];
    for (let digits = 1; digits <= 15; digits += 1) amounts.push(Number('7'.repeat(digits)), 10 ** digits);
    for (const cents of amounts) {
      expect(formatUsd(cents)).toBe(intl.format(Math.floor(cents / 100)).replace(/\.00$/, '') + '.' + String(cents % 100).padStart(2, '0'));
      expect(formatUsd(-cents)).toBe('-' + formatUsd(cents));
    }
    expect(formatEmailVolume(5_000_000)).toBe('5,000,000 emails');
    expect(formatEmailVolume(100_000)).toBe('100,000 emails');
  });
});
