import { useSyncExternalStore } from 'react';
import { useSnapshot, type Snapshot } from 'valtio';
// By the package's name, not './store': the store is shared as `@bimi/cart/store`, and a relative
// import would give a remote that uses this hook a cart of its own.
import { cart, type CartState } from '@bimi/cart/store';

/** The cart as the server renders it: it has not read the browser's storage. */
const CART_NOT_LOADED: Snapshot<CartState> = { items: [], totalPrice: 0, totalQuantities: 0, loaded: false };

const noSubscription = () => () => {};

/**
 * The cart for a component's render. On the server, and while the browser hydrates markup the
 * server sent, it is the cart the server saw (not loaded, no items): a remote's page hydrates
 * after its code arrives, when the stored cart has long been read, and drawing it then would not
 * match the server's markup. React renders again with the real cart right after.
 */
export function useCart(): Snapshot<CartState> {
  const snapshot = useSnapshot(cart);
  const hydrating = useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
  return hydrating ? CART_NOT_LOADED : snapshot;
}
