import { createTheme } from '@mui/material/styles';

import { BREAKPOINTS, brand, FONT_FAMILY, RADIUS } from './brand';

// Re-exported here for the remotes, which import them with the theme.
export { brand, EMOTION_CACHE_KEY, VISUALLY_HIDDEN } from './brand';

/** Every app's MUI components render inside this one theme, provided by the shell around each remote. */
export const theme = createTheme({
  palette: {
    primary: { main: brand.blue, contrastText: '#ffffff' },
    secondary: { main: brand.navy },
    success: { main: brand.green },
    text: { primary: brand.ink, secondary: brand.muted },
    background: { default: '#ffffff', paper: '#ffffff' },
  },
  shape: { borderRadius: RADIUS },
  typography: {
    fontFamily: FONT_FAMILY,
    h1: { fontSize: '2.25rem', fontWeight: 700, lineHeight: 1.2 },
    h2: { fontSize: '1.6rem', fontWeight: 700 },
    h3: { fontSize: '1.25rem', fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  breakpoints: {
    values: { xs: 0, sm: BREAKPOINTS.sm, md: BREAKPOINTS.md, lg: 1200, xl: 1536 },
  },
});
