import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RemoteRouteTable } from '@bimi/contracts/registry';

const WORKSPACE = resolve(__dirname, '..', '..');

/**
 * The front-end apps, found in the workspace as scripts/apps.mjs finds them (the shell, then every
 * mfe-<name> folder with a webpack.config.mjs), for the TypeScript side of the flows.
 */
export function frontendApps(): string[] {
  const remotes = readdirSync(WORKSPACE, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^mfe-[a-z][a-z0-9_]*$/.test(entry.name) && entry.name !== 'mfe-shell' && existsSync(join(WORKSPACE, entry.name, 'webpack.config.mjs')))
    .map((entry) => entry.name)
    .sort();
  return ['shell', ...remotes];
}

/** The route table a remote publishes beside its build (dist/routes.json), as the bff reads it. */
export function publishedRoutes(app: string): RemoteRouteTable {
  return RemoteRouteTable.parse(JSON.parse(readFileSync(join(WORKSPACE, app, 'dist', 'routes.json'), 'utf8')));
}

/** The documents a remote publishes under its build's docs/ (the storefront's validation guide), by the site path they are served at. */
export function publishedDocuments(app: string): string[] {
  const folder = join(WORKSPACE, app, 'dist', 'docs');
  return existsSync(folder) ? readdirSync(folder).map((file) => `/docs/${file}`) : [];
}
