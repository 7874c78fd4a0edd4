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
  const { default: config } = await import(pathToFileURL(path.join(appDir, 'webpack.config.mjs')).href);
  const { runWebpack } = await import(pathToFileURL(path.join(root, 'packages/webpack-config/index.mjs')).href);
  if (outDir) config.output.path = outDir;
  return runWebpack(config);
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
      const js = stats.assets.filter((a) => a.name.endsWith('.js'));
      const bytes = js.reduce((n, a) => n + a.size, 0);
      console.log(`${name} built in ${((Date.now() - started) / 1000).toFixed(1)} s (${js.length} JS files, ${(bytes / 1024).toFixed(0)} KB before compression)`);
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
