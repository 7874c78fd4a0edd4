import { Link as RouterLink } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import type { CartDrawerProps } from '@bimi/contracts/remote-modules';
import { cart, cartTotal, removeItem, setQuantity } from '@bimi/cart/store';
import { formatUsd } from './format';

export function CartDrawer({ open, onClose }: CartDrawerProps) {
  const { items } = useSnapshot(cart);
  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: 'min(420px, 100vw)', display: 'flex', flexDirection: 'column' } } }}>
      <Box data-testid="cart-drawer" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 3, py: 2, borderBottom: '1px solid', borderColor: 'divider' }}>
        <Typography component="h2" variant="h3">
          Your cart
        </Typography>
        <IconButton onClick={onClose} aria-label="Close cart">
          ×
        </IconButton>
      </Box>
      <Box sx={{ flex: 1, overflowY: 'auto', px: 3, py: 2 }}>
        {items.length === 0 ? (
          <Typography color="text.secondary">Your cart is empty.</Typography>
        ) : (
          items.map((item) => (
            <Box key={item.uniqueId} data-testid="cart-line" sx={{ py: 2, borderBottom: '1px solid', borderColor: 'divider' }}>
              <Typography sx={{ fontWeight: 600 }}>{item.name}</Typography>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1 }}>
                <Button size="small" variant="outlined" aria-label={`Decrease ${item.name}`} disabled={item.quantity <= 1} onClick={() => setQuantity(item.uniqueId, item.quantity - 1)}>
                  −
                </Button>
                <Typography aria-label="Quantity">{item.quantity}</Typography>
                <Button size="small" variant="outlined" aria-label={`Increase ${item.name}`} onClick={() => setQuantity(item.uniqueId, item.quantity + 1)}>
                  +
                </Button>
                <Box sx={{ flex: 1 }} />
                <Typography>{formatUsd(item.price * item.quantity)}</Typography>
              </Box>
              <Button size="small" color="error" onClick={() => removeItem(item.uniqueId)} sx={{ mt: 1, px: 0 }}>
                Remove
              </Button>
            </Box>
          ))
        )}
      </Box>
      <Box sx={{ px: 3, py: 2, borderTop: '1px solid', borderColor: 'divider' }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', mb: 2 }}>
          <Typography sx={{ fontWeight: 700 }}>Total</Typography>
          <Typography sx={{ fontWeight: 700 }} data-testid="cart-total">
            {formatUsd(cartTotal(items))}
          </Typography>
        </Box>
        <Button component={RouterLink} to="/checkout" variant="contained" fullWidth size="large" onClick={onClose} disabled={items.length === 0}>
          Go to checkout
        </Button>
      </Box>
    </Drawer>
  );
}
