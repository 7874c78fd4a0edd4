import { certificateCartItems, type CartItem } from '@bimi/catalog/cart-items';
import { editLink } from './edit-link';

describe("a certificate line's Edit link", () => {
  const build = (logos: number) => certificateCartItems({ productId: 'verified-mark-certificate', domains: 3, years: 2, logos, sourcePageType: 'product' }, { settings: {} });

  it('opens the configurator with the logos the cart holds of that set (issue 30, finding 5)', () => {
    const set = build(2);
    const other = build(1);
    const items: CartItem[] = [...other, ...set];
    const link = new URL(editLink(set[1] as CartItem, items) ?? '', 'http://store.test');
    expect(link.pathname).toBe('/products/digicert-verified-mark-certificate');
    expect(Object.fromEntries(link.searchParams)).toEqual({ domains: '3', years: '2', logos: '2', trademark: 'Registered', edit: set[1]?.uniqueId });
    // One logo of the set removed: the cart shows one certificate, and so does Edit.
    expect(new URL(editLink(set[0] as CartItem, [set[0] as CartItem]) ?? '', 'http://store.test').searchParams.get('logos')).toBe('1');
    expect(new URL(editLink(other[0] as CartItem, items) ?? '', 'http://store.test').searchParams.get('logos')).toBe('1');
  });
});
