import type { CartItem } from '@bimi/catalog/cart-items';
import { certificateCartItems, dmarcCartItem } from '@bimi/catalog/cart-items';
import { billingTermOf, quoteLineOf } from './lines';

describe('checkout lines', () => {
  const settings = {};
  const [vmc] = certificateCartItems({ productId: 'verified-mark-certificate', domains: 3, years: 2, logos: 2, sourcePageType: 'product' }, { settings }) as [CartItem];
  const dmarc = dmarcCartItem({ productId: 'dmarc-plus', emailVolume: 1_000_000, billingPeriod: 'monthly', sourcePageType: 'product' }, { settings });

  it('asks the quote for configurations only, one logo per certificate item', () => {
    expect(quoteLineOf({ ...vmc, quantity: 2 })).toEqual({ productId: 'verified-mark-certificate', domains: 3, years: 2, logos: 1, quantity: 2 });
    expect(quoteLineOf(dmarc)).toEqual({ productId: 'dmarc-plus', emailVolume: 1_000_000, billingPeriod: 'monthly', quantity: 1 });
    expect(JSON.stringify(quoteLineOf(vmc))).not.toContain('price');
  });

  it('says how often each line is billed', () => {
    expect(billingTermOf(vmc)).toEqual({ every: 'every 2 years', months: 24 });
    expect(billingTermOf(dmarc)).toEqual({ every: 'every month', months: 1 });
  });
});
