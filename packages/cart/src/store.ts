import { proxy, subscribe } from 'valtio';
import * as z from 'zod/mini';
import { CartItem, certificateSet } from '@bimi/catalog/cart-items';
import { dmarcPlanOf, maxQuantityOf } from '@bimi/catalog/quote';
import { showToast } from '@bimi/ui/toasts';
import { openCartDrawer } from './drawer';

/**
 * The one cart (spec §3, §4). It is shared as a Module Federation singleton, so the shell's
 * cart toggle, the checkout drawer and the storefront's pages all read and write this same
 * object. It is kept in localStorage (so it survives a reload, sign-out and session expiry)
 * and follows changes made in other tabs. Items are built by @bimi/catalog/cart-items.
 */

/** Stored as { version, items }; a new item shape gets a new version so older data is recognised and dropped. */
const STORAGE_VERSION = 2;
const StoredCart = z.object({ version: z.number(), items: z.array(z.unknown()) });

export const CART_STORAGE_KEY = 'bimi.cart';

export interface CartState {
  items: CartItem[];
  /**
   * True once the stored cart was read: in the browser just after the page's first render (so a
   * server-rendered page hydrates with the markup the server sent), never on the server. Until then
   * a page that shows the cart's contents shows that it is loading, not that it is empty.
   */
  loaded: boolean;
  /** Sum of price × quantity, in integer cents. */
  readonly totalPrice: number;
  readonly totalQuantities: number;
}

function cartCount(items: readonly CartItem[]): number {
  return items.reduce((n, item) => n + item.quantity, 0);
}

function cartTotal(items: readonly CartItem[]): number {
  return items.reduce((sum, item) => sum + item.price * item.quantity, 0);
}

export const cart: CartState = proxy({
  items: [] as CartItem[],
  loaded: false,
  get totalPrice(): number {
    return cartTotal(this.items);
  },
  get totalQuantities(): number {
    return cartCount(this.items);
  },
});

/**
 * Puts `item` in `items` with at most the quantity it may be bought in: in the place of a line of the
 * same DMARC plan (dmarcPlanOf: a cart holds one, as checkout buys one), else at the end.
 */
function placeLine(items: CartItem[], item: CartItem): void {
  const line = { ...item, quantity: Math.min(item.quantity, maxQuantityOf(item)) };
  const plan = dmarcPlanOf(line.id, line.billingPeriod);
  const same = plan === null ? -1 : items.findIndex((other) => dmarcPlanOf(other.id, other.billingPeriod) === plan);
  if (same >= 0) items.splice(same, 1, line);
  else items.push(line);
}

/**
 * Adds one item (validated): an item already in the cart (same uniqueId) gains its quantity
 * instead, and a DMARC plan already in it takes the new one's place (its volume, one copy).
 */
export function addItem(item: CartItem): void {
  const parsed = CartItem.parse(item);
  const existing = cart.items.find((i) => i.uniqueId === parsed.uniqueId);
  if (existing) {
    existing.quantity = Math.min(maxQuantityOf(existing), existing.quantity + parsed.quantity);
    return;
  }
  placeLine(cart.items, parsed);
}

function failureReason(error: unknown): string {
  if (error instanceof z.core.$ZodError) return 'the item is not valid';
  return error instanceof Error ? error.message : String(error);
}

/** Two adds of one configuration closer than this are one double click (an operating system's double-click time is 500 ms by default). */
export const DOUBLE_ADD_MS = 600;
let lastAdd: { configuration: string; at: number } | undefined;

/**
 * Adds what a visitor configured and says so (spec §8): "{name} added to cart", or
 * "{n} {name} certificates added to cart" for several logos. `build` makes the items (from
 * @bimi/catalog/cart-items); when it or the cart refuses them nothing is added and the toast
 * reads "Failed to add {name} to cart: {reason}". Answers whether the items were added.
 */
export function addToCart(name: string, build: () => CartItem[]): boolean {
  let items: CartItem[];
  try {
    items = build().map((item) => CartItem.parse(item));
    if (items.length === 0) throw new Error('nothing to add');
  } catch (error) {
    showToast({ message: `Failed to add ${name} to cart: ${failureReason(error)}`, severity: 'error' });
    return false;
  }
  // A double click is one add: the same configuration again within DOUBLE_ADD_MS adds nothing.
  const configuration = JSON.stringify(items.map(({ uniqueId: _uniqueId, setId: _setId, certId: _certId, ...rest }) => rest));
  const at = Date.now();
  if (lastAdd && lastAdd.configuration === configuration && at - lastAdd.at < DOUBLE_ADD_MS) return true;
  lastAdd = { configuration, at };
  for (const item of items) addItem(item);
  // "{n} {name} certificates", without saying it twice: "2 Verified Mark Certificates", not "… Certificate certificates" (issue 32).
  const several = /\bcertificate$/i.test(name.trim()) ? `${name.trim()}s` : `${name} certificates`;
  const message = items.length > 1 ? `${items.length} ${several} added to cart` : `${name} added to cart`;
  showToast({ message, severity: 'success', action: { label: 'View cart', onClick: openCartDrawer } });
  return true;
}

/**
 * Puts `items` (validated) where the line `uniqueId` was, so an edited certificate keeps its place
 * in the cart; the drawer's Edit action reopens the configurator and its "Update cart" lands here.
 * The line goes with the certificates configured together with it (its other logos,
 * certificateSet): the configurator showed them as one configuration, so they are replaced as one.
 * A line that is no longer in the cart (removed meanwhile, in this tab or another) leaves the
 * items appended instead. Answers whether the line was found. Nothing changes when an item is refused.
 */
export function replaceItems(uniqueId: string, items: readonly CartItem[]): boolean {
  const parsed = items.map((item) => CartItem.parse(item));
  const replaced = new Set(certificateSet(cart.items, uniqueId).map((item) => item.uniqueId));
  const index = cart.items.findIndex((i) => replaced.has(i.uniqueId));
  if (index === -1) {
    for (const item of parsed) addItem(item);
    return false;
  }
  const kept = cart.items.filter((item) => !replaced.has(item.uniqueId));
  kept.splice(index, 0, ...parsed);
  cart.items = kept;
  return true;
}

/**
 * replaceItems with the toasts of addToCart: "{name} updated in cart", or "Failed to update {name}
 * in cart: {reason}" leaving the cart as it was. Answers whether the cart changed.
 */
export function updateInCart(name: string, uniqueId: string, build: () => CartItem[]): boolean {
  let items: CartItem[];
  try {
    items = build().map((item) => CartItem.parse(item));
    if (items.length === 0) throw new Error('nothing to add');
  } catch (error) {
    showToast({ message: `Failed to update ${name} in cart: ${failureReason(error)}`, severity: 'error' });
    return false;
  }
  replaceItems(uniqueId, items);
  showToast({ message: `${name} updated in cart`, severity: 'success', action: { label: 'View cart', onClick: openCartDrawer } });
  return true;
}

export function removeItem(uniqueId: string): void {
  cart.items = cart.items.filter((i) => i.uniqueId !== uniqueId);
}

/** Sets a line's quantity, kept between 1 (spec §4: never below 1) and what the line may be bought in (maxQuantityOf). */
export function setQuantity(uniqueId: string, quantity: number): void {
  const item = cart.items.find((i) => i.uniqueId === uniqueId);
  if (item && Number.isFinite(quantity)) item.quantity = Math.min(maxQuantityOf(item), Math.max(1, Math.floor(quantity)));
}

export function increaseQuantity(uniqueId: string): void {
  const item = cart.items.find((i) => i.uniqueId === uniqueId);
  if (item) setQuantity(uniqueId, item.quantity + 1);
}

export function decreaseQuantity(uniqueId: string): void {
  const item = cart.items.find((i) => i.uniqueId === uniqueId);
  if (item) setQuantity(uniqueId, item.quantity - 1);
}

export function clearCart(): void {
  cart.items = [];
  lastAdd = undefined;
}

/** Reads the stored cart. Data that is corrupt or from another version is dropped, and items that fail the schema are left out, each with a warning. */
export function readStoredCart(raw: string | null): CartItem[] {
  if (!raw) return [];
  let stored: z.infer<typeof StoredCart>;
  try {
    const parsed = StoredCart.safeParse(JSON.parse(raw));
    if (!parsed.success) {
      console.warn('[cart] stored cart has an unexpected shape and was discarded');
      return [];
    }
    stored = parsed.data;
  } catch {
    console.warn('[cart] stored cart is not valid JSON and was discarded');
    return [];
  }
  if (stored.version !== STORAGE_VERSION) {
    console.warn(`[cart] stored cart is from version ${stored.version} of the store, not ${STORAGE_VERSION}, and was discarded`);
    return [];
  }
  const items: CartItem[] = [];
  for (const candidate of stored.items) {
    const item = CartItem.safeParse(candidate);
    if (!item.success) {
      console.warn('[cart] a stored cart item is not valid and was left out');
      continue;
    }
    // A cart stored when a DMARC plan could be put in twice keeps one: one copy, the last line of the plan.
    placeLine(items, item.data);
  }
  return items;
}

export function serializeCart(items: readonly CartItem[]): string {
  return JSON.stringify({ version: STORAGE_VERSION, items });
}

let persisting = false;

/**
 * Loads the cart from storage, saves every change, and follows changes made in other tabs
 * (the storage event). Storage that refuses to write (full, private mode) costs persistence,
 * never the cart. Answers a function that stops all three.
 */
export function persistCart(storage: Storage = window.localStorage, events: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): () => void {
  if (persisting) return () => {};
  persisting = true;
  let lastWritten: string | null = null;
  try {
    lastWritten = storage.getItem(CART_STORAGE_KEY);
  } catch {
    console.warn('[cart] local storage cannot be read; the cart lasts for this page only');
  }
  cart.items = readStoredCart(lastWritten);
  cart.loaded = true;
  const unsubscribe = subscribe(cart, () => {
    const value = serializeCart(cart.items);
    if (value === lastWritten) return;
    lastWritten = value;
    try {
      storage.setItem(CART_STORAGE_KEY, value);
    } catch {
      console.warn('[cart] local storage refused the cart; it will not survive a reload');
    }
  });
  const onStorage = (event: StorageEvent) => {
    if (event.key !== CART_STORAGE_KEY && event.key !== null) return;
    lastWritten = event.newValue;
    cart.items = readStoredCart(event.newValue);
  };
  events.addEventListener('storage', onStorage);
  return () => {
    persisting = false;
    unsubscribe();
    events.removeEventListener('storage', onStorage);
  };
}
