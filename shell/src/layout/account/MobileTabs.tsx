import { useState } from 'react';
import { NavLink as RouterNavLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import BuildOutlined from '@mui/icons-material/BuildOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import ShoppingCartOutlined from '@mui/icons-material/ShoppingCartOutlined';
import MoreHoriz from '@mui/icons-material/MoreHoriz';
import { MoreSheet } from './MoreSheet';

export const MOBILE_TABS_HEIGHT = 64;

const TABS = [
  { to: '/account/dashboard', label: 'Dashboard', Icon: DashboardOutlined },
  { to: '/account/tools', label: 'Tools', Icon: BuildOutlined },
  { to: '/account/orders', label: 'Orders', Icon: ReceiptLongOutlined },
  { to: '/account/buy-now', label: 'Buy Now', Icon: ShoppingCartOutlined },
];

const tabSx = {
  font: 'inherit',
  flex: 1,
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: 0.25,
  color: 'text.secondary',
  textDecoration: 'none',
  fontSize: 11,
  fontWeight: 600,
  whiteSpace: 'nowrap',
  border: 0,
  bgcolor: 'transparent',
  cursor: 'pointer',
  '&.active': { color: 'primary.main' },
} as const;

/** Spec §2: bottom tabs on phones: Dashboard, Tools, Orders, Buy Now, More. */
export function MobileTabs() {
  const [moreOpen, setMoreOpen] = useState(false);
  return (
    <>
      <Box
        component="nav"
        aria-label="Account"
        data-testid="mobile-tabs"
        sx={{
          position: 'fixed',
          inset: 'auto 0 0 0',
          height: MOBILE_TABS_HEIGHT,
          zIndex: 'appBar',
          display: 'flex',
          bgcolor: 'background.paper',
          borderTop: '1px solid',
          borderColor: 'divider',
          pb: 'env(safe-area-inset-bottom)',
        }}
      >
        {TABS.map(({ to, label, Icon }) => (
          <Box key={to} component={RouterNavLink} to={to} sx={tabSx}>
            <Icon />
            {label}
          </Box>
        ))}
        <Box component="button" type="button" sx={tabSx} aria-expanded={moreOpen} aria-haspopup="dialog" onClick={() => setMoreOpen(true)}>
          <MoreHoriz />
          More
        </Box>
      </Box>
      {moreOpen && <MoreSheet onClose={() => setMoreOpen(false)} />}
    </>
  );
}
