import { readPriceSettings, setPriceSettings } from './price-settings';

const page = (text: string | null) => ({ getElementById: (id: string) => (id === 'public-config' && text !== null ? ({ textContent: text } as HTMLElement) : null) });

describe('price settings', () => {
  it('has none before the shell hands them over or a page embeds them', () => {
    expect(readPriceSettings(page(null))).toEqual({});
  });

  it('falls back to nothing, with a warning, when the embedded config is not valid', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    expect(readPriceSettings(page('{"priceSettings": 3}'))).toEqual({});
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('uses what the shell hands over, read once from the public config', () => {
    setPriceSettings({ STRIPE_VMC_1_YEAR_PRICE: 'price_vmc_1' });
    expect(readPriceSettings(page(null))).toEqual({ STRIPE_VMC_1_YEAR_PRICE: 'price_vmc_1' });
  });
});

describe('price settings embedded in the page', () => {
  it('reads the identifiers the bff embedded when no shell handed any over', async () => {
    jest.resetModules();
    const { readPriceSettings: read } = await import('./price-settings');
    const config = { newsletterUrl: '/api/newsletter/subscribe', tagManagerId: null, priceSettings: { STRIPE_CMC_2_YEAR_PRICE: 'price_cmc_2' } };
    expect(read(page(JSON.stringify(config)))).toEqual({ STRIPE_CMC_2_YEAR_PRICE: 'price_cmc_2' });
  });
});
