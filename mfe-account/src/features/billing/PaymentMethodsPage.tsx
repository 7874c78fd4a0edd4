import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import AddCardOutlined from '@mui/icons-material/AddCardOutlined';
import CreditCardOutlined from '@mui/icons-material/CreditCardOutlined';
import { ORDER_PATHS, PaymentMethodList, PaymentMethodSetup, type PaymentMethod } from '@bimi/contracts/orders';
import type { PageProps } from '@bimi/ui/RouteTable';
import { callApi, failureMessage } from '@bimi/session/api';
import { useApi } from '../../lib/useApi';

function brandName(brand: string): string {
  const known: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover', jcb: 'JCB', diners: 'Diners Club', unionpay: 'UnionPay' };
  return known[brand.toLowerCase()] ?? brand.charAt(0).toUpperCase() + brand.slice(1);
}

function cardName(card: PaymentMethod): string {
  return `${brandName(card.brand)} ending in ${card.last4}`;
}

/** Spec §2: the cards on file, the default one, and adding a card through the payment provider's page. */
export function PaymentMethodsPage({ route }: PageProps) {
  const { data, error, loading, reload, set } = useApi(ORDER_PATHS.paymentMethods, PaymentMethodList);
  const [removing, setRemoving] = useState<PaymentMethod | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setFailure(null);
    try {
      await action();
    } catch (e) {
      setFailure(failureMessage(e));
    }
    setBusy(false);
  };
  const makeDefault = (card: PaymentMethod) => run(async () => set(await callApi(ORDER_PATHS.defaultPaymentMethod(card.id), { method: 'PUT', answer: PaymentMethodList })));
  const remove = (card: PaymentMethod) =>
    run(async () => {
      set(await callApi(ORDER_PATHS.paymentMethod(card.id), { method: 'DELETE', answer: PaymentMethodList }));
      setRemoving(null);
    });
  const addCard = () =>
    run(async () => {
      const setup = await callApi(ORDER_PATHS.paymentMethodSetup, { method: 'POST', answer: PaymentMethodSetup });
      window.location.assign(setup.url);
    });

  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 2, flexWrap: 'wrap', mb: 3 }}>
        <Box>
          <Typography variant="h1" gutterBottom sx={{ fontSize: { xs: 28, md: 34 } }}>
            {route.title}
          </Typography>
          <Typography color="text.secondary">Your renewals are charged to the default card.</Typography>
        </Box>
        <Button variant="contained" startIcon={<AddCardOutlined />} onClick={addCard} disabled={busy}>
          Add a card
        </Button>
      </Box>
      {failure && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      {error ? (
        <Alert severity="error" action={<Button onClick={reload}>Retry</Button>}>
          {error}
        </Alert>
      ) : loading && !data ? (
        <Skeleton variant="rounded" height={120} aria-label="Loading payment methods" />
      ) : !data || data.paymentMethods.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, borderRadius: 3, textAlign: 'center' }} data-testid="payment-methods-empty">
          <Typography sx={{ fontWeight: 600 }}>No cards on file.</Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            The card you pay with at checkout is kept here for renewals. You can also add one now.
          </Typography>
        </Paper>
      ) : (
        <Box component="ul" aria-label="Cards" sx={{ m: 0, p: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' } }}>
          {data.paymentMethods.map((card) => (
            <Paper
              component="li"
              key={card.id}
              variant="outlined"
              data-testid="payment-method"
              sx={{ listStyle: 'none', p: 2.5, borderRadius: 3, display: 'flex', flexDirection: 'column', gap: 1.5 }}
            >
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
                <CreditCardOutlined color="action" />
                <Box sx={{ flex: 1 }}>
                  <Typography sx={{ fontWeight: 700 }}>{cardName(card)}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    Expires {String(card.expMonth).padStart(2, '0')}/{card.expYear}
                  </Typography>
                </Box>
                {card.isDefault && <Chip size="small" color="primary" label="Default" />}
              </Box>
              <Box sx={{ display: 'flex', gap: 1 }}>
                {!card.isDefault && (
                  <Button size="small" variant="outlined" onClick={() => void makeDefault(card)} disabled={busy} aria-label={`Make ${cardName(card)} the default`}>
                    Make default
                  </Button>
                )}
                <Button size="small" color="error" onClick={() => setRemoving(card)} disabled={busy} aria-label={`Remove ${cardName(card)}`}>
                  Remove
                </Button>
              </Box>
            </Paper>
          ))}
        </Box>
      )}
      <Dialog open={Boolean(removing)} onClose={() => setRemoving(null)} aria-labelledby="remove-card-title">
        <DialogTitle id="remove-card-title">Remove this card?</DialogTitle>
        <DialogContent>
          <DialogContentText>{removing ? `${cardName(removing)} will no longer be charged. Renewals use your default card.` : ''}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRemoving(null)}>Keep it</Button>
          <Button color="error" variant="contained" onClick={() => removing && void remove(removing)} disabled={busy}>
            Remove card
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
