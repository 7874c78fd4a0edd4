import type { ComponentType } from 'react';
import { ThemeProvider } from '@mui/material/styles';
import { theme } from '@bimi/ui/theme';

/** `Component` inside the site's one MUI theme (loadThemed). */
export function inMuiTheme<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function Themed(props: P) {
    return (
      <ThemeProvider theme={theme}>
        <Component {...props} />
      </ThemeProvider>
    );
  }
  Themed.displayName = `Themed(${Component.displayName ?? Component.name ?? 'Component'})`;
  return Themed;
}
