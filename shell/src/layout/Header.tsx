import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import MenuIcon from '@mui/icons-material/Menu';
import { useSession } from '@bimi/session/useSession';
import { ACCOUNT_CHECK_TOOL_LINKS, BUY_NOW_PATH, EMAIL_TOOL_LINKS, PRODUCT_LINKS, PUBLIC_TOOL_LINKS, SIGN_IN_PATH, SUPPORT_LINKS } from './navigation';
import type { DropdownSection } from './Dropdown';
import { Dropdown } from './Dropdown';
import { CartToggle } from './CartToggle';
import { Logo } from './Logo';
import { useScrollY } from './useScrollY';
import { UserMenu } from './UserMenu';

// The phone menu (and MUI's Drawer) loads on first tap, not with the page.
const MobileMenu = lazy(() => import('./MobileMenu').then((m) => ({ default: m.MobileMenu })));

export const HEADER_HEIGHT = 64;
/** Spec §2: elsewhere than the white-header pages, the background fades in over the first 20px of scroll. */
const FADE_DISTANCE = 20;

export function Header({ variant }: { variant: 'white' | 'fade' }) {
  const scrollY = useScrollY();
  const [menuOpen, setMenuOpen] = useState(false);
  const opacity = variant === 'white' ? 1 : Math.min(scrollY / FADE_DISTANCE, 1);
  const { data: session } = useSession();
  const resources: DropdownSection[] = [
    { heading: 'Support', links: SUPPORT_LINKS },
    { heading: 'Tools', links: PUBLIC_TOOL_LINKS },
    ...(session
      ? [
          { heading: 'Account Tools', links: ACCOUNT_CHECK_TOOL_LINKS },
          { heading: 'Email Tools', links: EMAIL_TOOL_LINKS },
        ]
      : []),
  ];
  return (
    <Box
      component="header"
      data-testid="site-header"
      data-header-variant={variant}
      sx={{
        position: 'fixed',
        inset: '0 0 auto 0',
        height: HEADER_HEIGHT,
        zIndex: 'appBar',
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: { xs: 2, md: 4 },
        color: 'text.primary',
      }}
      style={{
        backgroundColor: `rgba(255,255,255,${opacity})`,
        boxShadow: opacity > 0 ? `0 1px 0 rgba(11,31,68,${0.08 * opacity})` : 'none',
      }}
    >
      <Logo />
      <Box component="nav" aria-label="Main" sx={{ display: { xs: 'none', md: 'flex' }, alignItems: 'center', ml: 3, gap: 0.5 }}>
        <Dropdown label="Products" sections={[{ links: PRODUCT_LINKS }]} />
        <Dropdown label="Resources" sections={resources} />
      </Box>
      <Box sx={{ flex: 1 }} />
      <CartToggle />
      {session ? (
        <UserMenu name={session.user.name} email={session.user.email} />
      ) : (
        <IconButton component={RouterLink} to={SIGN_IN_PATH} color="inherit" aria-label="Sign in" data-testid="sign-in-link">
          <PersonOutlined />
        </IconButton>
      )}
      <Button component={RouterLink} to={BUY_NOW_PATH} variant="contained" sx={{ display: { xs: 'none', sm: 'inline-flex' }, ml: 1 }}>
        Buy Now
      </Button>
      <IconButton color="inherit" aria-label="Open menu" aria-expanded={menuOpen} onClick={() => setMenuOpen(true)} sx={{ display: { xs: 'inline-flex', md: 'none' } }}>
        <MenuIcon />
      </IconButton>
      {menuOpen && (
        <Suspense fallback={null}>
          <MobileMenu onClose={() => setMenuOpen(false)} signedIn={session !== null} />
        </Suspense>
      )}
    </Box>
  );
}
