import { readPriceSettings } from './price-settings';

describe('readPriceSettings', () => {
  it('reads the identifiers the bff embedded in the page', () => {
    const config = { newsletterUrl: '/api/newsletter/subscribe', tagManagerId: null, priceSettings: { STRIPE_VMC_1_YEAR_PRICE: 'price_vmc_1' } };
    const doc = { getElementById: (id: string) => (id === 'public-config' ? ({ textContent: JSON.stringify(config) } as HTMLElement) : null) };
    expect(readPriceSettings(doc)).toEqual({ STRIPE_VMC_1_YEAR_PRICE: 'price_vmc_1' });
  });
});
