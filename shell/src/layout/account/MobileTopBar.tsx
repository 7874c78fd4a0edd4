import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import { Logo } from '../Logo';
import { AddMonitorButton } from './AddMonitorButton';

export const MOBILE_TOP_BAR_HEIGHT = 56;
/** Spec §9: the phone header hides when scrolling down past 60px and returns on scroll up. */
export const HIDE_THRESHOLD = 60;

export function MobileTopBar() {
  const [hidden, setHidden] = useState(false);
  const last = useRef(0);
  useEffect(() => {
    last.current = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      if (y > last.current && y > HIDE_THRESHOLD) setHidden(true);
      else if (y < last.current) setHidden(false);
      last.current = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return (
    <Box
      component="header"
      data-testid="mobile-top-bar"
      data-hidden={hidden}
      sx={{
        position: 'fixed',
        inset: '0 0 auto 0',
        height: MOBILE_TOP_BAR_HEIGHT,
        zIndex: 'appBar',
        display: 'flex',
        alignItems: 'center',
        px: 2,
        bgcolor: 'background.paper',
        borderBottom: '1px solid',
        borderColor: 'divider',
        transition: 'transform .25s ease',
        transform: hidden ? 'translateY(-100%)' : 'none',
      }}
    >
      <Logo />
      <AddMonitorButton variant="top-bar" />
    </Box>
  );
}
