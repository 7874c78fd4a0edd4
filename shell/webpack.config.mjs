// @ts-check
import { createAppConfig, createServerAppConfig } from '@bimi/webpack-config';

export default createAppConfig({
  name: 'shell',
  dir: import.meta.dirname,
  html: { title: 'BIMI mark certificates and DMARC enforcement' },
  // Only the account frame and the phone menu use these, and the toasts the last three:
  // they load with those parts.
  eagerShared: {
    except: ['@mui/material/Drawer', '@mui/material/Tooltip', '@mui/material/useMediaQuery', '@mui/material/Alert', '@mui/material/AlertTitle', '@mui/material/Stack'],
  },
});

/** The server build: `shell/render`, which the bff loads to render pages (issue 14). */
export const server = createServerAppConfig({ name: 'shell', dir: import.meta.dirname, exposes: { './render': './src/server/render.tsx' } });
