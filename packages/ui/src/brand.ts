/**
 * The brand's colours and type, and the helpers that need no MUI: what the shell's frame (header,
 * footer, cookie banner), drawn without MUI so a first view loads none of it, shares with the MUI
 * theme (theme.ts) every remote renders in.
 */
/** The brand's colours. */
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
 * the window. Here, with the brand, and not in a module of its own, which every remote would fetch
 * as one more file: the shell provides this module in its first files.
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

/** The site's type: the theme's and the frame's. */
export const FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

/** The theme's corner radius, in px. */
export const RADIUS = 10;

/** Spec §9: phones up to 768px; desktop navigation from 992px (the theme's breakpoints sm and md). */
export const BREAKPOINTS = { sm: 769, md: 992 } as const;
