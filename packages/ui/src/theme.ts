import { createTheme } from '@mui/material/styles';

/** Every app renders inside this one theme, provided once by the shell. */
export const brand = {
  navy: '#0b1f44',
  blue: '#1746c7',
  sky: '#e8efff',
  green: '#0f7a4a',
  ink: '#1b2333',
  muted: '#5a6477',
} as const;

/** The Emotion cache key: class names of every app start with it, which proves one cache. */
export const EMOTION_CACHE_KEY = 'bimi';

/**
 * A style for what screen readers read and nobody sees: a status word beside an icon, a live
 * "Copied", the product a "Details" link leads to, a file input behind its styled label. MUI's own
 * `visuallyHidden` (in @mui/utils, which the apps do not depend on directly), in pixels: in `sx`,
 * MUI reads `width: 1` as 100%, and an absolute element 100% wide would make the page wider than
 * the window. Here and not in a module of its own, which every remote would fetch as one more
 * file: the shell provides the theme.
 */
export const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
} as const;

export const theme = createTheme({
  palette: {
    primary: { main: brand.blue, contrastText: '#ffffff' },
    secondary: { main: brand.navy },
    success: { main: brand.green },
    text: { primary: brand.ink, secondary: brand.muted },
    background: { default: '#ffffff', paper: '#ffffff' },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '2.25rem', fontWeight: 700, lineHeight: 1.2 },
    h2: { fontSize: '1.6rem', fontWeight: 700 },
    h3: { fontSize: '1.25rem', fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  breakpoints: {
    // Spec §9: phones up to 768px; desktop navigation from 992px.
    values: { xs: 0, sm: 769, md: 992, lg: 1200, xl: 1536 },
  },
});
