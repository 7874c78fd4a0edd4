// @ts-check
import { createAppConfig, createServerAppConfig } from '@bimi/webpack-config';

export default createAppConfig({
  name: 'shell',
  dir: import.meta.dirname,
  html: { title: 'BIMI mark certificates and DMARC enforcement' },
  // MUI, and the theme made with it, are provided lazily: the frame draws without them
  // (src/layout/plain.tsx), and they load with the first remote, account frame, phone menu or
  // toast that renders (src/app/load-themed.ts). An eager module cannot import a lazy one.
  eagerShared: {
    except: ['@mui/material/', '@mui/styled-engine', '@mui/system/colorManipulator', '@bimi/ui/theme'],
  },
});

/** The server build: `shell/render`, which the bff loads to render pages (issue 14). */
export const server = createServerAppConfig({ name: 'shell', dir: import.meta.dirname, exposes: { './render': './src/server/render.tsx' } });
