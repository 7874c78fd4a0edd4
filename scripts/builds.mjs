// Which builds are out of date, and building just those: what `npm start` and `npm test` share.
// Part of the bootstrap tier (scripts/bootstrap.test.ts): node: built-ins and relative files only,
// since it runs before anything is installed. The builders themselves (webpack, esbuild) run in
// child processes, after the install.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { FRONTEND_APPS } from './apps.mjs';
import { ROOT, newestSourceMtime, run, step } from './toolchain.mjs';

/** Sources every build depends on besides its own folder: the workspace packages and the lockfile. */
function sharedSourcesMtime() {
  return Math.max(newestSourceMtime(path.join(ROOT, 'packages')), statSync(path.join(ROOT, 'pnpm-lock.yaml')).mtimeMs);
}

/** Whether `marker` (the last file a build writes) is missing or older than `sourcesDir` or the shared sources. */
function isStale(marker, sourcesDir, sharedMtime) {
  if (!existsSync(marker)) return true;
  return Math.max(newestSourceMtime(sourcesDir), sharedMtime) > statSync(marker).mtimeMs;
}

/** The front ends whose build is missing or older than their sources. */
export function staleFrontends(sharedMtime = sharedSourcesMtime()) {
  // The server build is written last (scripts/build.mjs): its entry marks a whole build.
  return FRONTEND_APPS.filter((app) => isStale(path.join(ROOT, app, 'dist', 'server', 'remoteEntry.js'), path.join(ROOT, app), sharedMtime));
}

/** Whether bff/dist is missing or older than the bff's or the packages' sources. */
export function bffBuildIsStale(sharedMtime = sharedSourcesMtime()) {
  return isStale(path.join(ROOT, 'bff', 'dist', 'server.js'), path.join(ROOT, 'bff', 'src'), sharedMtime);
}

/** Builds the front ends and the bff that are out of date (production builds), each in its own process. */
export async function buildWhatChanged() {
  const sharedMtime = sharedSourcesMtime();
  const stale = staleFrontends(sharedMtime);
  if (stale.length) {
    step(`production build of ${stale.join(', ')}`);
    await run('node', ['scripts/build.mjs', ...stale], { env: { NODE_ENV: 'production' } });
  } else {
    step('front-end builds are up to date');
  }
  if (bffBuildIsStale(sharedMtime)) {
    step('production build of the bff (compiled, run by plain node)');
    await run('node', ['scripts/build-bff.mjs']);
  } else {
    step('bff build is up to date');
  }
}
