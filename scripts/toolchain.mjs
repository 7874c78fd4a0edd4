// What the two README commands share: find or install pnpm, install the workspace, run
// a step and stop on its failure. Only Node.js and npm are assumed on the machine.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const PNPM_VERSION = '12.21.0';

/** The newest modification time of the sources under `dir`: built and released files and dependencies are outputs (a deploy writes releases/). */
export function newestSourceMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'releases') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const LOCAL_TOOLS = path.join(ROOT, '.tools');

const env = { ...process.env };
env.PATH = [path.join(ROOT, 'node_modules/.bin'), path.join(LOCAL_TOOLS, 'node_modules/.bin'), env.PATH].join(path.delimiter);
// better-sqlite3 compiles against the machine's Node headers (pnpm ignores nodedir in .npmrc).
if (!env.npm_config_nodedir && existsSync('/usr/include/node/node.h')) env.npm_config_nodedir = '/usr';
export const childEnv = env;

export function step(title) {
  console.log(`\n▶ ${title}`);
}

/** Runs a command with the workspace's tools on PATH; rejects when it fails. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    // options.env adds to the workspace environment; it never replaces it.
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options, env: { ...childEnv, ...options.env }, shell: false });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} ${signal ? `was stopped by ${signal}` : `exited with ${code}`}`));
    });
  });
}

function pnpmWorks() {
  const result = spawnSync('pnpm', ['--version'], { env: childEnv, encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim() === PNPM_VERSION;
}

/** pnpm at the pinned version: the one on PATH if it matches, else installed into .tools/ with npm. */
export async function ensurePnpm() {
  if (pnpmWorks()) return;
  step(`installing pnpm ${PNPM_VERSION} into .tools/ (npm)`);
  await run('npm', ['install', '--prefix', LOCAL_TOOLS, '--no-save', '--no-audit', '--no-fund', `pnpm@${PNPM_VERSION}`]);
  if (!pnpmWorks()) throw new Error('pnpm could not be installed');
}

export async function installWorkspace() {
  await ensurePnpm();
  step('installing dependencies (pnpm install --frozen-lockfile)');
  await run('pnpm', ['install', '--frozen-lockfile']);
}

export function fail(error) {
  console.error(`\n✖ ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
