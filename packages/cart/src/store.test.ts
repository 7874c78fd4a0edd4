import { addItem, cart, cartCount, cartTotal, clearCart, readStoredCart, removeItem, setQuantity } from './store';

const vmc = { uniqueId: 'u1', id: 'verified-mark-certificate', name: 'Verified Mark Certificate', quantity: 1, price: 144720 };

describe('cart store', () => {
  beforeEach(() => clearCart());

  it('adds, merges the same line, and derives count and total in cents', () => {
    addItem(vmc);
    addItem({ ...vmc, quantity: 2 });
    expect(cart.items).toHaveLength(1);
    expect(cartCount(cart.items)).toBe(3);
    expect(cartTotal(cart.items)).toBe(434160);
  });

  it('never lets a quantity fall below 1', () => {
    addItem(vmc);
    setQuantity('u1', 0);
    expect(cart.items[0]?.quantity).toBe(1);
    setQuantity('u1', -5);
    expect(cart.items[0]?.quantity).toBe(1);
  });

  it('removes a line and refuses an invalid item without changing the cart', () => {
    addItem(vmc);
    expect(() => addItem({ ...vmc, uniqueId: 'u2', price: 1.5 })).toThrow();
    removeItem('u1');
    expect(cart.items).toHaveLength(0);
  });

  it('discards corrupt or outdated stored data with a warning', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    expect(readStoredCart('{not json')).toEqual([]);
    expect(readStoredCart(JSON.stringify({ version: 0, items: [vmc] }))).toEqual([]);
    expect(readStoredCart(JSON.stringify({ version: 1, items: [vmc] }))).toEqual([vmc]);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});
