import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import Typography from '@mui/material/Typography';
import { BUY_NOW_PATH, PRODUCT_LINKS, PUBLIC_TOOL_LINKS, SUPPORT_LINKS, USER_MENU_LINKS, type NavLink } from './navigation';
import { signOutToSignIn } from './signOutToSignIn';

function Section({ heading, links, onNavigate }: { heading: string; links: NavLink[]; onNavigate: () => void }) {
  return (
    <Box component="nav" aria-label={heading} sx={{ mb: 2 }}>
      <Typography variant="overline" color="text.secondary" component="p">
        {heading}
      </Typography>
      {links.map((link) => (
        <Box key={link.to} component={RouterLink} to={link.to} onClick={onNavigate} sx={{ display: 'block', py: 1, color: 'text.primary', textDecoration: 'none', fontWeight: 600 }}>
          {link.label}
        </Box>
      ))}
    </Box>
  );
}

/** Below 992px the header's navigation moves into this drawer. */
export function MobileMenu({ onClose, signedIn }: { onClose: () => void; signedIn: boolean }) {
  return (
    <Drawer anchor="right" open onClose={onClose} slotProps={{ paper: { sx: { width: 'min(320px, 88vw)', p: 3 } } }}>
      {signedIn && <Section heading="Your account" links={USER_MENU_LINKS} onNavigate={onClose} />}
      <Section heading="Products" links={PRODUCT_LINKS} onNavigate={onClose} />
      <Section heading="Support" links={SUPPORT_LINKS} onNavigate={onClose} />
      <Section heading="Tools" links={PUBLIC_TOOL_LINKS} onNavigate={onClose} />
      <Button component={RouterLink} to={BUY_NOW_PATH} variant="contained" fullWidth onClick={onClose}>
        Buy Now
      </Button>
      {signedIn && (
        <Button variant="outlined" fullWidth onClick={signOutToSignIn} sx={{ mt: 1.5 }}>
          Sign Out
        </Button>
      )}
    </Drawer>
  );
}
