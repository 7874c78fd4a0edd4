import { useId, useState } from 'react';
import styled from '@emotion/styled';
import { Link as RouterLink } from 'react-router-dom';
import { brand } from '@bimi/ui/brand';
import { USER_MENU_LINKS } from './navigation';
import { colors, Icon, IconButton, Surface } from './plain';
import { signOutToSignIn } from './signOutToSignIn';
import { useHeaderPopupDismissal } from './useHeaderPopupDismissal';

const itemStyle = {
  font: 'inherit',
  display: 'block',
  boxSizing: 'border-box',
  width: '100%',
  textAlign: 'left',
  padding: '8px 12px',
  borderRadius: 4,
  border: 0,
  background: 'transparent',
  cursor: 'pointer',
  color: brand.ink,
  fontWeight: 600,
  textDecoration: 'none',
  '&:hover, &:focus-visible': { background: colors.hover },
} as const;

const Item = styled(RouterLink)(itemStyle);
const SignOut = styled.button({ ...itemStyle, color: brand.blue, marginTop: 4 });
const Panel = styled(Surface)({ position: 'absolute', top: '100%', right: 0, marginTop: 4, padding: 8, width: 260, zIndex: 2 });
const Line = styled.p({ margin: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });

/**
 * Spec §2: the signed-in header's user menu (Dashboard, Profile, Orders, Billing, Manage
 * Data, Support, Sign Out). Plain elements like the other header dropdowns.
 */
export function UserMenu({ name, email }: { name: string; email: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useHeaderPopupDismissal(open, () => setOpen(false));

  return (
    <div ref={root} style={{ position: 'relative' }}>
      <IconButton aria-label="Account menu" aria-expanded={open} aria-controls={id} data-testid="user-menu-button" onClick={() => setOpen((o) => !o)}>
        <Icon name="accountCircle" />
      </IconButton>
      {open && (
        <Panel id={id} data-testid="user-menu">
          <div style={{ padding: '8px 12px', marginBottom: 4, borderBottom: `1px solid ${colors.divider}` }}>
            <Line style={{ fontWeight: 700 }}>{name}</Line>
            <Line style={{ fontSize: '0.875rem', color: brand.muted }}>{email}</Line>
          </div>
          <nav aria-label="Your account">
            {USER_MENU_LINKS.map((link) => (
              <Item key={link.to} to={link.to}>
                {link.label}
              </Item>
            ))}
            <SignOut type="button" onClick={signOutToSignIn}>
              Sign Out
            </SignOut>
          </nav>
        </Panel>
      )}
    </div>
  );
}
