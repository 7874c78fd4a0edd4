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

/** What the account holds besides orders (see OrderCards) and monitors (MonitorsOverview). */
const SECTIONS = [
  {
    title: 'Billing',
    text: 'Payments and payment methods appear here after your first purchase.',
    action: { to: '/account/billing/transactions', label: 'Open billing' },
  },
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
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' } }}>
        {SECTIONS.map((section) => (
          <Paper key={section.title} component="section" variant="outlined" aria-label={section.title} sx={{ p: 3, borderRadius: 3, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
            <Typography variant="h2" sx={{ fontSize: 19, fontWeight: 700 }}>
              {section.title}
            </Typography>
            <Typography color="text.secondary" sx={{ fontSize: 15, flex: 1 }}>
              {section.text}
            </Typography>
            <Button component={RouterLink} to={section.action.to} sx={{ alignSelf: 'flex-start', px: 0 }}>
              {section.action.label}
            </Button>
          </Paper>
        ))}
      </Box>
    </Box>
  );
}
