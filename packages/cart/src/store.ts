import { proxy, subscribe } from 'valtio';
import * as z from 'zod/mini';

/**
 * The one cart (spec §3, §4). It is shared as a Module Federation singleton, so the
 * shell's cart toggle, the checkout drawer and the storefront's pages all read and write
 * this same object. It is kept in localStorage and follows other tabs.
 */
export const CartItem = z.object({
  uniqueId: z.string().check(z.minLength(1)),
  id: z.string().check(z.minLength(1)),
  name: z.string().check(z.minLength(1)),
  quantity: z.int().check(z.minimum(1)),
  /** Price of one unit in integer cents. */
  price: z.int().check(z.minimum(0)),
});
export type CartItem = z.infer<typeof CartItem>;

const StoredCart = z.object({ version: z.literal(1), items: z.array(CartItem) });

export const CART_STORAGE_KEY = 'bimi.cart';

export const cart = proxy({ items: [] as CartItem[] });

export function cartCount(items: readonly CartItem[]): number {
  return items.reduce((n, item) => n + item.quantity, 0);
}

export function cartTotal(items: readonly CartItem[]): number {
  return items.reduce((sum, item) => sum + item.price * item.quantity, 0);
}

export function addItem(item: CartItem): void {
  const parsed = CartItem.parse(item);
  const existing = cart.items.find((i) => i.uniqueId === parsed.uniqueId);
  if (existing) existing.quantity += parsed.quantity;
  else cart.items.push(parsed);
}

export function removeItem(uniqueId: string): void {
  cart.items = cart.items.filter((i) => i.uniqueId !== uniqueId);
}

export function setQuantity(uniqueId: string, quantity: number): void {
  const item = cart.items.find((i) => i.uniqueId === uniqueId);
  if (item) item.quantity = Math.max(1, Math.floor(quantity));
}

export function clearCart(): void {
  cart.items = [];
}

/** Reads the stored cart; data that is corrupt or from another version is dropped with a warning. */
export function readStoredCart(raw: string | null): CartItem[] {
  if (!raw) return [];
  try {
    const parsed = StoredCart.safeParse(JSON.parse(raw));
    if (parsed.success) return parsed.data.items;
    console.warn('[cart] stored cart has an unexpected shape and was discarded');
  } catch {
    console.warn('[cart] stored cart is not valid JSON and was discarded');
  }
  return [];
}

let persisting = false;

/** Loads the cart from localStorage, saves every change, and follows changes made in other tabs. */
export function persistCart(storage: Storage = window.localStorage): () => void {
  if (persisting) return () => {};
  persisting = true;
  cart.items = readStoredCart(storage.getItem(CART_STORAGE_KEY));
  const unsubscribe = subscribe(cart, () => {
    storage.setItem(CART_STORAGE_KEY, JSON.stringify({ version: 1, items: cart.items }));
  });
  const onStorage = (event: StorageEvent) => {
    if (event.key === CART_STORAGE_KEY) cart.items = readStoredCart(event.newValue);
  };
  window.addEventListener('storage', onStorage);
  return () => {
    persisting = false;
    unsubscribe();
    window.removeEventListener('storage', onStorage);
  };
}
