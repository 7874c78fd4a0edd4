import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const WORKSPACE = resolve(__dirname, '..', '..');

/**
 * The front-end apps, found in the workspace as scripts/apps.mjs finds them (the shell, then every
 * mfe-<name> folder with a webpack.config.mjs), for the TypeScript side of the flows.
 */
export function frontendApps(): string[] {
  const remotes = readdirSync(WORKSPACE, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^mfe-[a-z][a-z0-9_]*$/.test(entry.name) && existsSync(join(WORKSPACE, entry.name, 'webpack.config.mjs')))
    .map((entry) => entry.name)
    .sort();
  return ['shell', ...remotes];
}
