import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { formatUsd } from '@bimi/catalog/prices';
import { ORDER_FILTERS, ORDER_PATHS, OrderList, type OrderFilter, type OrderSummary } from '@bimi/contracts/orders';
import type { PageProps } from '@bimi/ui/RouteTable';
import { shortDate } from '@bimi/contracts/dates';
import { useApi } from '../../lib/useApi';
import { FILTER_EMPTY, FILTER_LABELS, isOrderFilter, perPeriod, periodEndText } from '../../lib/order-format';
import { OrderStatusChip } from '../../components/OrderStatusChip';

export function orderPath(order: { id: string }): string {
  return `/account/orders/${encodeURIComponent(order.id)}`;
}

function OrderRow({ order }: { order: OrderSummary }) {
  return (
    <Paper component="li" variant="outlined" data-testid="order-row" data-order={order.number} sx={{ listStyle: 'none', p: { xs: 2, md: 2.5 }, borderRadius: 3 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ minWidth: 0 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Link component={RouterLink} to={orderPath(order)} sx={{ fontWeight: 700 }} aria-label={`Order ${order.number}, ${order.productName}`}>
              {order.number}
            </Link>
            <OrderStatusChip status={order.status} state={order.state} />
          </Box>
          <Typography sx={{ fontWeight: 600, mt: 0.5 }}>{order.productName}</Typography>
          <Typography variant="body2" color="text.secondary">
            {order.description} · ordered {shortDate(order.createdAt)}
          </Typography>
        </Box>
        <Box sx={{ textAlign: { xs: 'left', sm: 'right' } }}>
          <Typography sx={{ fontWeight: 700 }} data-testid="order-amount">
            {formatUsd(order.amount)}{' '}
            <Box component="span" sx={{ fontWeight: 400, color: 'text.secondary', fontSize: 14 }}>
              {perPeriod(order.billingPeriod)}
            </Box>
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {periodEndText(order)}
          </Typography>
        </Box>
      </Box>
      {order.needsAction.length > 0 && (
        <Alert
          severity="warning"
          sx={{ mt: 1.5 }}
          action={
            <Button component={RouterLink} to={orderPath(order)} size="small" color="inherit">
              Open
            </Button>
          }
        >
          {order.needsAction.join(' ')}
        </Alert>
      )}
    </Paper>
  );
}

/** Spec §2: /account/orders?status=all|active|pending|incomplete|expiring, with the count of each. */
export function OrdersPage({ route }: PageProps) {
  const [params, setParams] = useSearchParams();
  const status = params.get('status');
  const filter: OrderFilter = isOrderFilter(status) ? status : 'all';
  const { data, error, loading, reload } = useApi(`${ORDER_PATHS.orders}?status=${filter}`, OrderList);

  return (
    <Box>
      <Typography variant="h1" gutterBottom sx={{ fontSize: { xs: 28, md: 34 } }}>
        {route.title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Your certificates and DMARC plans: what each costs, when it renews and what it still needs from you.
      </Typography>
      <Tabs
        value={filter}
        onChange={(_, next: OrderFilter) => setParams(next === 'all' ? {} : { status: next })}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label="Filter orders"
        sx={{ mb: 2.5, borderBottom: 1, borderColor: 'divider' }}
      >
        {ORDER_FILTERS.map((f) => (
          <Tab key={f} value={f} label={data ? `${FILTER_LABELS[f]} (${data.counts[f] ?? 0})` : FILTER_LABELS[f]} data-testid={`orders-filter-${f}`} />
        ))}
      </Tabs>
      {error ? (
        <Alert severity="error" action={<Button onClick={reload}>Retry</Button>}>
          {error}
        </Alert>
      ) : loading && !data ? (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} aria-busy="true" aria-label="Loading orders">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={104} />
          ))}
        </Box>
      ) : data && data.orders.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, borderRadius: 3, textAlign: 'center' }} data-testid="orders-empty">
          <Typography sx={{ fontWeight: 600 }}>{FILTER_EMPTY[filter]}</Typography>
          {filter === 'all' && (
            <>
              <Typography color="text.secondary" sx={{ mt: 1, mb: 2 }}>
                Buy a mark certificate to show your logo in the inbox, or a DMARC plan to reach enforcement.
              </Typography>
              <Button component={RouterLink} to="/account/buy-now" variant="contained">
                Buy a certificate
              </Button>
            </>
          )}
        </Paper>
      ) : (
        <Box component="ul" sx={{ m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 2 }} aria-label={`${FILTER_LABELS[filter]} orders`}>
          {data?.orders.map((order) => (
            <OrderRow key={order.id} order={order} />
          ))}
        </Box>
      )}
    </Box>
  );
}
