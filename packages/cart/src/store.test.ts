import { certificateCartItems, dmarcCartItem, type CartItem } from '@bimi/catalog/cart-items';
import { toasts } from '@bimi/ui/toasts';
import {
  CART_STORAGE_KEY,
  addItem,
  addToCart,
  DOUBLE_ADD_MS,
  cart,
  clearCart,
  decreaseQuantity,
  increaseQuantity,
  persistCart,
  readStoredCart,
  removeItem,
  replaceItems,
  serializeCart,
  setQuantity,
  updateInCart,
} from './store';

const quiet = { error: () => {} };
const [vmc] = certificateCartItems({ productId: 'verified-mark-certificate', domains: 1, years: 1, logos: 1, sourcePageType: 'product' }, { settings: {}, logger: quiet }) as [CartItem];
const dmarc = dmarcCartItem({ productId: 'dmarc-plus', emailVolume: 500_000, billingPeriod: 'annual', sourcePageType: 'product' }, { settings: {}, logger: quiet });

/** A Storage in memory, and the window's storage events, so the store runs here as in a browser tab. */
class MemoryStorage implements Storage {
  private values = new Map<string, string>();
  failWrites = false;
  get length() {
    return this.values.size;
  }
  clear() {
    this.values.clear();
  }
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  key(index: number) {
    return [...this.values.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.values.delete(key);
  }
  setItem(key: string, value: string) {
    if (this.failWrites) throw new Error('QuotaExceededError');
    this.values.set(key, value);
  }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('cart store', () => {
  beforeEach(() => {
    clearCart();
    toasts.items.splice(0);
  });

  it('derives totalPrice and totalQuantities from the items, in cents', () => {
    addItem(vmc);
    addItem({ ...vmc, quantity: 2 });
    addItem(dmarc);
    expect(cart.items).toHaveLength(2);
    expect(cart.totalQuantities).toBe(4);
    expect(cart.totalPrice).toBe(3 * 144720 + 71988);
  });

  it('increases and decreases, never below 1', () => {
    addItem(vmc);
    increaseQuantity(vmc.uniqueId);
    expect(cart.items[0]?.quantity).toBe(2);
    decreaseQuantity(vmc.uniqueId);
    decreaseQuantity(vmc.uniqueId);
    expect(cart.items[0]?.quantity).toBe(1);
    setQuantity(vmc.uniqueId, -5);
    expect(cart.items[0]?.quantity).toBe(1);
    setQuantity(vmc.uniqueId, Number.NaN);
    expect(cart.items[0]?.quantity).toBe(1);
    setQuantity(vmc.uniqueId, 1000);
    expect(cart.items[0]?.quantity).toBe(99);
  });

  it('holds one of a DMARC plan: adding it again or increasing it keeps one, and a stored cart of two loads one', () => {
    addItem(dmarc);
    increaseQuantity(dmarc.uniqueId);
    setQuantity(dmarc.uniqueId, 5);
    expect(cart.items.map((item) => item.quantity)).toEqual([1]);
    // The plan added again from its page (a new item, a uniqueId of its own): the new volume takes the line's place.
    const again = dmarcCartItem({ productId: 'dmarc-plus', emailVolume: 100_000, billingPeriod: 'annual', sourcePageType: 'product' }, { settings: {}, logger: quiet });
    addItem(vmc);
    addItem(again);
    expect(cart.items.map((item) => [item.uniqueId, item.quantity])).toEqual([
      [again.uniqueId, 1],
      [vmc.uniqueId, 1],
    ]);
    // Another plan, or the same plan billed monthly, is a line of its own.
    addItem(dmarcCartItem({ productId: 'dmarc-plus', emailVolume: 100_000, billingPeriod: 'monthly', sourcePageType: 'product' }, { settings: {}, logger: quiet }));
    expect(cart.items).toHaveLength(3);
    expect(readStoredCart(serializeCart([{ ...dmarc, quantity: 2 }, again])).map((item) => [item.uniqueId, item.quantity])).toEqual([[again.uniqueId, 1]]);
  });

  it('removes a line and clears the cart', () => {
    addItem(vmc);
    addItem(dmarc);
    removeItem(vmc.uniqueId);
    expect(cart.items.map((item) => item.id)).toEqual(['dmarc-plus']);
    clearCart();
    expect(cart.totalQuantities).toBe(0);
  });

  it('refuses an invalid item without changing the cart', () => {
    addItem(vmc);
    expect(() => addItem({ ...vmc, uniqueId: 'u2', price: 1.5 })).toThrow();
    expect(() => addItem({ ...vmc, uniqueId: 'u3', certId: 'X1234567' })).toThrow();
    expect(cart.items).toHaveLength(1);
  });
});

describe("replacing an edited line (the drawer's Edit action)", () => {
  beforeEach(() => {
    clearCart();
    toasts.items.splice(0);
  });
  const edited = (logos: number) => certificateCartItems({ productId: 'verified-mark-certificate', domains: 3, years: 2, logos, sourcePageType: 'product' }, { settings: {}, logger: quiet });

  it('puts the new items where the line was, leaving the other lines alone', () => {
    addItem(dmarc);
    addItem(vmc);
    const [other] = edited(1) as [CartItem];
    addItem(other);
    const replacement = edited(2);
    expect(replaceItems(vmc.uniqueId, replacement)).toBe(true);
    expect(cart.items.map((item) => item.uniqueId)).toEqual([dmarc.uniqueId, ...replacement.map((item) => item.uniqueId), other.uniqueId]);
    expect(cart.items.some((item) => item.uniqueId === vmc.uniqueId)).toBe(false);
    expect(cart.items[1]?.options).toEqual({ domain: 3, year: 2, logo: 1 });
  });

  it('replaces every logo of an edited set: 3 logos on a 2-logo set leave 3 certificates, not 4 (issue 30, finding 5)', () => {
    const cmc = (logos: number) => certificateCartItems({ productId: 'common-mark-certificate', domains: 1, years: 1, logos, sourcePageType: 'product' }, { settings: {}, logger: quiet });
    addItem(dmarc);
    const twoLogos = cmc(2);
    for (const item of twoLogos) addItem(item);
    const threeLogos = cmc(3);
    // Edit on "Logo 2 of 2".
    expect(replaceItems(twoLogos[1]!.uniqueId, threeLogos)).toBe(true);
    expect(cart.items.map((item) => item.uniqueId)).toEqual([dmarc.uniqueId, ...threeLogos.map((item) => item.uniqueId)]);
    expect(cart.items.filter((item) => item.id === 'common-mark-certificate').map((item) => `${item.logoIndex}/${item.logoCount}`)).toEqual(['1/3', '2/3', '3/3']);
    // Spec §9: 3 × $1,069.20 for the common mark's 1-year plan, 1 domain.
    expect(cart.items.filter((item) => item.id === 'common-mark-certificate').reduce((sum, item) => sum + item.price * item.quantity, 0)).toBe(320_760);
  });

  it('replaces a set stored without a setId by its neighbours of the same configuration, and no other set', () => {
    const strip = (items: CartItem[]) => items.map(({ setId: _setId, ...item }) => item as CartItem);
    const first = strip(edited(2));
    const second = strip(edited(2));
    for (const item of [...first, ...second]) addItem(item);
    const replacement = edited(1);
    expect(replaceItems(first[0]!.uniqueId, replacement)).toBe(true);
    expect(cart.items.map((item) => item.uniqueId)).toEqual([replacement[0]!.uniqueId, ...second.map((item) => item.uniqueId)]);
  });

  it('appends the items when the line was removed meanwhile', () => {
    addItem(dmarc);
    const replacement = edited(1);
    expect(replaceItems(vmc.uniqueId, replacement)).toBe(false);
    expect(cart.items.map((item) => item.uniqueId)).toEqual([dmarc.uniqueId, replacement[0]?.uniqueId]);
  });

  it('changes nothing when an item is refused, and says so', () => {
    addItem(vmc);
    expect(() => replaceItems(vmc.uniqueId, [{ ...vmc, uniqueId: 'u9', price: -1 }])).toThrow();
    expect(updateInCart('Verified Mark Certificate', vmc.uniqueId, () => [{ ...vmc, uniqueId: 'u9', quantity: 0 }])).toBe(false);
    expect(cart.items.map((item) => item.uniqueId)).toEqual([vmc.uniqueId]);
    expect(toasts.items.map((toast) => toast.message)).toEqual(['Failed to update Verified Mark Certificate in cart: the item is not valid']);
  });

  it('says "{name} updated in cart"', () => {
    addItem(vmc);
    expect(updateInCart('Verified Mark Certificate', vmc.uniqueId, () => edited(1))).toBe(true);
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]?.options.domain).toBe(3);
    expect(toasts.items.map((toast) => [toast.message, toast.severity])).toEqual([['Verified Mark Certificate updated in cart', 'success']]);
  });
});

describe('addToCart toasts (spec §8)', () => {
  beforeEach(() => {
    clearCart();
    toasts.items.splice(0);
  });

  it('takes a double click as one add: the same configuration again at once adds nothing, later it adds one more', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    try {
      const build = () => [{ ...vmc, logoCount: 1 }];
      expect(addToCart('Verified Mark Certificate', build)).toBe(true);
      now.mockReturnValue(1_000_000 + DOUBLE_ADD_MS - 1);
      expect(addToCart('Verified Mark Certificate', build)).toBe(true);
      expect(cart.items).toHaveLength(1);
      expect(toasts.items).toHaveLength(1);
      now.mockReturnValue(1_000_000 + 2 * DOUBLE_ADD_MS);
      addToCart('Verified Mark Certificate', build);
      expect(cart.items.reduce((sum, item) => sum + item.quantity, 0)).toBe(2);
    } finally {
      now.mockRestore();
    }
  });

  it('says "{name} added to cart" for one item', () => {
    expect(addToCart('DMARC Plus', () => [dmarc])).toBe(true);
    expect(toasts.items.map((toast) => [toast.message, toast.severity])).toEqual([['DMARC Plus added to cart', 'success']]);
  });

  it('says "{n} {name} certificates added to cart" for several logos', () => {
    const settings = {};
    addToCart('Verified Mark Certificate', () =>
      certificateCartItems({ productId: 'verified-mark-certificate', domains: 3, years: 2, logos: 3, sourcePageType: 'product' }, { settings, logger: quiet }),
    );
    expect(toasts.items[0]?.message).toBe('3 Verified Mark Certificates added to cart');
    expect(cart.items.map((item) => item.price)).toEqual([824904, 824904, 824904]);
  });

  it('says "Failed to add {name} to cart: {reason}" and adds nothing when the items are refused', () => {
    expect(addToCart('DMARC Plus', () => [dmarcCartItem({ productId: 'dmarc-plus', emailVolume: 5_000_000, billingPeriod: 'monthly', sourcePageType: 'product' }, { settings: {} })])).toBe(
      false,
    );
    expect(addToCart('Verified Mark Certificate', () => [{ ...vmc, quantity: 0 }])).toBe(false);
    expect(toasts.items.map((toast) => [toast.message, toast.severity])).toEqual([
      ['Failed to add DMARC Plus to cart: No pricing option found for email volume', 'error'],
      ['Failed to add Verified Mark Certificate to cart: the item is not valid', 'error'],
    ]);
    expect(cart.items).toEqual([]);
  });
});

describe('stored cart', () => {
  it('keeps valid data and discards corrupt or outdated data with a warning', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    expect(readStoredCart(null)).toEqual([]);
    expect(readStoredCart('{not json')).toEqual([]);
    expect(readStoredCart(JSON.stringify({ items: 'x' }))).toEqual([]);
    // The version-1 shape of the first cart: outdated.
    expect(readStoredCart(JSON.stringify({ version: 1, items: [{ uniqueId: 'u1', id: 'verified-mark-certificate', name: 'VMC', quantity: 1, price: 144720 }] }))).toEqual([]);
    expect(readStoredCart(JSON.stringify({ version: 2, items: [vmc, { ...dmarc, price: 'free' }] }))).toEqual([vmc]);
    expect(readStoredCart(serializeCart([vmc, dmarc]))).toEqual([vmc, dmarc]);
    expect(warn).toHaveBeenCalledTimes(4);
    warn.mockRestore();
  });

  it('loads on start, saves every change, and follows other tabs', async () => {
    const storage = new MemoryStorage();
    storage.setItem(CART_STORAGE_KEY, serializeCart([vmc]));
    const events = new EventTarget();
    cart.loaded = false;
    const stop = persistCart(storage, events as unknown as Window);
    try {
      expect(cart.items).toEqual([vmc]);
      expect(cart.loaded).toBe(true);
      addItem(dmarc);
      await flush();
      expect(readStoredCart(storage.getItem(CART_STORAGE_KEY))).toEqual([vmc, dmarc]);

      // Another tab removed the certificate.
      const event = new Event('storage') as StorageEvent;
      Object.assign(event, { key: CART_STORAGE_KEY, newValue: serializeCart([dmarc]) });
      events.dispatchEvent(event);
      expect(cart.items).toEqual([dmarc]);

      // Another tab wrote something unreadable: the cart empties, it does not crash.
      const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
      const corrupt = new Event('storage') as StorageEvent;
      Object.assign(corrupt, { key: CART_STORAGE_KEY, newValue: '{{' });
      events.dispatchEvent(corrupt);
      expect(cart.items).toEqual([]);

      // Storage that refuses writes costs persistence, not the cart.
      storage.failWrites = true;
      addItem(vmc);
      await flush();
      expect(cart.items).toEqual([vmc]);
      expect(warn).toHaveBeenCalledWith('[cart] local storage refused the cart; it will not survive a reload');
      warn.mockRestore();
    } finally {
      stop();
    }
  });
});
