// @ts-check
import { createAppConfig, createServerAppConfig } from '@bimi/webpack-config';

const app = {
  name: 'tools',
  dir: import.meta.dirname,
  // The remote's public API: see packages/contracts/src/remote-modules.ts.
  exposes: { './routes': './src/exposed/routes.tsx' },
};

export default createAppConfig(app);

/** The server build the bff renders public pages with (issue 14). */
export const server = createServerAppConfig(app);
