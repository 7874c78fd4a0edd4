import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { ONE_ORDER_PAYMENT_PARAM } from '@bimi/contracts/api-paths';
import { CheckoutState, ORDER_PATHS } from '@bimi/contracts/orders';
import { callApi } from '@bimi/session/api';

/** The checkout's state as the bff has it, once asked (null while asking, or when it could not be had). */
export function useCheckoutState(checkoutId: string | null): CheckoutState | null {
  const [state, setState] = useState<CheckoutState | null>(null);
  useEffect(() => {
    if (!checkoutId) return;
    let current = true;
    callApi(ORDER_PATHS.checkoutState(checkoutId), { answer: CheckoutState }).then(
      (answer) => current && setState(answer),
      () => current && setState(null),
    );
    return () => {
      current = false;
    };
  }, [checkoutId]);
  return state;
}

/**
 * The cancel page's heading for what happened to the checkout: a declined, paid or closed checkout
 * is not "cancelled"; `fallback` (the route's title) while the state is not known.
 */
export function outcomeHeading(state: CheckoutState | null, fallback: string): string {
  if (!state) return fallback;
  if (state.status === 'paid') return 'Payment received';
  if (state.status === 'failed') return 'Payment not completed';
  if (state.status === 'expired' || state.status === 'superseded' || state.status === 'cancelled') return 'Payment page closed';
  return fallback;
}

/**
 * Why the last payment attempt did not go through, when the buyer comes back from the payment page
 * without paying; a checkout that was paid says so (never "nothing was charged"). `cancelled`: on
 * the cancel page, which adds what was (not) charged. `state`: the checkout's state when the page
 * asked for it already (else this asks).
 */
export function PaymentOutcome({
  checkoutId,
  cancelled = false,
  oneOrder = false,
  state: given,
}: {
  checkoutId: string;
  cancelled?: boolean;
  /** The page paid one order already placed, from the order's own page: it is paid again there. */
  oneOrder?: boolean;
  state?: CheckoutState | null;
}) {
  const asked = useCheckoutState(given === undefined ? checkoutId : null);
  const state = given === undefined ? asked : given;
  if (!state) return null;
  if (state.status === 'paid') {
    return (
      <Alert
        severity="success"
        action={
          <Button component={RouterLink} to={`/checkout/success?checkout=${encodeURIComponent(checkoutId)}${oneOrder ? `&${ONE_ORDER_PAYMENT_PARAM}=1` : ''}`}>
            View
          </Button>
        }
      >
        This payment went through: your order is paid.
      </Alert>
    );
  }
  const closed = state.status === 'superseded' || state.status === 'cancelled';
  const reason = closed
    ? state.status === 'superseded'
      ? 'This payment page was replaced by a newer checkout or a payment page of its own.'
      : 'This order was cancelled.'
    : state.status === 'failed'
      ? (state.failureMessage ?? 'The payment did not go through.')
      : state.status === 'expired'
        ? 'The payment page expired before the payment was made.'
        : (state.failureMessage ?? 'The payment was not completed.');
  return (
    <Alert severity={state.status === 'open' && !state.failureMessage ? 'info' : 'error'} data-testid="payment-outcome">
      {reason} {cancelled ? 'Nothing was charged for this attempt. ' : ''}
      {oneOrder ? (closed ? '' : 'The order is kept: pay it again from its page.') : 'Your cart is saved: check the details and pay again.'}
    </Alert>
  );
}
