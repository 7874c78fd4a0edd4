import { proxy } from 'valtio';

/** Whether the cart drawer is open: the shell's toggle and any remote (after "add to cart") may open it. */
export const cartDrawer = proxy({ open: false });

export function openCartDrawer(): void {
  cartDrawer.open = true;
}

export function closeCartDrawer(): void {
  cartDrawer.open = false;
}
