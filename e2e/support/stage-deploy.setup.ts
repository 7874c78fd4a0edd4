import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { test as setup, expect } from '@playwright/test';
import { DEPLOYED_VERSION, stagedToolsDir } from './staged-deploy';

const run = promisify(execFile);
const WORKSPACE = resolve(__dirname, '..', '..');

// The deploy flow publishes a build; building it is not the flow's business (and its speed is a
// benchmark's): it is built here, with no time limit, before the flow starts.
setup('stage the tools remote at the version the deploy flow publishes', async () => {
  setup.setTimeout(0);
  const { stdout } = await run(process.execPath, ['scripts/deploy-remote.mjs', 'tools', '--version', DEPLOYED_VERSION, '--stage', stagedToolsDir()], {
    cwd: WORKSPACE,
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(stdout).toContain(`staged tools ${DEPLOYED_VERSION}`);
});
