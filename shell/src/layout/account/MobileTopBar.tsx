import { useRef, useState } from 'react';
import Box from '@mui/material/Box';
import { Logo } from '../Logo';
import { useScrollListener } from '../useScrollY';
import { AddMonitorButton } from './AddMonitorButton';

export const MOBILE_TOP_BAR_HEIGHT = 56;
/** Spec §9: the phone header hides when scrolling down past 60px and returns on scroll up. */
export const HIDE_THRESHOLD = 60;

export function MobileTopBar() {
  const [hidden, setHidden] = useState(false);
  // null until the first scroll, which only sets the starting point: nothing is read at mount,
  // where the position would cost a layout of the page and change nothing.
  const last = useRef<number | null>(null);
  useScrollListener(
    (y) => {
      if (last.current !== null) {
        if (y > last.current && y > HIDE_THRESHOLD) setHidden(true);
        else if (y < last.current) setHidden(false);
      }
      last.current = y;
    },
    { readAtMount: false },
  );
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
