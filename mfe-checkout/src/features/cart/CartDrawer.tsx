import { Link as RouterLink } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import AddOutlined from '@mui/icons-material/AddOutlined';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import RemoveOutlined from '@mui/icons-material/RemoveOutlined';
import ShoppingCartOutlined from '@mui/icons-material/ShoppingCartOutlined';
import type { CartDrawerProps } from '@bimi/contracts/remote-modules';
import type { CartItem } from '@bimi/catalog/cart-items';
import { isCertificateId } from '@bimi/catalog/products';
import { formatEmailVolume, formatUsd } from '@bimi/catalog/prices';
import { maxQuantityOf } from '@bimi/catalog/quote';
import { cart, decreaseQuantity, increaseQuantity, removeItem } from '@bimi/cart/store';
import { editLink } from '../../lib/edit-link';

/** What the visitor chose for a line, in words: "3 domains · 2 years · Logo 1 of 2". */
function describeOptions(item: CartItem): string[] {
  if (item.productType === 'dmarc') {
    return [formatEmailVolume(item.emailVolume ?? 0) + ' a month', item.billingPeriod === 'annual' ? 'Billed annually' : 'Billed monthly'];
  }
  const parts = [`${item.options.domain} domain${item.options.domain === 1 ? '' : 's'}`, `${item.options.year} year${item.options.year === 1 ? '' : 's'}`];
  if (item.logoCount > 1) parts.push(`Logo ${item.logoIndex} of ${item.logoCount}`);
  if (item.cmcType) parts.push(item.cmcType);
  if (item.trademarkStatus) parts.push(`Trademark ${item.trademarkStatus.toLowerCase()}`);
  if (item.agencyLevel) parts.push(`${item.agencyLevel} agency`);
  return parts;
}

/**
 * A certificate line is one certificate for one logo (several logos are already several lines), so
 * it has no quantity buttons: a second copy of the same certificate is never what a buyer means, and
 * "+" one tap from the price made it easy to buy by accident. It is changed with Edit (domains,
 * years, logos, back in the configurator) or removed. DMARC plans keep their quantity control.
 */
function CertificateLineActions({ item, items, onClose }: { item: CartItem; items: readonly CartItem[]; onClose: () => void }) {
  const to = editLink(item, items);
  return (
    <>
      {item.quantity > 1 && (
        <Typography variant="body2" color="text.secondary" data-testid="cart-line-quantity">
          {item.quantity} × {formatUsd(item.price)}
        </Typography>
      )}
      {to && (
        <Button size="small" component={RouterLink} to={to} onClick={onClose} startIcon={<EditOutlined />} aria-label={`Edit ${item.name}`} data-testid="cart-line-edit">
          Edit
        </Button>
      )}
    </>
  );
}

function CartLine({ item, items, onClose }: { item: CartItem; items: readonly CartItem[]; onClose: () => void }) {
  const certificate = isCertificateId(item.id);
  return (
    <Box component="li" data-testid="cart-line" data-product={item.id} sx={{ py: 2, borderBottom: '1px solid', borderColor: 'divider', listStyle: 'none' }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
        <Typography sx={{ fontWeight: 600 }}>{item.name}</Typography>
        <Typography data-testid="cart-line-amount" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
          {formatUsd(item.price * item.quantity)}
        </Typography>
      </Box>
      <Typography variant="body2" color="text.secondary" data-testid="cart-line-options">
        {describeOptions(item).join(' · ')}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1 }}>
        {certificate ? (
          <CertificateLineActions item={item} items={items} onClose={onClose} />
        ) : maxQuantityOf(item) > 1 ? (
          // A DMARC plan is bought once (a larger volume, not copies): no quantity to change.
          <>
            <IconButton
              size="small"
              aria-label={`Decrease quantity of ${item.name}`}
              disabled={item.quantity <= 1}
              onClick={() => decreaseQuantity(item.uniqueId)}
              sx={{ border: '1px solid', borderColor: 'divider' }}
            >
              <RemoveOutlined fontSize="small" />
            </IconButton>
            <Typography data-testid="cart-line-quantity" aria-label={`Quantity of ${item.name}`} sx={{ minWidth: 24, textAlign: 'center' }}>
              {item.quantity}
            </Typography>
            <IconButton
              size="small"
              aria-label={`Increase quantity of ${item.name}`}
              disabled={item.quantity >= maxQuantityOf(item)}
              onClick={() => increaseQuantity(item.uniqueId)}
              sx={{ border: '1px solid', borderColor: 'divider' }}
            >
              <AddOutlined fontSize="small" />
            </IconButton>
            {item.quantity > 1 && (
              <Typography variant="body2" color="text.secondary">
                {formatUsd(item.price)} each
              </Typography>
            )}
          </>
        ) : null}
        <Box sx={{ flex: 1 }} />
        <Button size="small" color="error" startIcon={<DeleteOutlineOutlined />} onClick={() => removeItem(item.uniqueId)} aria-label={`Remove ${item.name}`}>
          Remove
        </Button>
      </Box>
    </Box>
  );
}

export function CartDrawer({ open, onClose }: CartDrawerProps) {
  const { items, totalPrice, totalQuantities } = useSnapshot(cart);
  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: 'min(420px, 100vw)', display: 'flex', flexDirection: 'column' } } }}>
      <Box data-testid="cart-drawer" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 3, py: 2, borderBottom: '1px solid', borderColor: 'divider' }}>
        <Typography component="h2" variant="h3">
          Your cart{totalQuantities > 0 ? ` (${totalQuantities})` : ''}
        </Typography>
        <IconButton onClick={onClose} aria-label="Close cart">
          <CloseOutlined />
        </IconButton>
      </Box>
      <Box sx={{ flex: 1, overflowY: 'auto', px: 3, py: 1 }}>
        {items.length === 0 ? (
          <Box data-testid="cart-empty" sx={{ textAlign: 'center', py: 6 }}>
            <ShoppingCartOutlined sx={{ fontSize: 48, color: 'text.disabled' }} />
            <Typography sx={{ mt: 1, fontWeight: 600 }}>Your cart is empty.</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1, mb: 3 }}>
              Choose a mark certificate to show your logo in the inbox, or a DMARC plan to get to enforcement.
            </Typography>
            <Button component={RouterLink} to="/products/digicert-mark-certificates" variant="outlined" onClick={onClose}>
              Browse certificates
            </Button>
          </Box>
        ) : (
          <Box component="ul" sx={{ m: 0, p: 0 }}>
            {items.map((item) => (
              <CartLine key={item.uniqueId} item={item} items={items} onClose={onClose} />
            ))}
          </Box>
        )}
      </Box>
      <Box sx={{ px: 3, py: 2, borderTop: '1px solid', borderColor: 'divider' }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', mb: 2 }}>
          <Typography sx={{ fontWeight: 700 }}>Total</Typography>
          <Typography sx={{ fontWeight: 700 }} data-testid="cart-total">
            {formatUsd(totalPrice)}
          </Typography>
        </Box>
        <Button component={RouterLink} to="/checkout" variant="contained" fullWidth size="large" onClick={onClose} disabled={items.length === 0}>
          Go to checkout
        </Button>
      </Box>
    </Drawer>
  );
}
