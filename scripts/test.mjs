#!/usr/bin/env node
// `npm test`: every test on a fresh machine: install, type check, lint and format check,
// unit and API tests (jest), one production build, then the Playwright flows in Debian's
// Chromium against it.
import { existsSync } from 'node:fs';
import { ROOT, fail, installWorkspace, run, step } from './toolchain.mjs';

export const CHROMIUM = '/usr/bin/chromium';

async function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    step('installing Debian Chromium for the browser tests (apt-get)');
    await run('apt-get', ['update', '-qq']);
    await run('apt-get', ['install', '-y', '-qq', 'chromium'], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
    return;
  }
  throw new Error(`${CHROMIUM} is missing: install it with "sudo apt-get install -y chromium", then run npm test again`);
}

export const NGINX = '/usr/sbin/nginx';

/** Debian's nginx, the balancer of the replica test (bff/test/replicas.test.ts, scripts/replicas.mjs). */
async function ensureNginx() {
  if (existsSync(NGINX)) return;
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    step('installing Debian nginx for the replica test (apt-get)');
    await run('apt-get', ['update', '-qq']);
    await run('apt-get', ['install', '-y', '-qq', 'nginx'], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
    return;
  }
  // Only the PostgreSQL + Redis run has the replica test (and it fails without nginx).
  if (process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL) {
    throw new Error(`${NGINX} is missing: install it with "sudo apt-get install -y nginx", then run npm test again`);
  }
}

try {
  const started = Date.now();
  await installWorkspace();
  await ensureChromium();
  await ensureNginx();
  step('type check');
  await run('node', ['scripts/typecheck.mjs']);
  step('lint (ESLint: typescript-eslint, rules of hooks, import boundaries) and format check (Prettier)');
  await run('eslint', ['--max-warnings', '0', '.']);
  await run('prettier', ['--check', '.']);
  step('unit and API tests (jest)');
  await run('jest', ['--ci']);
  step('production build of the front ends (the shell and every remote)');
  await run('node', ['scripts/build.mjs'], { env: { NODE_ENV: 'production' } });
  step('production build of the bff (compiled, run by plain node)');
  await run('node', ['scripts/build-bff.mjs']);
  step('browser flows (Playwright, Chromium)');
  await run('playwright', ['test', '-c', 'e2e/playwright.config.ts']);
  console.log(`\n✔ all tests passed in ${Math.round((Date.now() - started) / 1000)} s (${ROOT})`);
} catch (error) {
  fail(error);
}
