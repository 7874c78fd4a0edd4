import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { PageProps } from '@bimi/ui/RouteTable';

const SHORTCUTS = [
  { to: '/account/tools/bimi-checker', label: 'Check a BIMI record' },
  { to: '/account/tools/dmarc-inspector', label: 'Inspect DMARC' },
  { to: '/account/orders', label: 'Track orders' },
  { to: '/account/billing/transactions', label: 'Billing' },
];

export function DashboardPage({ route }: PageProps) {
  return (
    <Box>
      <Typography variant="h1" gutterBottom>
        {route.title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Your certificates, monitors and email-authentication tools in one place.
      </Typography>
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
        {SHORTCUTS.map((s, i) => (
          <Button key={s.to} component={RouterLink} to={s.to} variant={i === 0 ? 'contained' : 'outlined'} data-testid={i === 0 ? 'theme-probe' : undefined}>
            {s.label}
          </Button>
        ))}
      </Box>
    </Box>
  );
}
