import { useState } from 'react';
import { useSnapshot } from 'valtio';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import ShoppingCartOutlined from '@mui/icons-material/ShoppingCartOutlined';
import { formatUsd } from '@bimi/catalog/prices';
import { useCart } from '@bimi/cart/useCart';
import { cartDrawer, closeCartDrawer, openCartDrawer } from '@bimi/cart/drawer';
import type { CartDrawerProps } from '@bimi/contracts/remote-modules';
import { RemoteWidget } from '../federation/RemoteWidget';
import { loadRemoteModule } from '../federation/registry';

/** The header's cart button (a dot when the cart has items) and the checkout remote's drawer. */
export function CartToggle() {
  const { totalQuantities: count, totalPrice } = useCart();
  const { open } = useSnapshot(cartDrawer);
  const [mounted, setMounted] = useState(false);
  if (open && !mounted) setMounted(true);
  return (
    <>
      <IconButton
        color="inherit"
        data-testid="cart-toggle"
        aria-label={count > 0 ? `Open cart, ${count} item${count === 1 ? '' : 's'}, ${formatUsd(totalPrice)}` : 'Open cart, empty'}
        title={count > 0 ? `${count} item${count === 1 ? '' : 's'}, ${formatUsd(totalPrice)}` : 'Your cart is empty'}
        data-count={count}
        data-total={totalPrice}
        onClick={openCartDrawer}
        onPointerEnter={() => loadRemoteModule('checkout', './CartDrawer').catch(() => {})}
      >
        <Badge variant="dot" color="error" invisible={count === 0} data-testid="cart-dot" data-visible={count > 0}>
          <ShoppingCartOutlined />
        </Badge>
      </IconButton>
      {mounted && <RemoteWidget<CartDrawerProps> remote="checkout" expose="./CartDrawer" props={{ open, onClose: closeCartDrawer }} visible={open} onDismiss={closeCartDrawer} />}
    </>
  );
}
