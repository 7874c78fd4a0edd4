import styled from '@emotion/styled';
import { Link as RouterLink } from 'react-router-dom';
import { DASHBOARD_PATH } from './navigation';
import { buttonStyle, colors, Icon, up } from './plain';

/** Height of the dock the button sits in; the same height is kept free at the end of the page. */
const DOCK_HEIGHT = 64;

const Dock = styled.nav({
  position: 'fixed',
  left: 0,
  right: 0,
  bottom: 0,
  zIndex: 1100,
  boxSizing: 'border-box',
  height: `calc(${DOCK_HEIGHT}px + env(safe-area-inset-bottom, 0px))`,
  padding: '0 16px env(safe-area-inset-bottom, 0px)',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'flex-end',
  background: 'rgba(255, 255, 255, 0.97)',
  borderTop: `1px solid ${colors.divider}`,
  [up.sm]: { paddingLeft: 24, paddingRight: 24 },
});
const Pill = styled(RouterLink)({ ...buttonStyle('contained'), borderRadius: 999, padding: '8px 20px' });

/**
 * Spec §2: signed-in users outside the account area get a floating way back to their dashboard.
 * A pill floating over the page covered body text (issue 17), at 375 px and at 1280 px alike. So it
 * sits in a dock of its own at the bottom of the window, opaque like the header, and the page ends
 * with an empty block of the dock's height: every line of content can be scrolled above the dock,
 * and nothing is ever drawn behind the button itself.
 */
export function DashboardButton() {
  return (
    <>
      <div aria-hidden data-testid="dashboard-dock-space" style={{ height: DOCK_HEIGHT, flexShrink: 0 }} />
      <Dock aria-label="Your account" data-testid="dashboard-dock">
        <Pill to={DASHBOARD_PATH} data-testid="floating-dashboard">
          <Icon name="dashboard" />
          Dashboard
        </Pill>
      </Dock>
    </>
  );
}
