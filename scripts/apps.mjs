// The front-end apps, found in the workspace rather than listed: the shell, then every mfe-<name>
// folder with a webpack.config.mjs (a new remote is a new folder, nothing more). Build order:
// the shell first, then the remotes by name.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** @param {string} [root] */
export function frontendApps(root = ROOT) {
  const remotes = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^mfe-[a-z][a-z0-9_]*$/.test(entry.name) && entry.name !== 'mfe-shell' && existsSync(path.join(root, entry.name, 'webpack.config.mjs')))
    .map((entry) => entry.name)
    .sort();
  return ['shell', ...remotes];
}

export const FRONTEND_APPS = frontendApps();
/** The remotes' folders (mfe-storefront, …). */
export const REMOTE_APPS = FRONTEND_APPS.filter((app) => app !== 'shell');
