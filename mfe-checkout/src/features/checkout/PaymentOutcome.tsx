import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { CheckoutState, ORDER_PATHS } from '@bimi/contracts/orders';
import { callApi, failureMessage } from '@bimi/session/api';

/**
 * Why the last payment attempt did not go through, when the buyer comes back from the payment page
 * without paying; a checkout that was paid says so (never "nothing was charged"). `cancelled`: on
 * the cancel page, which adds what was (not) charged.
 */
export function PaymentOutcome({ checkoutId, cancelled = false }: { checkoutId: string; cancelled?: boolean }) {
  const [state, setState] = useState<CheckoutState | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    callApi(ORDER_PATHS.checkoutState(checkoutId), { answer: CheckoutState }).then(setState, (error: unknown) => setFailure(failureMessage(error)));
  }, [checkoutId]);
  if (failure) return null;
  if (!state) return null;
  if (state.status === 'paid') {
    return (
      <Alert
        severity="success"
        action={
          <Button component={RouterLink} to={`/checkout/success?checkout=${encodeURIComponent(checkoutId)}`}>
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
      {reason} {cancelled ? 'Nothing was charged for this attempt. ' : ''}Your cart is saved: check the details and pay again.
    </Alert>
  );
}
