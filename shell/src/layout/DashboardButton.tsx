import { Link as RouterLink } from 'react-router-dom';
import Button from '@mui/material/Button';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import { DASHBOARD_PATH } from './navigation';

/** Spec §2: signed-in users outside the account area get a floating way back to their dashboard. */
export function DashboardButton() {
  return (
    <Button
      component={RouterLink}
      to={DASHBOARD_PATH}
      variant="contained"
      startIcon={<DashboardOutlined />}
      data-testid="floating-dashboard"
      sx={{ position: 'fixed', right: { xs: 16, sm: 24 }, bottom: { xs: 16, sm: 24 }, zIndex: 1200, borderRadius: 999, px: 2.5, py: 1.25, boxShadow: 6 }}
    >
      Dashboard
    </Button>
  );
}
