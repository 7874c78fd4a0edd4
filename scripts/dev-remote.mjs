#!/usr/bin/env node
// A remote team's development loop, without the other teams' sources: `pnpm --filter mfe-tools dev`
// (or `node scripts/dev-remote.mjs mfe-tools`) builds that one remote into its dist/ and rebuilds
// it on every change, browser and server builds both. The running bff (`npm
// start`, or any bff whose ROOT_DIR holds this folder) serves what it writes: it reads the remote's
// files per request and its routes.json when it changes, so a reload of the site shows the change,
// composed with the shell and the other remotes as they are deployed. Stop with Ctrl+C.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REMOTE_APPS } from './apps.mjs';
import { ROOT } from './toolchain.mjs';

const app = path.basename(path.resolve(process.argv[2] ?? process.cwd()));
if (!REMOTE_APPS.includes(app)) {
  console.error(`usage: node scripts/dev-remote.mjs <${REMOTE_APPS.join('|')}>  (or pnpm --filter <remote> dev)`);
  process.exit(2);
}

// The production configuration, unminified and uncompressed so a rebuild takes seconds. Not
// webpack's development mode: the remote runs on the shell's production React (a shared
// singleton), which the development JSX runtime cannot call, and the site's content security
// policy refuses development mode's eval source maps.
process.env.NODE_ENV = 'production';
const appDir = path.join(ROOT, app);
const { default: browser, server } = await import(pathToFileURL(path.join(appDir, 'webpack.config.mjs')).href);
browser.optimization = { ...browser.optimization, minimize: false };
// Without precompressed siblings the bff serves the files as written (output.clean removed the old ones).
browser.plugins = browser.plugins.filter((plugin) => plugin.constructor.name !== 'CompressionPlugin');
server.output.path = path.join(browser.output.path, 'server');
// The server build cleans only its own folder; the browser build must not remove it.
browser.output.clean = { keep: /^server\// };

const site = `http://localhost:${process.env.PORT ?? 3000}`;
const { watchWebpack } = await import(pathToFileURL(path.join(ROOT, 'packages/webpack-config/index.mjs')).href);
const watching = watchWebpack([browser, server], (errors) => {
  const time = new Date().toLocaleTimeString();
  if (errors) console.error(`${time} ${app}: the build failed\n${errors}`);
  else console.log(`${time} ${app} built; reload ${site} to see it (the bff started with npm start serves it)`);
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => watching.close(() => process.exit(0)));
