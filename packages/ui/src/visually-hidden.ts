/**
 * Read by screen readers, not shown: a status word beside an icon, a live "Copied", the product a
 * "Details" link leads to, a file input behind its styled label. MUI's own `visuallyHidden` (in
 * @mui/utils, which the apps do not depend on directly), in pixels: in `sx`, MUI reads `width: 1`
 * as 100%, and an absolute element 100% wide made the page wider than the window.
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
