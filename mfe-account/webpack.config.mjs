// @ts-check
import { createAppConfig, createServerAppConfig } from '@bimi/webpack-config';

const app = {
  name: 'account',
  dir: import.meta.dirname,
  // The remote's public API: see packages/contracts/src/remote-modules.ts.
  exposes: { './routes': './src/exposed/routes.tsx', './AddMonitorModal': './src/exposed/AddMonitorModal.tsx' },
};

export default createAppConfig(app);

/** The server build the bff renders public pages with (issue 14). */
export const server = createServerAppConfig(app);
