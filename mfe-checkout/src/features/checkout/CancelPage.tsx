import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { ONE_ORDER_PAYMENT_PARAM } from '@bimi/contracts/api-paths';
import type { PageProps } from '@bimi/ui/RouteTable';
import { checkoutIdFrom } from './checkout-id';
import { PaymentOutcome, outcomeHeading, useCheckoutState } from './PaymentOutcome';

/**
 * Back from the payment page without paying: what happened (a decline is not a cancel) and why; the
 * cart is untouched. From a page for one order already placed, the way back is to that order.
 */
export function CancelPage({ route }: PageProps) {
  const [params] = useSearchParams();
  const checkoutId = checkoutIdFrom(params);
  const state = useCheckoutState(checkoutId);
  const orderId = params.get(ONE_ORDER_PAYMENT_PARAM) === '1' && state?.orderIds.length === 1 ? state.orderIds[0] : undefined;
  return (
    <Box sx={{ maxWidth: 760, mx: 'auto', px: { xs: 2, md: 4 }, py: { xs: 4, md: 6 }, display: 'flex', flexDirection: 'column', gap: 2.5 }}>
      <Typography variant="h1" sx={{ fontSize: { xs: 30, md: 40 } }}>
        {outcomeHeading(state, route.title)}
      </Typography>
      {/* What was charged depends on the checkout: the outcome says it (a paid one is never "nothing was charged"). */}
      {checkoutId ? (
        <PaymentOutcome checkoutId={checkoutId} state={state} cancelled oneOrder={orderId !== undefined} />
      ) : (
        <Typography color="text.secondary">Your cart and the details you entered are saved.</Typography>
      )}
      <Box>
        {orderId ? (
          <Button component={RouterLink} to={`/account/orders/${encodeURIComponent(orderId)}`} variant="contained">
            Back to your order
          </Button>
        ) : (
          <Button component={RouterLink} to={checkoutId ? `/checkout?checkout=${encodeURIComponent(checkoutId)}` : '/checkout'} variant="contained">
            Back to checkout
          </Button>
        )}
      </Box>
    </Box>
  );
}
