#!/usr/bin/env node
// Builds the front ends: `node scripts/build.mjs` builds all five, `node scripts/build.mjs
// mfe-tools` (or `.` from inside an app folder) builds one. Each app is its own webpack
// build with its own output folder, so building one never touches the others.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FRONTEND_APPS } from './apps.mjs';

const root = path.resolve(import.meta.dirname, '..');

/** @param {string} appDir @param {string} [outDir] */
export async function buildApp(appDir, outDir) {
  const { default: config, server } = await import(pathToFileURL(path.join(appDir, 'webpack.config.mjs')).href);
  const { runWebpack } = await import(pathToFileURL(path.join(root, 'packages/webpack-config/index.mjs')).href);
  if (outDir) config.output.path = outDir;
  const browser = await runWebpack(config);
  if (!server) return browser;
  // The server build goes in server/ of the browser build's folder (after it: the browser build cleans its folder).
  server.output.path = path.join(config.output.path, 'server');
  const built = await runWebpack(server);
  return { assets: [...browser.assets, ...built.assets.map((asset) => ({ ...asset, name: `server/${asset.name}` }))], warnings: [...browser.warnings, ...built.warnings] };
}

async function main() {
  const args = process.argv.slice(2);
  const apps = args.length ? args.map((a) => path.resolve(a === '.' ? process.cwd() : path.join(root, a))) : FRONTEND_APPS.map((a) => path.join(root, a));
  process.env.NODE_ENV ??= 'production';
  for (const appDir of apps) {
    const name = path.relative(root, appDir);
    const started = Date.now();
    console.log(`building ${name} …`);
    try {
      const stats = await buildApp(appDir);
      const js = stats.assets.filter((a) => a.name.endsWith('.js') && !a.name.startsWith('server/'));
      const bytes = js.reduce((n, a) => n + a.size, 0);
      const serverFiles = stats.assets.filter((a) => a.name.startsWith('server/')).length;
      console.log(
        `${name} built in ${((Date.now() - started) / 1000).toFixed(1)} s (${js.length} JS files, ${(bytes / 1024).toFixed(0)} KB before compression; server build: ${serverFiles} files)`,
      );
      for (const w of stats.warnings) if (!w.includes('Manifest will use absolute path')) console.warn(`  warning: ${w.split('\n')[0]}`);
    } catch (error) {
      console.log(`${name} failed to build:`);
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
      return;
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
