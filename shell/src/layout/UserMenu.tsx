import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import AccountCircleOutlined from '@mui/icons-material/AccountCircleOutlined';
import { USER_MENU_LINKS } from './navigation';
import { signOutToSignIn } from './signOutToSignIn';
import { useHeaderPopupDismissal } from './useHeaderPopupDismissal';

const itemSx = {
  font: 'inherit',
  display: 'block',
  width: '100%',
  textAlign: 'left',
  px: 1.5,
  py: 1,
  borderRadius: 1,
  border: 0,
  bgcolor: 'transparent',
  cursor: 'pointer',
  color: 'text.primary',
  fontWeight: 600,
  textDecoration: 'none',
  '&:hover, &:focus-visible': { bgcolor: 'action.hover' },
} as const;

/**
 * Spec §2: the signed-in header's user menu (Dashboard, Profile, Orders, Billing, Manage
 * Data, Support, Sign Out). Plain elements like the other header dropdowns.
 */
export function UserMenu({ name, email }: { name: string; email: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useHeaderPopupDismissal(open, () => setOpen(false));

  return (
    <Box ref={root} sx={{ position: 'relative' }}>
      <IconButton color="inherit" aria-label="Account menu" aria-expanded={open} aria-controls={id} data-testid="user-menu-button" onClick={() => setOpen((o) => !o)}>
        <AccountCircleOutlined />
      </IconButton>
      {open && (
        <Paper id={id} elevation={6} data-testid="user-menu" sx={{ position: 'absolute', top: '100%', right: 0, mt: 0.5, p: 1, width: 260, zIndex: 2 }}>
          <Box sx={{ px: 1.5, py: 1, mb: 0.5, borderBottom: '1px solid', borderColor: 'divider' }}>
            <Typography sx={{ fontWeight: 700 }} noWrap>
              {name}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              {email}
            </Typography>
          </Box>
          <Box component="nav" aria-label="Your account">
            {USER_MENU_LINKS.map((link) => (
              <Box key={link.to} component={RouterLink} to={link.to} sx={itemSx}>
                {link.label}
              </Box>
            ))}
            <Box component="button" type="button" onClick={signOutToSignIn} sx={{ ...itemSx, color: 'primary.main', mt: 0.5 }}>
              Sign Out
            </Box>
          </Box>
        </Paper>
      )}
    </Box>
  );
}
