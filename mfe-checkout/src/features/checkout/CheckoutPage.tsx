import { Link as RouterLink } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { PageIntro } from '@bimi/ui/PageIntro';
import type { PageProps } from '@bimi/ui/RouteTable';
import { formatUsd } from '@bimi/catalog/prices';
import { cart } from '@bimi/cart/store';

export function CheckoutPage({ route }: PageProps) {
  // Count and total as the cart keeps them (the shell's cart badge and the drawer show the same).
  const { items, totalPrice, totalQuantities } = useSnapshot(cart);
  return (
    <PageIntro title={route.title} lead={route.description}>
      <Box sx={{ mt: 4, p: 3, border: '1px solid', borderColor: 'divider', borderRadius: 2, maxWidth: 560 }}>
        <Typography component="h2" variant="h3" gutterBottom>
          Order summary
        </Typography>
        {items.length === 0 ? (
          <Typography color="text.secondary">Your cart is empty.</Typography>
        ) : (
          <Typography data-testid="checkout-total">
            {totalQuantities} item{totalQuantities === 1 ? '' : 's'}, total {formatUsd(totalPrice)}
          </Typography>
        )}
        <Button component={RouterLink} to="/auth/signin?callbackUrl=%2Fcheckout" variant="contained" sx={{ mt: 3 }} data-testid="theme-probe">
          Sign in to continue
        </Button>
      </Box>
    </PageIntro>
  );
}
