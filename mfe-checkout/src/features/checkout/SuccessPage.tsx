import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import { domainsLabel } from '@bimi/catalog/labels';
import { formatUsd } from '@bimi/catalog/prices';
import { clearCart } from '@bimi/cart/store';
import { ONE_ORDER_PAYMENT_PARAM } from '@bimi/contracts/api-paths';
import { longDate } from '@bimi/contracts/dates';
import { CheckoutState, ORDER_PATHS, OrderDetail } from '@bimi/contracts/orders';
import type { PageProps } from '@bimi/ui/RouteTable';
import { callApi, failureMessage } from '@bimi/session/api';
import { checkoutIdFrom } from './checkout-id';
import { clearDetailsDrafts } from './useDetailsDrafts';

const POLL_MS = 1500;
/** The provider confirms within seconds; past this the page says so and keeps a way to look again. */
const PATIENCE_MS = 90_000;

type View = { step: 'waiting'; slow: boolean } | { step: 'paid'; orders: OrderDetail[] } | { step: 'failed'; message: string } | { step: 'error'; message: string };

function period(order: OrderDetail): string {
  const { interval, count } = order.billingPeriod;
  return count === 1 ? `a ${interval}` : `every ${count} ${interval}s`;
}

/**
 * Back from the payment page. The order is confirmed only when the bff says the checkout is
 * paid (the provider's event has arrived): the page asks until then, and only then empties the cart
 * (unless the payment was for one order already placed).
 */
export function SuccessPage({ route }: PageProps) {
  const [params] = useSearchParams();
  const checkoutId = checkoutIdFrom(params);
  const paidOneOrder = params.get(ONE_ORDER_PAYMENT_PARAM) === '1';
  const [view, setView] = useState<View>({ step: 'waiting', slow: false });
  const [attempt, setAttempt] = useState(0);
  const started = useRef(Date.now());

  useEffect(() => {
    if (!checkoutId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const state = await callApi(ORDER_PATHS.checkoutState(checkoutId), { answer: CheckoutState });
        if (stopped) return;
        if (state.status === 'paid') {
          // A payment for one order already placed is not the cart's: the cart stays as it is.
          if (!paidOneOrder) {
            clearCart();
            clearDetailsDrafts();
          }
          const orders = await Promise.all(state.orderIds.map((id) => callApi(ORDER_PATHS.order(id), { answer: OrderDetail })));
          if (!stopped) setView({ step: 'paid', orders });
          return;
        }
        if (state.status !== 'open') {
          const closed: Record<string, string> = {
            expired: 'The payment page expired before the payment was made.',
            superseded: 'This payment page was replaced by a newer one: nothing was charged on it.',
            cancelled: 'This order was cancelled: nothing was charged.',
          };
          setView({
            step: 'failed',
            message: state.failureMessage ?? closed[state.status] ?? 'The payment did not go through.',
          });
          return;
        }
        setView({ step: 'waiting', slow: Date.now() - started.current > PATIENCE_MS });
        timer = setTimeout(poll, Date.now() - started.current > PATIENCE_MS ? POLL_MS * 4 : POLL_MS);
      } catch (error) {
        if (!stopped) setView({ step: 'error', message: failureMessage(error) });
      }
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [checkoutId, paidOneOrder, attempt]);

  return (
    <Box sx={{ maxWidth: 760, mx: 'auto', px: { xs: 2, md: 4 }, py: { xs: 4, md: 6 } }}>
      {!checkoutId ? (
        <>
          <Typography variant="h1" gutterBottom sx={{ fontSize: { xs: 30, md: 40 } }}>
            {route.title}
          </Typography>
          <Alert severity="warning">This page needs the link the payment page sent you back with. Your orders are always in your account.</Alert>
          <Button component={RouterLink} to="/account/orders" variant="contained" sx={{ mt: 3 }}>
            View my orders
          </Button>
        </>
      ) : view.step === 'waiting' || view.step === 'error' ? (
        <>
          <Typography variant="h1" gutterBottom sx={{ fontSize: { xs: 30, md: 40 } }}>
            Confirming your payment
          </Typography>
          {view.step === 'error' ? (
            <Alert severity="error" action={<Button onClick={() => setAttempt((n) => n + 1)}>Retry</Button>}>
              {view.message}
            </Alert>
          ) : (
            <Box role="status" sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
              <CircularProgress size={24} />
              <Typography>
                {view.slow
                  ? 'The payment provider has not confirmed the payment yet. This page keeps checking; your orders will also appear in your account.'
                  : 'Waiting for the payment provider to confirm your payment…'}
              </Typography>
            </Box>
          )}
          <Typography color="text.secondary" sx={{ mt: 2, fontSize: 15 }}>
            Your cart is kept until the payment is confirmed.
          </Typography>
        </>
      ) : view.step === 'failed' ? (
        <>
          <Typography variant="h1" gutterBottom sx={{ fontSize: { xs: 30, md: 40 } }}>
            Payment not completed
          </Typography>
          <Alert severity="error" data-testid="payment-outcome">
            {view.message} Your cart is saved.
          </Alert>
          <Button component={RouterLink} to={`/checkout?checkout=${encodeURIComponent(checkoutId)}`} variant="contained" sx={{ mt: 3 }}>
            Back to checkout
          </Button>
        </>
      ) : (
        <>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1 }}>
            <CheckCircleOutlined color="success" sx={{ fontSize: 40 }} />
            <Typography variant="h1" sx={{ fontSize: { xs: 30, md: 40 } }}>
              {route.title}
            </Typography>
          </Box>
          <Typography color="text.secondary">Thank you. We sent a confirmation and a receipt to your email address.</Typography>
          {/* The next steps first, in view on arrival: at the end of the list they fell under the signed-in
              visitor's Dashboard dock at the bottom of the window (issue 30, finding 9). */}
          <Box sx={{ display: 'flex', gap: 1.5, mt: 2, mb: 3, flexWrap: 'wrap' }} data-testid="success-actions">
            <Button component={RouterLink} to="/account/orders" variant="contained">
              View my orders
            </Button>
            <Button component={RouterLink} to="/account/billing/transactions" variant="outlined">
              Receipts
            </Button>
          </Box>
          <Box component="ul" sx={{ m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 2 }} aria-label="Your orders">
            {view.orders.map((order) => (
              <Paper component="li" key={order.id} variant="outlined" data-testid="confirmed-order" sx={{ listStyle: 'none', p: { xs: 2, md: 2.5 }, borderRadius: 3 }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
                  <Box>
                    <Typography sx={{ fontWeight: 700 }}>
                      <Link component={RouterLink} to={`/account/orders/${encodeURIComponent(order.id)}`}>
                        Order {order.number}
                      </Link>{' '}
                      · {order.productName}
                    </Typography>
                    {order.details && (
                      <Typography variant="body2" data-testid="confirmed-order-domains">
                        For {domainsLabel(order.details.domains)}
                      </Typography>
                    )}
                    <Typography variant="body2" color="text.secondary" data-testid="confirmed-order-description">
                      {order.description}
                    </Typography>
                  </Box>
                  <Typography sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                    {formatUsd(order.amount)} {period(order)}
                  </Typography>
                </Box>
                {order.currentPeriodEnd && (
                  <Typography variant="body2" sx={{ mt: 1 }}>
                    {order.renews ? 'Renews' : 'Ends'} on {longDate(order.currentPeriodEnd)}.
                  </Typography>
                )}
                {order.needsAction.length > 0 && (
                  <Alert severity="warning" sx={{ mt: 1.5 }}>
                    {order.needsAction.join(' ')}{' '}
                    <Link component={RouterLink} to={`/account/orders/${encodeURIComponent(order.id)}`}>
                      Finish it now
                    </Link>
                  </Alert>
                )}
              </Paper>
            ))}
          </Box>
        </>
      )}
    </Box>
  );
}
