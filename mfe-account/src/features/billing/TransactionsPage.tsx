import { Fragment } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { usePhoneHint } from '@bimi/session/page-state';
import type { Theme } from '@mui/material/styles';
import { formatUsd } from '@bimi/catalog/prices';
import { ORDER_PATHS, TransactionList, type Transaction } from '@bimi/contracts/orders';
import type { PageProps } from '@bimi/ui/RouteTable';
import { shortDate } from '@bimi/contracts/dates';
import { useApi } from '../../lib/useApi';
import { signedAmount, TransactionStatusChip } from '../../components/TransactionStatusChip';

/** Each order the transaction paid, by number (issue 30: a checkout of several orders showed "Order —"). */
function OrderLinks({ t }: { t: Transaction }) {
  if (t.orders.length === 0) return <>—</>;
  return (
    <>
      {t.orders.map((order, index) => (
        <Fragment key={order.id}>
          {index > 0 && ', '}
          <Link component={RouterLink} to={`/account/orders/${encodeURIComponent(order.id)}`} sx={{ whiteSpace: 'nowrap' }} data-testid="transaction-order">
            {order.number}
          </Link>
        </Fragment>
      ))}
    </>
  );
}

/** What the transaction paid: each order's product, domains and logo, or the provider's words when it names no order. */
function Description({ t }: { t: Transaction }) {
  if (t.orders.length === 0) return <>{t.description}</>;
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {t.orders.map((order) => (
        <li key={order.id} data-testid="transaction-order-label">
          {t.orders.length > 1 && <>{order.number}: </>}
          {order.label}
        </li>
      ))}
    </Box>
  );
}

function Receipt({ t }: { t: Transaction }) {
  if (!t.receiptUrl && !t.hostedUrl) return <Typography color="text.secondary">—</Typography>;
  return (
    <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
      {t.receiptUrl && (
        <Link href={t.receiptUrl} target="_blank" rel="noopener" aria-label={`Receipt PDF for ${t.description}, ${shortDate(t.date)}`}>
          Receipt (PDF)
        </Link>
      )}
      {t.hostedUrl && (
        <Link href={t.hostedUrl} target="_blank" rel="noopener">
          Invoice
        </Link>
      )}
    </Box>
  );
}

/** Spec §2: every charge and refund, newest first, each with its receipt. */
export function TransactionsPage({ route }: PageProps) {
  const { data, error, loading, reload } = useApi(ORDER_PATHS.transactions, TransactionList);
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { defaultMatches: usePhoneHint() });
  return (
    <Box>
      <Typography variant="h1" gutterBottom sx={{ fontSize: { xs: 28, md: 34 } }}>
        {route.title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Every charge and refund on your account, with a receipt for each.
      </Typography>
      {error ? (
        <Alert severity="error" action={<Button onClick={reload}>Retry</Button>}>
          {error}
        </Alert>
      ) : loading && !data ? (
        <Skeleton variant="rounded" height={180} aria-label="Loading transactions" />
      ) : !data || data.transactions.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, borderRadius: 3, textAlign: 'center' }} data-testid="transactions-empty">
          <Typography sx={{ fontWeight: 600 }}>No payments yet.</Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            Your charges, refunds and receipts appear here after your first purchase.
          </Typography>
        </Paper>
      ) : narrow ? (
        <Box component="ul" sx={{ m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1.5 }} aria-label="Transactions">
          {data.transactions.map((t) => (
            <Paper component="li" key={t.id} variant="outlined" data-testid="transaction-row" sx={{ listStyle: 'none', p: 2, borderRadius: 2 }}>
              <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
                <Typography sx={{ fontWeight: 600 }}>{formatUsd(signedAmount(t))}</Typography>
                <TransactionStatusChip status={t.status} />
              </Box>
              <Typography variant="body2" component="div">
                <Description t={t} />
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {shortDate(t.date)}
                {t.orders.length > 0 && (
                  <>
                    {' · '}
                    <OrderLinks t={t} />
                  </>
                )}
              </Typography>
              <Receipt t={t} />
            </Paper>
          ))}
        </Box>
      ) : (
        <Paper variant="outlined" sx={{ borderRadius: 3, overflow: 'hidden' }}>
          <Box
            component="table"
            aria-label="Transactions"
            sx={{
              width: '100%',
              borderCollapse: 'collapse',
              fontSize: 15,
              '& th, & td': { textAlign: 'left', px: 2, py: 1.5, borderBottom: '1px solid', borderColor: 'divider' },
              '& th': { bgcolor: 'action.hover', fontWeight: 600 },
              '& tr:last-of-type td': { borderBottom: 0 },
            }}
          >
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Order</th>
                <th scope="col">Description</th>
                <th scope="col" style={{ textAlign: 'right' }}>
                  Amount
                </th>
                <th scope="col">Status</th>
                <th scope="col">Receipt</th>
              </tr>
            </thead>
            <tbody>
              {data.transactions.map((t) => (
                <tr key={t.id} data-testid="transaction-row">
                  <td>{shortDate(t.date)}</td>
                  <td>
                    <OrderLinks t={t} />
                  </td>
                  <td>
                    <Description t={t} />
                  </td>
                  <td style={{ textAlign: 'right', fontWeight: 600, whiteSpace: 'nowrap' }}>{formatUsd(signedAmount(t))}</td>
                  <td>
                    <TransactionStatusChip status={t.status} />
                  </td>
                  <td>
                    <Receipt t={t} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Box>
        </Paper>
      )}
    </Box>
  );
}
