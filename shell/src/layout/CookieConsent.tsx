import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import styled from '@emotion/styled';
import { Link as RouterLink } from 'react-router-dom';
import { brand } from '@bimi/ui/brand';
import { chooseConsent, consent, loadTagManager } from '../analytics/consent';
import { useShell } from '../app/shell-context';
import { COOKIE_BANNER_END_ID } from '@bimi/contracts/consent';
import { Button, Surface, up } from './plain';

const Banner = styled(Surface)({
  position: 'fixed',
  // Above the header, the drawers and the menus (MUI: app bar 1100, drawer 1200), below a dialog
  // (modal 1300): a dialog keeps the focus, so its buttons must never lie under the banner.
  zIndex: 1250,
  left: 8,
  right: 8,
  bottom: 72,
  maxWidth: 520,
  padding: 20,
  [up.sm]: { left: 16, right: 'auto', bottom: 16 },
});
const Text = styled.p({ margin: '0 0 16px', fontSize: '0.875rem', lineHeight: 1.43 });

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
    <Banner role="region" aria-label="Cookie consent" data-testid="cookie-consent" raised>
      <Text>
        We use cookies to measure how our site is used and to improve it. Analytics cookies are set only if you accept. Read our{' '}
        <RouterLink to="/privacy-policy" style={{ color: brand.blue }}>
          privacy policy
        </RouterLink>
        .
      </Text>
      <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
        <Button type="button" variant="outlined" onClick={() => chooseConsent('declined')}>
          Decline
        </Button>
        <Button type="button" variant="contained" onClick={() => chooseConsent('accepted')}>
          Accept
        </Button>
      </div>
      <span id={COOKIE_BANNER_END_ID} hidden />
    </Banner>
  );
}
