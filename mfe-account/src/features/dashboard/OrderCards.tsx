import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { OrderList, type OrderSummary } from '@bimi/contracts/orders';
import { useApi } from '../../lib/useApi';
import { periodEndText } from '../../lib/order-format';
import { OrderStatusChip } from '../../components/OrderStatusChip';
import { orderListPath, type OrderCardFilter } from './dashboard-answers';

const SHOWN = 3;

function OrderCard({ title, filter, empty, render }: { title: string; filter: OrderCardFilter; empty: string; render: (o: OrderSummary) => string }) {
  const { data, error, loading, reload } = useApi(orderListPath(filter), OrderList);
  const orders = data?.orders ?? [];
  return (
    <Paper component="section" variant="outlined" aria-label={title} data-testid={`dashboard-${filter}`} sx={{ p: 3, borderRadius: 3, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: 1 }}>
        <Typography variant="h2" sx={{ fontSize: 19, fontWeight: 700 }}>
          {title}
        </Typography>
        {/* Its place is kept until the count comes: the line's height and the count's edge do not move. */}
        <Typography color="text.secondary" sx={{ minWidth: '3ch', textAlign: 'right' }}>
          {data ? (data.counts[filter] ?? orders.length) : '\u00a0'}
        </Typography>
      </Box>
      {/* As tall while loading as with three lines of text (a phone): nothing below moves when the orders come. */}
      <Box sx={{ minHeight: 72, flex: 1 }}>
        {error ? (
          <Alert severity="error" action={<Button onClick={reload}>Retry</Button>}>
            {error}
          </Alert>
        ) : loading && !data ? (
          <Skeleton variant="rounded" height={64} />
        ) : orders.length === 0 ? (
          <Typography color="text.secondary" sx={{ fontSize: 15 }}>
            {empty}
          </Typography>
        ) : (
          <Box component="ul" sx={{ m: 0, p: 0 }}>
            {orders.slice(0, SHOWN).map((order) => (
              <Box component="li" key={order.id} sx={{ listStyle: 'none', py: 1, borderBottom: '1px solid', borderColor: 'divider', '&:last-of-type': { borderBottom: 0 } }}>
                <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                  <Link component={RouterLink} to={`/account/orders/${encodeURIComponent(order.id)}`} sx={{ fontWeight: 600 }}>
                    {order.number} · {order.productName}
                  </Link>
                  <OrderStatusChip status={order.status} state={order.state} />
                </Box>
                <Typography variant="body2" color="text.secondary">
                  {render(order)}
                </Typography>
              </Box>
            ))}
          </Box>
        )}
      </Box>
      <Button component={RouterLink} to={`/account/orders?status=${filter}`} sx={{ alignSelf: 'flex-start', px: 0 }}>
        {orders.length > SHOWN ? `View all ${orders.length}` : 'View orders'}
      </Button>
    </Paper>
  );
}

/** The dashboard's order cards: what needs the user's action, and what ends within 60 days. */
export function OrderCards() {
  return (
    <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' }, mb: 2.5 }}>
      <OrderCard
        title="Needs your action"
        filter="incomplete"
        empty="Nothing needs your action. Orders waiting for a payment or validation details appear here."
        render={(o) => o.needsAction.join(' ') || o.description}
      />
      <OrderCard title="Expiring soon" filter="expiring" empty="Nothing ends in the next 60 days." render={periodEndText} />
    </Box>
  );
}
