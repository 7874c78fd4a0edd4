import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import { DASHBOARD_PATH } from './navigation';

/** Height of the dock the button sits in; the same height is kept free at the end of the page. */
const DOCK_HEIGHT = 64;

/**
 * Spec §2: signed-in users outside the account area get a floating way back to their dashboard.
 * A pill floating over the page covered body text (issue 17), at 375 px and at 1280 px alike. So it
 * sits in a dock of its own at the bottom of the window, opaque like the header, and the page ends
 * with an empty block of the dock's height: every line of content can be scrolled above the dock,
 * and nothing is ever drawn behind the button itself.
 */
export function DashboardButton() {
  return (
    <>
      <Box aria-hidden data-testid="dashboard-dock-space" sx={{ height: DOCK_HEIGHT, flexShrink: 0 }} />
      <Box
        component="nav"
        aria-label="Your account"
        data-testid="dashboard-dock"
        sx={{
          position: 'fixed',
          left: 0,
          right: 0,
          bottom: 0,
          zIndex: 1100,
          height: `calc(${DOCK_HEIGHT}px + env(safe-area-inset-bottom, 0px))`,
          pb: 'env(safe-area-inset-bottom, 0px)',
          px: { xs: 2, sm: 3 },
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'flex-end',
          bgcolor: 'rgba(255, 255, 255, 0.97)',
          borderTop: '1px solid',
          borderColor: 'divider',
        }}
      >
        <Button component={RouterLink} to={DASHBOARD_PATH} variant="contained" startIcon={<DashboardOutlined />} data-testid="floating-dashboard" sx={{ borderRadius: 999, px: 2.5, py: 1 }}>
          Dashboard
        </Button>
      </Box>
    </>
  );
}
