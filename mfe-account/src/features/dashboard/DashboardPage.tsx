import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useSession } from '@bimi/session/useSession';
import type { PageProps } from '@bimi/ui/RouteTable';
import { MonitorsOverview } from '../monitors/MonitorsOverview';
import { OrderCards } from './OrderCards';

const SHORTCUTS = [
  { to: '/account/tools/bimi-checker', label: 'Check a BIMI record' },
  { to: '/account/tools/dmarc-inspector', label: 'Inspect DMARC' },
  { to: '/account/orders', label: 'Track orders' },
  { to: '/account/billing/transactions', label: 'Billing' },
];

/** Billing beside orders (OrderCards) and monitors (MonitorsOverview): where charges and cards are kept. */
const BILLING_LINKS = [
  { to: '/account/billing/transactions', label: 'Transactions and receipts' },
  { to: '/account/billing/payment-methods', label: 'Payment methods' },
];

export function DashboardPage({ route }: PageProps) {
  const { data: session } = useSession();
  const firstName = session?.user.name.split(/\s+/)[0];
  return (
    <Box>
      <Typography variant="h1" gutterBottom sx={{ fontSize: { xs: 28, md: 34 } }}>
        {firstName ? `Welcome back, ${firstName}` : route.title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Your certificates, monitors and email-authentication tools in one place.
      </Typography>
      <Box component="nav" aria-label="Shortcuts" sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mb: 4 }}>
        {SHORTCUTS.map((s, i) => (
          <Button key={s.to} component={RouterLink} to={s.to} variant={i === 0 ? 'contained' : 'outlined'} data-testid={i === 0 ? 'theme-probe' : undefined}>
            {s.label}
          </Button>
        ))}
        <Button component={RouterLink} to="/account/buy-now" variant="outlined">
          Buy a certificate
        </Button>
      </Box>
      <MonitorsOverview />
      <OrderCards />
      <Paper component="section" variant="outlined" aria-label="Billing" sx={{ p: 3, borderRadius: 3, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <Typography variant="h2" sx={{ fontSize: 19, fontWeight: 700 }}>
          Billing
        </Typography>
        <Typography color="text.secondary" sx={{ fontSize: 15 }}>
          Every charge and refund with its receipt, and the cards your subscriptions renew with.
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          {BILLING_LINKS.map((link) => (
            <Button key={link.to} component={RouterLink} to={link.to} sx={{ px: 0 }}>
              {link.label}
            </Button>
          ))}
        </Box>
      </Paper>
    </Box>
  );
}
