// @ts-check
import { createAppConfig } from '@bimi/webpack-config';

export default createAppConfig({
  name: 'account',
  dir: import.meta.dirname,
  // The remote's public API: see packages/contracts/src/remote-modules.ts.
  exposes: { './routes': './src/exposed/routes.tsx', './AddMonitorModal': './src/exposed/AddMonitorModal.tsx' },
});
