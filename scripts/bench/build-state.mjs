// Is there a production build to measure, and is it older than the code it was built from?
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FRONTEND_APPS } from '../apps.mjs';

/** The files a complete production build has (the .gz/.br siblings only exist in production). */
function requiredFiles(root) {
  return FRONTEND_APPS.flatMap((app) => {
    const dist = path.join(root, app, 'dist');
    const entry = app === 'shell' ? 'main.js' : 'remoteEntry.js';
    return [path.join(dist, 'mf-manifest.json'), path.join(dist, entry), path.join(dist, `${entry}.gz`), ...(app === 'shell' ? [path.join(dist, 'index.html')] : [])];
  });
}

/** @returns {string[]} what is missing, relative to root */
export function missingBuildFiles(root) {
  return requiredFiles(root)
    .filter((file) => !existsSync(file))
    .map((file) => path.relative(root, file));
}

function newestIn(target, skip = new Set(['node_modules', 'dist', 'coverage'])) {
  let newest = { file: null, mtimeMs: 0 };
  const visit = (entry) => {
    let stat;
    try {
      stat = statSync(entry);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of readdirSync(entry)) if (!skip.has(name) && !name.startsWith('.')) visit(path.join(entry, name));
    } else if (!/\.(test|spec)\.[cm]?[jt]sx?$|\.md$|tsconfig[^/]*\.json$/.test(entry) && stat.mtimeMs > newest.mtimeMs) newest = { file: entry, mtimeMs: stat.mtimeMs };
  };
  visit(target);
  return newest;
}

/**
 * Apps whose dist is older than a source file that goes into it (its src/, its webpack config
 * and package.json, the workspace packages and the shared webpack config).
 * @returns {{ app: string, builtAt: Date, newer: string, changedAt: Date }[]}
 */
export function staleBuilds(root) {
  const packagesDir = path.join(root, 'packages');
  const shared = existsSync(packagesDir) ? readdirSync(packagesDir).map((name) => newestIn(path.join(packagesDir, name))) : [];
  const stale = [];
  for (const app of FRONTEND_APPS) {
    const manifest = path.join(root, app, 'dist', 'mf-manifest.json');
    if (!existsSync(manifest)) continue;
    const builtAt = statSync(manifest).mtimeMs;
    const candidates = [newestIn(path.join(root, app, 'src')), newestIn(path.join(root, app, 'webpack.config.mjs')), newestIn(path.join(root, app, 'package.json')), ...shared];
    const newest = candidates.reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a), { file: null, mtimeMs: 0 });
    // A second of slack: the build itself writes nothing into the sources.
    if (newest.file && newest.mtimeMs > builtAt + 1000) {
      stale.push({ app, builtAt: new Date(builtAt), newer: path.relative(root, newest.file), changedAt: new Date(newest.mtimeMs) });
    }
  }
  return stale;
}

/**
 * Copies every app's dist into a fresh temporary root, so a rebuild while the benchmark runs
 * (webpack empties dist first) cannot change or break what is measured. Retries once when a
 * build was being written during the copy.
 * @returns {{ dir: string, remove: () => void }}
 */
export function snapshotBuild(root) {
  const fingerprint = () =>
    FRONTEND_APPS.map((app) => {
      try {
        return statSync(path.join(root, app, 'dist', 'mf-manifest.json')).mtimeMs;
      } catch {
        return 0;
      }
    }).join();
  for (let attempt = 1; ; attempt++) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bimi-bench-root-'));
    const remove = () => rmSync(dir, { recursive: true, force: true });
    const before = fingerprint();
    try {
      for (const app of FRONTEND_APPS) cpSync(path.join(root, app, 'dist'), path.join(dir, app, 'dist'), { recursive: true });
      if (before === fingerprint() && missingBuildFiles(dir).length === 0) return { dir, remove };
    } catch (error) {
      if (attempt >= 3) {
        remove();
        throw error;
      }
    }
    remove();
    if (attempt >= 3) throw new Error('the build kept changing while it was being copied (is a build running?)');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5000);
  }
}

/** A cheap identity of the build on disk (manifest times), to notice a rebuild during the run. */
export function buildFingerprint(root) {
  return FRONTEND_APPS.map((app) => {
    try {
      return `${app}:${statSync(path.join(root, app, 'dist', 'mf-manifest.json')).mtimeMs}`;
    } catch {
      return `${app}:missing`;
    }
  }).join(' ');
}
