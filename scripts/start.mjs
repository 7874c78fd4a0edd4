#!/usr/bin/env node
// `npm start`: install, build what changed, and serve the whole site at http://localhost:3000.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { FRONTEND_APPS } from './apps.mjs';
import { bffBuildIsStale } from './build-bff.mjs';
import { ROOT, fail, installWorkspace, newestSourceMtime, run, step } from './toolchain.mjs';

/** An app needs a build when it has none, or when its sources or the shared packages are newer. */
function needsBuild(app, packagesMtime) {
  // The server build is written last (scripts/build.mjs): its entry marks a whole build.
  const marker = path.join(ROOT, app, 'dist', 'server', 'remoteEntry.js');
  if (!existsSync(marker)) return true;
  return Math.max(newestSourceMtime(path.join(ROOT, app)), packagesMtime) > statSync(marker).mtimeMs;
}

try {
  await installWorkspace();
  const packagesMtime = newestSourceMtime(path.join(ROOT, 'packages'));
  const stale = FRONTEND_APPS.filter((app) => needsBuild(app, packagesMtime));
  if (stale.length) {
    step(`building ${stale.join(', ')}`);
    await run('node', ['scripts/build.mjs', ...stale], { env: { NODE_ENV: 'production' } });
  } else {
    step('front ends are up to date');
  }
  // The bff's compiled build, when its sources or the packages changed since it was made.
  if (bffBuildIsStale(packagesMtime)) {
    step('building the bff');
    await run('node', ['scripts/build-bff.mjs']);
  }
  step(`starting the site at http://localhost:${process.env.PORT ?? 3000}`);
  await run('node', ['--enable-source-maps', 'bff/dist/server.js']);
} catch (error) {
  fail(error);
}
