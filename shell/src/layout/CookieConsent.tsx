import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { chooseConsent, consent, loadTagManager } from '../analytics/consent';
import { useShell } from '../app/shell-context';
import { COOKIE_BANNER_END_ID } from '@bimi/contracts/consent';

/** Spec §2, §4: shown until the visitor chooses; the tag manager loads only after acceptance. */
export function CookieConsent() {
  const snapshot = useSnapshot(consent);
  const { config, serverConsent } = useShell();
  // The server reads the same cookie from the request: the first HTML shows the banner exactly
  // when the browser will, and it is painted with the page instead of after hydration.
  const choice = serverConsent === undefined ? snapshot.choice : serverConsent;

  useEffect(() => {
    if (choice === 'accepted' && config.tagManagerId) loadTagManager(config.tagManagerId);
  }, [choice, config.tagManagerId]);

  if (choice) return null;
  return (
    <Paper
      role="region"
      aria-label="Cookie consent"
      data-testid="cookie-consent"
      elevation={8}
      sx={{
        position: 'fixed',
        // Above the header, the drawers and the menus (MUI: app bar 1100, drawer 1200), below a
        // dialog (modal 1300): a dialog keeps the focus, so its buttons must never lie under the banner.
        zIndex: (theme) => theme.zIndex.drawer + 50,
        left: { xs: 8, sm: 16 },
        right: { xs: 8, sm: 'auto' },
        bottom: { xs: 72, sm: 16 },
        maxWidth: 520,
        p: 2.5,
      }}
    >
      <Typography variant="body2" sx={{ mb: 2 }}>
        We use cookies to measure how our site is used and to improve it. Analytics cookies are set only if you accept. Read our{' '}
        <Box component={RouterLink} to="/privacy-policy" sx={{ color: 'primary.main' }}>
          privacy policy
        </Box>
        .
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
        <Button variant="outlined" onClick={() => chooseConsent('declined')}>
          Decline
        </Button>
        <Button variant="contained" onClick={() => chooseConsent('accepted')}>
          Accept
        </Button>
      </Box>
      <span id={COOKIE_BANNER_END_ID} hidden />
    </Paper>
  );
}
