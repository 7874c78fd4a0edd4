import { useEffect, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import { MAIN_CONTENT_ID } from '@bimi/contracts/site';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Sidebar } from './Sidebar';
import { MobileTopBar, MOBILE_TOP_BAR_HEIGHT } from './MobileTopBar';
import { MobileTabs, MOBILE_TABS_HEIGHT } from './MobileTabs';
import { usePhoneHint } from '@bimi/session/page-state';
import { SCREEN_COOKIE } from '@bimi/contracts/page-state';
import { writePreferenceCookie } from './preference-cookie';

/** Spec §2: phones are 768px wide or less. */
const PHONE_QUERY = '(max-width:768px)';

/**
 * Keeps the screen's size class in SCREEN_COOKIE, so the server draws the next account page in the
 * layout this screen shows: a guess that differs makes the page change under the visitor's finger
 * as it hydrates. Written only when it changes.
 */
function useRememberedScreen(phone: boolean): void {
  useEffect(() => {
    const value = phone ? 'phone' : 'wide';
    if (!document.cookie.split('; ').includes(`${SCREEN_COOKIE}=${value}`)) writePreferenceCookie(SCREEN_COOKIE, value);
  }, [phone]);
}

/** The account frame: no public header or footer; a sidebar on desktop, top bar and bottom tabs on phones. */
export function AccountLayout({ children }: { children: ReactNode }) {
  // The browser's screen, except while hydrating a page the server drew: then the layout it drew.
  const phone = useMediaQuery(PHONE_QUERY, { defaultMatches: usePhoneHint() });
  useRememberedScreen(phone);
  if (phone) {
    return (
      <Box data-testid="account-layout" data-variant="phone" sx={{ minHeight: '100vh', bgcolor: '#f6f8fc' }}>
        <MobileTopBar />
        <Box component="main" id={MAIN_CONTENT_ID} data-layout="account" sx={{ pt: `${MOBILE_TOP_BAR_HEIGHT + 16}px`, pb: `${MOBILE_TABS_HEIGHT + 16}px`, px: 2 }}>
          {children}
        </Box>
        <MobileTabs />
      </Box>
    );
  }
  return (
    <Box data-testid="account-layout" data-variant="desktop" sx={{ display: 'flex', minHeight: '100vh', bgcolor: '#f6f8fc' }}>
      <Sidebar />
      <Box component="main" id={MAIN_CONTENT_ID} data-layout="account" sx={{ flex: 1, minWidth: 0, px: { sm: 3, md: 5 }, py: 4 }}>
        {children}
      </Box>
    </Box>
  );
}
