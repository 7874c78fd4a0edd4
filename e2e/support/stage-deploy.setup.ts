import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { test as setup, expect } from '@playwright/test';
import { CATALOG_NEXT, DEPLOYED_VERSION, deployRunDir, stagedStorefrontDir, stagedToolsDir, writeCatalogNext } from './staged-deploy';

const run = promisify(execFile);
const WORKSPACE = resolve(__dirname, '..', '..');

/** Builds one remote with scripts/deploy-remote.mjs --stage. */
async function stage(remote: string, version: string, dir: string, env: Record<string, string> = {}) {
  const { stdout } = await run(process.execPath, ['scripts/deploy-remote.mjs', remote, '--version', version, '--stage', dir], {
    cwd: WORKSPACE,
    env: { ...process.env, ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(stdout).toContain(`staged ${remote} ${version}`);
}

// The deploy flows publish builds; building them is not the flows' business (and its speed is a
// benchmark's): they are built here, with no time limit, before the flows start.
setup('stage the tools remote at the version the deploy flow publishes', async () => {
  setup.setTimeout(0);
  await stage('tools', DEPLOYED_VERSION, stagedToolsDir());
});

setup('stage the storefront built against catalog N+1', async () => {
  setup.setTimeout(0);
  const catalogNext = join(deployRunDir(), 'catalog-next');
  writeCatalogNext(catalogNext);
  await stage('storefront', CATALOG_NEXT.storefrontVersion, stagedStorefrontDir(), { BIMI_PACKAGE_OVERRIDES: JSON.stringify({ '@bimi/catalog': catalogNext }) });
});
