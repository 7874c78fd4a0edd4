import { join } from 'node:path';

/** The version the deploy flow publishes, staged by stage-deploy.setup.ts before that flow starts. */
export const DEPLOYED_VERSION = '9.9.9-e2e';

/** Where the staged build waits to be published (each run has its own E2E_RUN_DIR). */
export const stagedToolsDir = () => join(process.env.E2E_RUN_DIR as string, 'staged-tools');
