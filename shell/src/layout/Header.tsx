import { lazy, Suspense, useState } from 'react';
import styled from '@emotion/styled';
import { Link as RouterLink } from 'react-router-dom';
import { brand } from '@bimi/ui/brand';
import { useSession } from '@bimi/session/useSession';
import { ACCOUNT_CHECK_TOOL_LINKS, BUY_NOW_PATH, EMAIL_TOOL_LINKS, PRODUCT_LINKS, PUBLIC_TOOL_LINKS, SIGN_IN_PATH, SUPPORT_LINKS } from './navigation';
import type { DropdownSection } from './Dropdown';
import { Dropdown } from './Dropdown';
import { CartToggle } from './CartToggle';
import { Logo } from './Logo';
import { buttonStyle, down, Icon, IconButton, iconButtonStyle, up } from './plain';
import { useScrollY } from './useScrollY';
import { UserMenu } from './UserMenu';
import { loadThemed } from '../app/load-themed';
import { OptionalPart } from '../app/OptionalPart';

// The phone menu (and MUI's Drawer, with the theme) loads on first tap, not with the page.
// A new lazy component after a failed load: React keeps a rejected one rejected.
const lazyMobileMenu = () => lazy(loadThemed(() => import(/* webpackChunkName: "phone-menu" */ './MobileMenu').then((m) => m.MobileMenu)));

export const HEADER_HEIGHT = 64;
/** Spec §2: elsewhere than the white-header pages, the background fades in over the first 20px of scroll. */
const FADE_DISTANCE = 20;

const Bar = styled.header({
  position: 'fixed',
  inset: '0 0 auto 0',
  height: HEADER_HEIGHT,
  // MUI's app bar level: under the drawers (1200), the cookie banner (1250) and dialogs (1300).
  zIndex: 1100,
  display: 'flex',
  alignItems: 'center',
  gap: 8,
  boxSizing: 'border-box',
  padding: '0 16px',
  color: brand.ink,
  [up.md]: { padding: '0 32px' },
});

const MainNav = styled.nav({ display: 'none', alignItems: 'center', marginLeft: 24, gap: 4, [up.md]: { display: 'flex' } });
const SignIn = styled(RouterLink)(iconButtonStyle);
const BuyNow = styled(RouterLink)({ ...buttonStyle('contained'), marginLeft: 8, [down.sm]: { display: 'none' } });
const OpenMenu = styled(IconButton)({ [up.md]: { display: 'none' } });

export function Header({ variant }: { variant: 'white' | 'fade' }) {
  const scrollY = useScrollY();
  const [menuOpen, setMenuOpen] = useState(false);
  const [MobileMenu, setMobileMenu] = useState(lazyMobileMenu);
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
    <Bar
      data-testid="site-header"
      data-header-variant={variant}
      style={{
        backgroundColor: `rgba(255,255,255,${opacity})`,
        boxShadow: opacity > 0 ? `0 1px 0 rgba(11,31,68,${0.08 * opacity})` : 'none',
      }}
    >
      <Logo />
      <MainNav aria-label="Main">
        <Dropdown label="Products" sections={[{ links: PRODUCT_LINKS }]} />
        <Dropdown label="Resources" sections={resources} />
      </MainNav>
      <div style={{ flex: 1 }} />
      <CartToggle />
      {session ? (
        <UserMenu name={session.user.name} email={session.user.email} />
      ) : (
        <SignIn to={SIGN_IN_PATH} aria-label="Sign in" data-testid="sign-in-link">
          <Icon name="person" />
        </SignIn>
      )}
      <BuyNow to={BUY_NOW_PATH}>Buy Now</BuyNow>
      <OpenMenu type="button" aria-label="Open menu" aria-expanded={menuOpen} onClick={() => setMenuOpen(true)}>
        <Icon name="menu" />
      </OpenMenu>
      {menuOpen && (
        <OptionalPart
          name="phone menu"
          onFailed={() => {
            setMenuOpen(false);
            setMobileMenu(() => lazyMobileMenu());
          }}
        >
          <Suspense fallback={null}>
            <MobileMenu onClose={() => setMenuOpen(false)} signedIn={session !== null} />
          </Suspense>
        </OptionalPart>
      )}
    </Bar>
  );
}
