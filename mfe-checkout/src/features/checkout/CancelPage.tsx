import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { PageProps } from '@bimi/ui/RouteTable';
import { checkoutIdFrom } from './checkout-id';
import { PaymentOutcome, outcomeHeading, useCheckoutState } from './PaymentOutcome';

/** Back from the payment page without paying: what happened (a decline is not a cancel) and why; the cart is untouched. */
export function CancelPage({ route }: PageProps) {
  const [params] = useSearchParams();
  const checkoutId = checkoutIdFrom(params);
  const state = useCheckoutState(checkoutId);
  return (
    <Box sx={{ maxWidth: 760, mx: 'auto', px: { xs: 2, md: 4 }, py: { xs: 4, md: 6 }, display: 'flex', flexDirection: 'column', gap: 2.5 }}>
      <Typography variant="h1" sx={{ fontSize: { xs: 30, md: 40 } }}>
        {outcomeHeading(state, route.title)}
      </Typography>
      {/* What was charged depends on the checkout: the outcome says it (a paid one is never "nothing was charged"). */}
      {checkoutId ? <PaymentOutcome checkoutId={checkoutId} state={state} cancelled /> : <Typography color="text.secondary">Your cart and the details you entered are saved.</Typography>}
      <Box>
        <Button component={RouterLink} to={checkoutId ? `/checkout?checkout=${encodeURIComponent(checkoutId)}` : '/checkout'} variant="contained">
          Back to checkout
        </Button>
      </Box>
    </Box>
  );
}
