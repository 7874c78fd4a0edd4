import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { formatUsd } from '@bimi/catalog/prices';
import { ORDER_PATHS, OrderDetail, OrderPayment } from '@bimi/contracts/orders';
import { callApi, failureMessage } from '@bimi/session/api';

/**
 * What the buyer must do about an order, and the one action its state offers (the order lifecycle):
 * pay (a page for exactly this order's amount), add the details, update the card; an unpaid order
 * can also be cancelled.
 */
export function OrderActions({ order, onChanged }: { order: OrderDetail; onChanged: (order: OrderDetail) => void }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  if (order.needsAction.length === 0 && !order.action && !order.canCancel) return null;

  const pay = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const { url } = await callApi(ORDER_PATHS.orderPay(order.id), { method: 'POST', body: {}, answer: OrderPayment });
      window.location.assign(url);
    } catch (error) {
      setFailure(failureMessage(error));
      setBusy(false);
    }
  };
  const cancel = async () => {
    setBusy(true);
    setFailure(null);
    try {
      onChanged(await callApi(ORDER_PATHS.orderCancel(order.id), { method: 'POST', body: {}, answer: OrderDetail }));
      setConfirming(false);
    } catch (error) {
      setFailure(failureMessage(error));
    }
    setBusy(false);
  };

  return (
    <Alert severity={order.state === 'payment-failed' || order.state === 'overdue' ? 'error' : 'warning'} data-testid="order-needs-action">
      {order.needsAction.length > 0 && (
        <>
          <strong>What you need to do: </strong>
          {order.needsAction.join(' ')}
        </>
      )}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 1 }}>
        {order.action === 'pay' && (
          <Button variant="contained" size="small" onClick={() => void pay()} disabled={busy} data-testid="order-pay">
            {order.state === 'payment-failed' ? 'Pay again' : 'Pay'} {formatUsd(order.amount)}
          </Button>
        )}
        {order.action === 'add-details' && (
          <Button variant="contained" size="small" href="#order-details">
            Add the details
          </Button>
        )}
        {order.action === 'update-card' && (
          <Button variant="contained" size="small" component={RouterLink} to="/account/billing">
            Update your card
          </Button>
        )}
        {order.canCancel && (
          <Button variant="outlined" size="small" color="inherit" onClick={() => setConfirming(true)} disabled={busy} data-testid="order-cancel">
            Cancel order
          </Button>
        )}
      </Box>
      {failure && (
        <Alert severity="error" sx={{ mt: 1 }} role="alert">
          {failure}
        </Alert>
      )}
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby="order-cancel-title">
        <DialogTitle id="order-cancel-title">Cancel order {order.number}?</DialogTitle>
        <DialogContent>
          <DialogContentText>Nothing has been charged for this order. Once cancelled it can no longer be paid; you can buy it again from the store.</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>Keep the order</Button>
          <Button color="error" variant="contained" onClick={() => void cancel()} disabled={busy} data-testid="order-cancel-confirm">
            Cancel order
          </Button>
        </DialogActions>
      </Dialog>
    </Alert>
  );
}
