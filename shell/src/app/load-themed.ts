import type { ComponentType } from 'react';

/**
 * A loader for React.lazy of a component that renders MUI's components (a remote's routes or
 * widget, the account frame, the phone menu, the toasts), which wraps it in the site's MUI theme,
 * loaded beside it. The frame draws without MUI (layout/plain.tsx), so a first view that shows no
 * remote (the home page, kept as the server drew it) loads no MUI at all (issue 34).
 */
export function loadThemed<P extends object>(load: () => Promise<ComponentType<P>>): () => Promise<{ default: ComponentType<P> }> {
  return () => Promise.all([load(), import('./MuiTheme')]).then(([Component, { inMuiTheme }]) => ({ default: inMuiTheme(Component) }));
}
