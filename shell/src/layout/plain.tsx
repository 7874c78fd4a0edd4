import styled from '@emotion/styled';
import { Link as RouterLink } from 'react-router-dom';
import { BREAKPOINTS, brand, RADIUS } from '@bimi/ui/brand';

/**
 * The frame's building blocks (header, footer, cookie banner, dock), drawn with Emotion alone: a
 * first view loads no MUI (about 44 KB gzip of the shell's first files, issue 34); MUI and its
 * theme load with the first remote that renders (`ThemedRemote`). They look like the MUI
 * components the remotes use: the theme's colours, radius and type.
 */

/** Media queries at the theme's breakpoints: `sm` 769px and up (beyond phones), `md` 992px and up (desktop navigation). */
export const up = { sm: `@media (min-width: ${BREAKPOINTS.sm}px)`, md: `@media (min-width: ${BREAKPOINTS.md}px)` } as const;
export const down = { sm: `@media (max-width: ${BREAKPOINTS.sm - 0.05}px)` } as const;

/** The theme's colours the frame uses beside the brand's. */
export const colors = {
  primaryDark: '#12389f',
  divider: 'rgba(0, 0, 0, 0.12)',
  hover: 'rgba(0, 0, 0, 0.04)',
  error: '#d32f2f',
} as const;

/** MUI's elevations 2, 4, 6 and 8. */
const shadows = {
  2: '0px 3px 1px -2px rgba(0,0,0,0.2),0px 2px 2px 0px rgba(0,0,0,0.14),0px 1px 5px 0px rgba(0,0,0,0.12)',
  4: '0px 2px 4px -1px rgba(0,0,0,0.2),0px 4px 5px 0px rgba(0,0,0,0.14),0px 1px 10px 0px rgba(0,0,0,0.12)',
  6: '0px 3px 5px -1px rgba(0,0,0,0.2),0px 6px 10px 0px rgba(0,0,0,0.14),0px 1px 18px 0px rgba(0,0,0,0.12)',
  8: '0px 5px 5px -3px rgba(0,0,0,0.2),0px 8px 10px 1px rgba(0,0,0,0.14),0px 3px 14px 2px rgba(0,0,0,0.12)',
} as const;

const focusRing = { '&:focus-visible': { outline: `2px solid ${brand.blue}`, outlineOffset: 2 } } as const;

/** A button or a link drawn as one (MUI's Button: contained, outlined or text). */
export const buttonStyle = (variant: 'contained' | 'outlined' | 'text') =>
  ({
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: 8,
    boxSizing: 'border-box',
    minWidth: 64,
    margin: 0,
    padding: variant === 'outlined' ? '5px 15px' : variant === 'text' ? '6px 8px' : '6px 16px',
    borderRadius: RADIUS,
    border: variant === 'outlined' ? `1px solid rgba(23, 70, 199, 0.5)` : 0,
    background: variant === 'contained' ? brand.blue : 'transparent',
    color: variant === 'contained' ? '#ffffff' : variant === 'outlined' ? brand.blue : 'inherit',
    boxShadow: variant === 'contained' ? shadows[2] : 'none',
    font: 'inherit',
    fontSize: '0.875rem',
    fontWeight: 600,
    lineHeight: 1.75,
    textDecoration: 'none',
    whiteSpace: 'nowrap',
    cursor: 'pointer',
    transition: 'background-color 250ms, box-shadow 250ms, border-color 250ms',
    '&:hover':
      variant === 'contained'
        ? { background: colors.primaryDark, boxShadow: shadows[4] }
        : { background: variant === 'outlined' ? 'rgba(23, 70, 199, 0.04)' : colors.hover, borderColor: variant === 'outlined' ? brand.blue : undefined },
    '&:disabled': { cursor: 'default', background: variant === 'contained' ? 'rgba(0, 0, 0, 0.12)' : 'transparent', color: 'rgba(0, 0, 0, 0.26)', boxShadow: 'none' },
    ...focusRing,
  }) as const;

export const Button = styled.button<{ variant?: 'contained' | 'outlined' | 'text' }>(({ variant = 'text' }) => buttonStyle(variant));

/** A round icon button (MUI's IconButton). */
export const iconButtonStyle = {
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  flexShrink: 0,
  boxSizing: 'border-box',
  width: 40,
  height: 40,
  padding: 8,
  margin: 0,
  border: 0,
  borderRadius: '50%',
  background: 'transparent',
  color: 'inherit',
  cursor: 'pointer',
  transition: 'background-color 150ms',
  '&:hover': { background: colors.hover },
  ...focusRing,
} as const;

export const IconButton = styled.button(iconButtonStyle);

/** A card over the page (MUI's Paper at elevation 6, or 8 when `raised`). */
export const Surface = styled.div<{ raised?: boolean }>(({ raised = false }) => ({
  background: '#ffffff',
  color: brand.ink,
  borderRadius: RADIUS,
  boxShadow: raised ? shadows[8] : shadows[6],
}));

/** The small caps heading of a menu's section (MUI's overline). */
export const Overline = styled.p({
  margin: 0,
  fontSize: '0.75rem',
  fontWeight: 400,
  lineHeight: 2.66,
  letterSpacing: '0.08333em',
  textTransform: 'uppercase',
  color: brand.muted,
});

/** The Material icons the frame shows: their paths (24 × 24, from @mui/icons-material). */
export const ICON_PATHS = {
  person:
    'M12 6c1.1 0 2 .9 2 2s-.9 2-2 2-2-.9-2-2 .9-2 2-2m0 10c2.7 0 5.8 1.29 6 2H6c.23-.72 3.31-2 6-2m0-12C9.79 4 8 5.79 8 8s1.79 4 4 4 4-1.79 4-4-1.79-4-4-4m0 10c-2.67 0-8 1.34-8 4v2h16v-2c0-2.66-5.33-4-8-4',
  menu: 'M3 18h18v-2H3zm0-5h18v-2H3zm0-7v2h18V6z',
  cart: 'M15.55 13c.75 0 1.41-.41 1.75-1.03l3.58-6.49c.37-.66-.11-1.48-.87-1.48H5.21l-.94-2H1v2h2l3.6 7.59-1.35 2.44C4.52 15.37 5.48 17 7 17h12v-2H7l1.1-2zM6.16 6h12.15l-2.76 5H8.53zM7 18c-1.1 0-1.99.9-1.99 2S5.9 22 7 22s2-.9 2-2-.9-2-2-2m10 0c-1.1 0-1.99.9-1.99 2s.89 2 1.99 2 2-.9 2-2-.9-2-2-2',
  expandMore: 'M16.59 8.59 12 13.17 7.41 8.59 6 10l6 6 6-6z',
  accountCircle:
    'M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2M7.35 18.5C8.66 17.56 10.26 17 12 17s3.34.56 4.65 1.5c-1.31.94-2.91 1.5-4.65 1.5s-3.34-.56-4.65-1.5m10.79-1.38C16.45 15.8 14.32 15 12 15s-4.45.8-6.14 2.12C4.7 15.73 4 13.95 4 12c0-4.42 3.58-8 8-8s8 3.58 8 8c0 1.95-.7 3.73-1.86 5.12M12 6c-1.93 0-3.5 1.57-3.5 3.5S10.07 13 12 13s3.5-1.57 3.5-3.5S13.93 6 12 6m0 5c-.83 0-1.5-.67-1.5-1.5S11.17 8 12 8s1.5.67 1.5 1.5S12.83 11 12 11',
  dashboard: 'M19 5v2h-4V5zM9 5v6H5V5zm10 8v6h-4v-6zM9 17v2H5v-2zM21 3h-8v6h8zM11 3H3v10h8zm10 8h-8v10h8zm-10 4H3v6h8z',
} as const;

/** A Material icon, 24px in the text's colour (MUI's SvgIcon), hidden from screen readers. */
export function Icon({ name }: { name: keyof typeof ICON_PATHS }) {
  return (
    <svg width="24" height="24" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false" style={{ flexShrink: 0 }}>
      <path d={ICON_PATHS[name]} />
    </svg>
  );
}

/** A message in the page area (not found, could not load): centred, with a heading, a line and an action. */
export const MessageArea = styled.div({ textAlign: 'center', padding: '80px 24px', [up.md]: { padding: '128px 24px' } });
export const MessageTitle = styled.h1({ margin: '0 0 0.35em', fontSize: '2.25rem', fontWeight: 700, lineHeight: 1.2 });
export const MessageText = styled.p({ margin: '0 0 32px', color: brand.muted });
export const ButtonLink = styled(RouterLink)(buttonStyle('contained'));
