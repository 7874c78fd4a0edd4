import type { CartDrawerProps } from '@bimi/contracts/remote-modules';
import { CartDrawer } from '../features/cart/CartDrawer';

/** `checkout/CartDrawer`: the cart drawer the shell's cart toggle opens. */
export default function ExposedCartDrawer(props: CartDrawerProps) {
  return <CartDrawer {...props} />;
}
