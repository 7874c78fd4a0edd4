import { Fragment, useEffect, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { usePhoneHint } from '@bimi/session/page-state';
import type { Theme } from '@mui/material/styles';
import { formatUsd } from '@bimi/catalog/prices';
import { isCertificateId, type ProductId } from '@bimi/catalog/products';
import { ACCOUNT_PATHS, Contact, ContactList, Organization, OrganizationList } from '@bimi/contracts/account';
import { ORDER_PATHS, OrderDetail, VALIDATION_STEPS } from '@bimi/contracts/orders';
import type { PageProps } from '@bimi/ui/RouteTable';
import { callApi, failureMessage } from '@bimi/session/api';
import { longDate, shortDate } from '@bimi/contracts/dates';
import { useApi } from '../../lib/useApi';
import { CertificateDetailsForm } from '@bimi/ui/CertificateDetailsForm';
import { checkDetails, emptyDraft, type DetailsDraft, type DetailsErrors } from '@bimi/ui/certificate-details';
import { billedEvery, domainCountOf, perPeriod, periodEndText, STEP_LABELS } from '../../lib/order-format';
import { OrderStatusChip } from '../../components/OrderStatusChip';
import { OrderActions } from './OrderActions';
import type { OrderState } from '@bimi/contracts/order-lifecycle';

/** Before a payment (or closed without one), nothing renews. */
const UNPAID = new Set<OrderState>(['awaiting-payment', 'payment-failed', 'cancelled', 'superseded']);
import { signedAmount, TransactionStatusChip } from '../../components/TransactionStatusChip';

function Card({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <Paper component="section" variant="outlined" aria-label={title} data-testid={testId} sx={{ p: { xs: 2, md: 3 }, borderRadius: 3 }}>
      <Typography component="h2" sx={{ fontSize: 19, fontWeight: 700, mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function ValidationStepper({ order }: { order: OrderDetail }) {
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { defaultMatches: usePhoneHint() });
  const byStep = new Map(order.validationSteps.map((s) => [s.step, s]));
  const active = VALIDATION_STEPS.findIndex((step) => byStep.get(step)?.state !== 'done');
  return (
    <Stepper activeStep={active === -1 ? VALIDATION_STEPS.length : active} orientation={narrow ? 'vertical' : 'horizontal'} alternativeLabel={!narrow} aria-label="Validation steps">
      {VALIDATION_STEPS.map((step) => {
        const state = byStep.get(step);
        // Only a finished step has a date worth showing; the others say where they stand.
        const note =
          state?.note ??
          (state?.state === 'in-progress'
            ? 'In progress'
            : state?.state === 'failed'
              ? 'Needs attention'
              : state?.state === 'done' && state.updatedAt
                ? shortDate(state.updatedAt)
                : undefined);
        return (
          <Step key={step} completed={state?.state === 'done'} data-testid="validation-step" data-state={state?.state ?? 'waiting'}>
            <StepLabel error={state?.state === 'failed'} optional={note ? <Typography variant="caption">{note}</Typography> : undefined}>
              {STEP_LABELS[step]}
            </StepLabel>
          </Step>
        );
      })}
    </Stepper>
  );
}

function DetailsCard({ order, productId, onSaved }: { order: OrderDetail; productId: ProductId; onSaved: (o: OrderDetail) => void }) {
  const [draft, setDraft] = useState<DetailsDraft>(() => emptyDraft(domainCountOf(order)));
  const [errors, setErrors] = useState<DetailsErrors>({});
  const [organizations, setOrganizations] = useState<Organization[]>([]);
  const [contacts, setContacts] = useState<Contact[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const load = () =>
      Promise.all([callApi(ACCOUNT_PATHS.organizations, { answer: OrganizationList }), callApi(ACCOUNT_PATHS.contacts, { answer: ContactList })]).then(
        ([o, c]) => {
          setOrganizations(o.organizations);
          setContacts(c.contacts);
        },
        (error: unknown) => setFailure(failureMessage(error)),
      );
    void load();
    window.addEventListener('focus', load);
    return () => window.removeEventListener('focus', load);
  }, []);

  const save = async () => {
    const checked = checkDetails(draft, productId);
    setErrors(checked.errors ?? {});
    if (!checked.details) return;
    setBusy(true);
    setFailure(null);
    try {
      onSaved(await callApi(ORDER_PATHS.orderDetails(order.id), { method: 'PUT', body: checked.details, answer: OrderDetail }));
    } catch (error) {
      setFailure(failureMessage(error));
    }
    setBusy(false);
  };

  return (
    <Card title="Finish the certificate details" testId="order-details-form">
      <Typography color="text.secondary" sx={{ mb: 2, fontSize: 15 }}>
        The certificate authority starts validation once these are in.
      </Typography>
      <CertificateDetailsForm
        name={`order ${order.number}`}
        productId={productId}
        draft={draft}
        errors={errors}
        organizations={organizations}
        contacts={contacts}
        onChange={setDraft}
        onCreateContact={async (input) => {
          try {
            const created = await callApi(ACCOUNT_PATHS.contacts, { method: 'POST', body: input, answer: Contact });
            setContacts((list) => [...list, created]);
            return created;
          } catch (error) {
            throw new Error(failureMessage(error));
          }
        }}
        onCreateOrganization={async (name) => {
          try {
            const created = await callApi(ACCOUNT_PATHS.organizations, { method: 'POST', body: { name }, answer: Organization });
            setOrganizations((list) => [...list, created]);
            return created.id;
          } catch (error) {
            throw new Error(failureMessage(error));
          }
        }}
      />
      {failure && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {failure}
        </Alert>
      )}
      <Button variant="contained" onClick={save} disabled={busy} sx={{ mt: 2.5 }}>
        {busy ? 'Saving…' : 'Submit details'}
      </Button>
    </Card>
  );
}

function RenewalCard({ order, onChanged }: { order: OrderDetail; onChanged: (o: OrderDetail) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const certificate = isCertificateId(order.productId);
  const change = async (renew: boolean) => {
    setBusy(true);
    setFailure(null);
    try {
      onChanged(await callApi(ORDER_PATHS.orderRenewal(order.id), { method: 'PUT', body: { renew }, answer: OrderDetail }));
      setConfirming(false);
    } catch (error) {
      setFailure(failureMessage(error));
    }
    setBusy(false);
  };
  const endDate = order.currentPeriodEnd ? longDate(order.currentPeriodEnd) : 'the end of the paid period';
  const editable = order.status !== 'cancelled' && order.status !== 'expired';
  return (
    <Card title="Renewal">
      <FormControlLabel
        control={<Switch checked={order.renews} disabled={!editable || busy} onChange={(e) => (e.target.checked ? void change(true) : setConfirming(true))} />}
        label="Renew automatically"
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }} data-testid="renewal-state">
        {order.renews ? `Next renewal on ${endDate}, charged to your default card.` : `Renewal off: ends on ${endDate}.`}
      </Typography>
      {failure && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {failure}
        </Alert>
      )}
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby="renewal-off-title">
        <DialogTitle id="renewal-off-title">Turn renewal off?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Renewal off: your {certificate ? 'certificate' : 'plan'} ends on {endDate}. You are not charged again, and you can turn renewal back on until then.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>Keep renewing</Button>
          <Button color="error" variant="contained" onClick={() => void change(false)} disabled={busy}>
            Turn renewal off
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}

/** One order: lines, amounts, renewal, validation steps, what is left to do, its payments. */
export function OrderPage({ route }: PageProps) {
  const { orderId = '' } = useParams();
  const { data: order, error, loading, reload, set } = useApi(ORDER_PATHS.order(orderId), OrderDetail);
  const productId = order && isCertificateId(order.productId) ? order.productId : null;

  if (error || (loading && !order) || !order) {
    return (
      <Box>
        <Link component={RouterLink} to="/account/orders">
          ← My orders
        </Link>
        <Typography variant="h1" sx={{ fontSize: { xs: 28, md: 34 }, mt: 1, mb: 2 }}>
          {route.title}
        </Typography>
        {error ? (
          <Alert severity="error" action={<Button onClick={reload}>Retry</Button>}>
            {error}
          </Alert>
        ) : (
          <Skeleton variant="rounded" height={220} aria-label="Loading the order" />
        )}
      </Box>
    );
  }

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
      <Box>
        <Link component={RouterLink} to="/account/orders">
          ← My orders
        </Link>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', mt: 1 }}>
          <Typography variant="h1" sx={{ fontSize: { xs: 28, md: 34 } }}>
            Order {order.number}
          </Typography>
          <OrderStatusChip status={order.status} state={order.state} />
        </Box>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          {order.productName} · {order.description} · ordered {longDate(order.createdAt)}
        </Typography>
      </Box>

      <OrderActions order={order} onChanged={set} />

      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' }, alignItems: 'start' }}>
        <Card title="Summary">
          <Box
            component="dl"
            sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 3, rowGap: 1, '& dt': { color: 'text.secondary' }, '& dd': { m: 0, fontWeight: 600 } }}
          >
            <dt>Amount</dt>
            <dd data-testid="order-amount">
              {formatUsd(order.amount)} {perPeriod(order.billingPeriod)}
            </dd>
            <dt>Billing</dt>
            <dd>{billedEvery(order.billingPeriod)}</dd>
            <dt>{order.renews ? 'Next renewal' : 'Ends'}</dt>
            <dd data-testid="order-period-end">
              {order.currentPeriodEnd && order.status !== 'cancelled' && order.status !== 'expired' ? longDate(order.currentPeriodEnd) : periodEndText(order)}
            </dd>
          </Box>
          <Box
            component="table"
            sx={{
              width: '100%',
              borderCollapse: 'collapse',
              mt: 2.5,
              fontSize: 15,
              '& th, & td': { textAlign: 'left', py: 1, borderBottom: '1px solid', borderColor: 'divider' },
              '& th:last-of-type, & td:last-of-type': { textAlign: 'right' },
            }}
          >
            <thead>
              <tr>
                <th>Line</th>
                <th>Qty</th>
                <th>Amount</th>
              </tr>
            </thead>
            <tbody>
              {order.lines.map((line, i) => (
                <tr key={i}>
                  <td>{line.description}</td>
                  <td>{line.quantity}</td>
                  <td>{formatUsd(line.amount)}</td>
                </tr>
              ))}
            </tbody>
          </Box>
        </Card>
        {!UNPAID.has(order.state) && <RenewalCard order={order} onChanged={set} />}
      </Box>

      {productId && (
        <Card title="Validation" testId="order-validation">
          <ValidationStepper order={order} />
        </Card>
      )}

      {productId && !order.details && (order.state === 'awaiting-payment' || order.state === 'details-needed') && (
        <Box id="order-details">
          <DetailsCard order={order} productId={productId} onSaved={set} />
        </Box>
      )}

      {order.details && (
        <Card title="Certificate details">
          <Typography>
            Domains: <strong>{order.details.domains.join(', ')}</strong>
          </Typography>
          <Typography sx={{ mt: 0.5 }}>{order.details.agencyLevel ? `Agency level: ${order.details.agencyLevel}` : `Trademark: ${order.details.trademarkStatus ?? 'Registered'}`}</Typography>
        </Card>
      )}

      <Card title="Payments">
        {order.transactions.length === 0 ? (
          <Typography color="text.secondary">No payments yet.</Typography>
        ) : (
          <Box component="ul" sx={{ m: 0, p: 0 }}>
            {order.transactions.map((t) => (
              <Box component="li" key={t.id} sx={{ listStyle: 'none', py: 1.5, borderBottom: '1px solid', borderColor: 'divider', '&:last-of-type': { borderBottom: 0 } }}>
                <Typography>{t.description}</Typography>
                {/* A checkout of several lines is one payment: said, so its amount is not read as this order's price. */}
                {t.orders.length > 1 && (
                  <Typography variant="body2" color="text.secondary" data-testid="shared-payment">
                    {t.kind === 'refund' ? 'One refund' : 'One payment'} for {t.orders.length} orders:{' '}
                    {t.orders.map((paid, index) => (
                      <Fragment key={paid.id}>
                        {index > 0 && ', '}
                        {/* An order number is not cut at its hyphen; the list breaks between numbers. */}
                        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                          {paid.number}
                        </Box>
                      </Fragment>
                    ))}
                  </Typography>
                )}
                <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap', mt: 0.5 }}>
                  <Typography variant="body2" color="text.secondary">
                    {shortDate(t.date)}
                  </Typography>
                  <TransactionStatusChip status={t.status} />
                  <Typography sx={{ fontWeight: 600 }}>{formatUsd(signedAmount(t))}</Typography>
                  {t.receiptUrl && (
                    <Link href={t.receiptUrl} target="_blank" rel="noopener" aria-label={`Receipt PDF for ${t.description}, ${shortDate(t.date)}`}>
                      Receipt (PDF)
                    </Link>
                  )}
                </Box>
              </Box>
            ))}
          </Box>
        )}
      </Card>
    </Box>
  );
}
