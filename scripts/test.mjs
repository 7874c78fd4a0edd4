#!/usr/bin/env node
// `npm test`: every test on a fresh machine: install, type check, lint and format check,
// unit and API tests (jest), the production builds that are out of date, then the Playwright flows in Debian's
// Chromium against it. Bootstrap tier: runs before anything is installed (scripts/bootstrap.test.ts).
import { existsSync } from 'node:fs';
import { buildWhatChanged } from './builds.mjs';
import { ROOT, fail, installWorkspace, run, step } from './toolchain.mjs';

export const CHROMIUM = '/usr/bin/chromium';
export const NGINX = '/usr/sbin/nginx';

/**
 * A Debian package the tests need, installed with apt-get when it is missing and we are root;
 * otherwise the run stops with the command to run (when `required`).
 */
async function ensureDebianPackage({ file, name, why, required = true }) {
  if (existsSync(file)) return;
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    step(`installing Debian ${name} for ${why} (apt-get)`);
    await run('apt-get', ['update', '-qq']);
    await run('apt-get', ['install', '-y', '-qq', name], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
    return;
  }
  if (required) throw new Error(`${file} is missing: install it with "sudo apt-get install -y ${name}", then run npm test again`);
}

try {
  const started = Date.now();
  await installWorkspace();
  await ensureDebianPackage({ file: CHROMIUM, name: 'chromium', why: 'the browser tests' });
  // Only the PostgreSQL + Redis run has the replica test (bff/test/replicas.test.ts), which fails without nginx.
  await ensureDebianPackage({ file: NGINX, name: 'nginx', why: 'the replica test', required: Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL) });
  step('type check');
  await run('node', ['scripts/typecheck.mjs']);
  step('lint (ESLint: typescript-eslint, rules of hooks, import boundaries) and format check (Prettier)');
  await run('eslint', ['--max-warnings', '0', '.']);
  await run('prettier', ['--check', '.']);
  step('unit and API tests (jest)');
  await run('jest', ['--ci']);
  // The builds `npm start` made are reused when nothing changed since.
  await buildWhatChanged();
  step('browser flows (Playwright, Chromium)');
  await run('playwright', ['test', '-c', 'e2e/playwright.config.ts']);
  console.log(`\n✔ all tests passed in ${Math.round((Date.now() - started) / 1000)} s (${ROOT})`);
} catch (error) {
  fail(error);
}
