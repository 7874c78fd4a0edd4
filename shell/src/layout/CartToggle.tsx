import { useState } from 'react';
import { useSnapshot } from 'valtio';
import styled from '@emotion/styled';
import { formatUsd } from '@bimi/catalog/prices';
import { useCart } from '@bimi/cart/useCart';
import { cartDrawer, closeCartDrawer, openCartDrawer } from '@bimi/cart/drawer';
import type { CartDrawerProps } from '@bimi/contracts/remote-modules';
import { RemoteWidget } from '../federation/RemoteWidget';
import { loadRemoteModule } from '../federation/registry';
import { colors, Icon, IconButton } from './plain';

/** The dot on the cart when it has items (MUI's Badge as a dot). */
const Dot = styled.span({
  position: 'absolute',
  top: 0,
  right: 0,
  width: 8,
  height: 8,
  borderRadius: 4,
  background: colors.error,
  transform: 'translate(50%, -50%)',
});

/** The header's cart button (a dot when the cart has items) and the checkout remote's drawer. */
export function CartToggle() {
  const { totalQuantities: count, totalPrice } = useCart();
  const { open } = useSnapshot(cartDrawer);
  const [mounted, setMounted] = useState(false);
  if (open && !mounted) setMounted(true);
  return (
    <>
      <IconButton
        type="button"
        data-testid="cart-toggle"
        aria-label={count > 0 ? `Open cart, ${count} item${count === 1 ? '' : 's'}, ${formatUsd(totalPrice)}` : 'Open cart, empty'}
        title={count > 0 ? `${count} item${count === 1 ? '' : 's'}, ${formatUsd(totalPrice)}` : 'Your cart is empty'}
        data-count={count}
        data-total={totalPrice}
        onClick={openCartDrawer}
        onPointerEnter={() => loadRemoteModule('checkout', './CartDrawer').catch(() => {})}
      >
        <span data-testid="cart-dot" data-visible={count > 0} style={{ position: 'relative', display: 'inline-flex' }}>
          <Icon name="cart" />
          <Dot data-testid="cart-dot-mark" hidden={count === 0} />
        </span>
      </IconButton>
      {mounted && <RemoteWidget<CartDrawerProps> remote="checkout" expose="./CartDrawer" props={{ open, onClose: closeCartDrawer }} visible={open} onDismiss={closeCartDrawer} />}
    </>
  );
}
