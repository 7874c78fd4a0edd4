#!/usr/bin/env node
// `npm start`: install, build what changed, and serve the whole site at http://localhost:3000.
// Bootstrap tier: runs before anything is installed (scripts/bootstrap.test.ts).
import { buildWhatChanged } from './builds.mjs';
import { fail, installWorkspace, run, step } from './toolchain.mjs';

try {
  await installWorkspace();
  await buildWhatChanged();
  step(`starting the site at http://localhost:${process.env.PORT ?? 3000}`);
  await run('node', ['--enable-source-maps', 'bff/dist/server.js']);
} catch (error) {
  fail(error);
}
