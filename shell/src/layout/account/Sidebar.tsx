import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { Link as RouterLink, NavLink as RouterNavLink, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import BuildOutlined from '@mui/icons-material/BuildOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import HelpOutlined from '@mui/icons-material/HelpOutlined';
import ShoppingCartOutlined from '@mui/icons-material/ShoppingCartOutlined';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import ExpandMore from '@mui/icons-material/ExpandMore';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import AccountCircleOutlined from '@mui/icons-material/AccountCircleOutlined';
import MonitorHeartOutlined from '@mui/icons-material/MonitorHeartOutlined';
import { useSession } from '@bimi/session/useSession';
import { useSidebarCollapsedHint } from '@bimi/session/page-state';
import { SIDEBAR_COOKIE } from '@bimi/contracts/page-state';
import { writePreferenceCookie } from './preference-cookie';
import { Logo } from '../Logo';
import { ACCOUNT_SUPPORT_LINKS, ACCOUNT_TOOL_LINKS, MONITORS_LINK, SETTINGS_LINKS, type NavLink } from '../navigation';
import { signOutToSignIn } from '../signOutToSignIn';
import { AddMonitorButton } from './AddMonitorButton';
import { CollapsedTooltip } from './CollapsedTooltip';

const SIDEBAR_COLLAPSED_KEY = 'bimi.sidebar.collapsed';

function readCollapsed(): boolean {
  try {
    return window.localStorage.getItem(SIDEBAR_COLLAPSED_KEY) === 'true';
  } catch {
    return false;
  }
}

const itemSx = {
  font: 'inherit',
  display: 'flex',
  alignItems: 'center',
  gap: 1.5,
  px: 1.5,
  py: 1,
  borderRadius: 1.5,
  color: 'text.primary',
  textDecoration: 'none',
  fontWeight: 600,
  fontSize: 15,
  width: '100%',
  border: 0,
  bgcolor: 'transparent',
  cursor: 'pointer',
  textAlign: 'left',
  '&:hover': { bgcolor: 'action.hover' },
  '&.active': { bgcolor: 'primary.main', color: 'primary.contrastText' },
} as const;

function Item({ to, icon, label, collapsed, activeWhen }: { to: string; icon: ReactNode; label: string; collapsed: boolean; activeWhen?: (pathname: string) => boolean }) {
  const { pathname } = useLocation();
  // A link with a fragment (the dashboard's #monitors) is active on its own pages, not on the dashboard's.
  const className = activeWhen ? (activeWhen(pathname) ? 'active' : '') : undefined;
  const link = (
    <Box component={activeWhen ? RouterLink : RouterNavLink} to={to} sx={itemSx} aria-label={collapsed ? label : undefined} className={className}>
      {icon}
      {!collapsed && <span>{label}</span>}
    </Box>
  );
  return collapsed ? <CollapsedTooltip title={label}>{link}</CollapsedTooltip> : link;
}

function Group({ icon, label, links, collapsed, prefix }: { icon: ReactNode; label: string; links: NavLink[]; collapsed: boolean; prefix?: string }) {
  const { pathname } = useLocation();
  const [open, setOpen] = useState(() => (prefix ? pathname.startsWith(prefix) : false));
  if (collapsed) return <Item to={links[0]?.to ?? '/account'} icon={icon} label={label} collapsed />;
  return (
    <Box>
      <Box component="button" type="button" sx={itemSx} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {icon}
        <span style={{ flex: 1 }}>{label}</span>
        <ExpandMore fontSize="small" sx={{ transition: 'transform .2s', transform: open ? 'rotate(180deg)' : 'none' }} />
      </Box>
      {open && (
        <Box component="ul" sx={{ listStyle: 'none', m: 0, py: 0.5, pl: 5 }}>
          {links.map((link) => (
            <li key={link.to}>
              {link.external ? (
                <Box component="a" href={link.to} target="_blank" rel="noopener" sx={{ ...itemSx, py: 0.6, fontWeight: 500, fontSize: 14 }}>
                  {link.label}
                </Box>
              ) : (
                <Box component={RouterNavLink} to={link.to} sx={{ ...itemSx, py: 0.6, fontWeight: 500, fontSize: 14 }}>
                  {link.label}
                </Box>
              )}
            </li>
          ))}
        </Box>
      )}
    </Box>
  );
}

/** Spec §2: the sidebar's user menu, showing the signed-in email with sign out. */
function UserMenu({ collapsed }: { collapsed: boolean }) {
  const { data: session } = useSession();
  const [open, setOpen] = useState(false);
  if (!session) return null;
  const { email } = session.user;
  if (collapsed) {
    return (
      <Box sx={{ borderTop: '1px solid', borderColor: 'divider', pt: 1.5 }}>
        <CollapsedTooltip title={`Sign out ${email}`}>
          <IconButton onClick={signOutToSignIn} aria-label="Sign out" sx={{ display: 'flex', mx: 'auto' }}>
            <LogoutOutlined />
          </IconButton>
        </CollapsedTooltip>
      </Box>
    );
  }
  return (
    <Box data-testid="sidebar-user-menu" sx={{ borderTop: '1px solid', borderColor: 'divider', pt: 1 }}>
      {open && (
        <Box component="button" type="button" onClick={signOutToSignIn} sx={{ ...itemSx, fontWeight: 500, fontSize: 14 }}>
          <LogoutOutlined fontSize="small" />
          <span>Sign out</span>
        </Box>
      )}
      <Box component="button" type="button" aria-expanded={open} aria-label={`Account: ${email}`} onClick={() => setOpen((o) => !o)} sx={{ ...itemSx, fontWeight: 500, fontSize: 14 }}>
        <AccountCircleOutlined />
        <Box component="span" sx={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {email}
        </Box>
        <ExpandMore fontSize="small" sx={{ transition: 'transform .2s', transform: open ? 'none' : 'rotate(180deg)' }} />
      </Box>
    </Box>
  );
}

const noSubscription = () => () => {};

/** Spec §2: the desktop account sidebar, collapsible, the choice remembered locally. */
export function Sidebar() {
  // The server draws it as the choice's cookie says, and hydration the same; the browser's storage
  // decides right after (a choice made before the cookie was kept too).
  const drawnCollapsed = useSidebarCollapsedHint();
  const stored = useSyncExternalStore(noSubscription, readCollapsed, () => drawnCollapsed);
  const [chosen, setChosen] = useState<boolean | null>(null);
  const collapsed = chosen ?? stored;
  const toggle = () => {
    const next = !collapsed;
    setChosen(next);
    writePreferenceCookie(SIDEBAR_COOKIE, next ? 'collapsed' : 'open');
    try {
      window.localStorage.setItem(SIDEBAR_COLLAPSED_KEY, String(next));
    } catch {
      // Private mode without storage: the cookie keeps the choice.
    }
  };
  return (
    <Box
      component="aside"
      data-testid="account-sidebar"
      data-collapsed={collapsed}
      sx={{
        width: collapsed ? 76 : 272,
        flexShrink: 0,
        position: 'sticky',
        top: 0,
        height: '100vh',
        overflowY: 'auto',
        bgcolor: 'background.paper',
        borderRight: '1px solid',
        borderColor: 'divider',
        display: 'flex',
        flexDirection: 'column',
        p: 1.5,
        gap: 0.5,
        transition: 'width .2s',
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: collapsed ? 'center' : 'space-between', px: 1, py: 1, mb: 1 }}>
        <Logo compact={collapsed} />
        {!collapsed && (
          <IconButton size="small" onClick={toggle} aria-label="Collapse sidebar">
            <ChevronLeft />
          </IconButton>
        )}
      </Box>
      {collapsed && (
        <IconButton size="small" onClick={toggle} aria-label="Expand sidebar" sx={{ alignSelf: 'center', mb: 1 }}>
          <ChevronRight />
        </IconButton>
      )}
      <AddMonitorButton variant={collapsed ? 'sidebar-collapsed' : 'sidebar'} />
      <Box component="nav" aria-label="Account" sx={{ display: 'grid', gap: 0.5 }}>
        <Item to="/account/dashboard" icon={<DashboardOutlined />} label="Dashboard" collapsed={collapsed} />
        <Item to={MONITORS_LINK.to} icon={<MonitorHeartOutlined />} label={MONITORS_LINK.label} collapsed={collapsed} activeWhen={(path) => path.startsWith('/account/monitors/')} />
        <Group icon={<BuildOutlined />} label="Tools" links={ACCOUNT_TOOL_LINKS} collapsed={collapsed} prefix="/account/tools" />
        <Item to="/account/orders" icon={<ReceiptLongOutlined />} label="My Orders" collapsed={collapsed} />
        <Group icon={<SettingsOutlined />} label="Settings" links={SETTINGS_LINKS} collapsed={collapsed} prefix="/account/settings" />
        <Group icon={<HelpOutlined />} label="Support" links={ACCOUNT_SUPPORT_LINKS} collapsed={collapsed} />
        <Item to="/account/buy-now" icon={<ShoppingCartOutlined />} label="Buy Now" collapsed={collapsed} />
      </Box>
      <Box sx={{ flex: 1 }} />
      <UserMenu collapsed={collapsed} />
    </Box>
  );
}
