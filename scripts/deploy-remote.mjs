#!/usr/bin/env node
// Redeploys ONE remote while the site runs: `pnpm deploy:remote tools [--version 1.2.3] [--root DIR]`.
// In two steps when the build should happen ahead of time (a release pipeline, the e2e flows):
//   pnpm deploy:remote tools --version 1.2.3 --stage DIR   builds into DIR and stops
//   pnpm deploy:remote tools --from DIR [--root DIR]       publishes that build, no build
//
// The remote is built into a staging folder, its content-hashed files are copied next to
// the live ones (new names, so nothing in use changes), and only then are its entry files
// (remoteEntry.js, mf-manifest.json, routes.json and their .br/.gz) and its fixed-name files in
// subfolders (the storefront's docs/*.pdf) are swapped in by rename.
// The next page load gets the new version; pages already open keep loading the old chunks,
// which stay in place. The shell and the other remotes are not touched.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FRONTEND_APPS } from './apps.mjs';
import { buildApp } from './build.mjs';
import { ROOT } from './toolchain.mjs';

const REMOTES = FRONTEND_APPS.filter((app) => app.startsWith('mfe-')).map((app) => app.slice('mfe-'.length));
/** Files a client asks for by a fixed name: swapped last, atomically, one by one. */
const ENTRY_FILE = /^(remoteEntry\.js|mf-manifest\.json|mf-manifest-stats\.json|routes\.json)(\.br|\.gz|\.map)*$/;
/**
 * Content-hashed chunks live at the top of dist and in server/ (the server build, whose own
 * remoteEntry.js is swapped last like the browser's); anything in another subfolder is published
 * under a fixed name.
 */
const isFixedName = (relativePath) => {
  const inServerBuild = relativePath.startsWith('server/');
  const name = inServerBuild ? relativePath.slice('server/'.length) : relativePath;
  return ENTRY_FILE.test(name) || (!inServerBuild && name.includes('/'));
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    version: { type: 'string' },
    root: { type: 'string', default: ROOT },
    stage: { type: 'string' },
    from: { type: 'string' },
  },
});

const remote = positionals[0];
if (!remote || !REMOTES.includes(remote) || (values.stage && values.from) || (values.from && values.version)) {
  console.error(`usage: pnpm deploy:remote <${REMOTES.join('|')}> [--version X] [--root DIR]
       pnpm deploy:remote <remote> [--version X] --stage DIR   (build only)
       pnpm deploy:remote <remote> --from DIR [--root DIR]     (publish a staged build; its version is the one it was built with)`);
  process.exit(2);
}

/** Builds the remote, stamped with `version`, into `folder`. */
async function stage(folder, version) {
  process.env.NODE_ENV = 'production';
  process.env.MF_BUILD_VERSION = version;
  console.log(`building ${remote} ${version} into ${folder}`);
  await buildApp(path.join(ROOT, `mfe-${remote}`), folder);
}

/** The version a staged build was made with, as its manifest records it. */
function stagedVersion(folder) {
  const manifest = path.join(folder, 'mf-manifest.json');
  if (!existsSync(manifest)) throw new Error(`${folder} holds no build of ${remote} (no mf-manifest.json): stage one with --stage`);
  const { name, metaData } = JSON.parse(readFileSync(manifest, 'utf8'));
  if (name !== remote) throw new Error(`${folder} holds a build of ${name}, not of ${remote}`);
  return metaData?.buildInfo?.buildVersion ?? 'unknown';
}

/** Publishes the build in `staging` over the live one: new hashed files first, the fixed-name entries swapped in last. */
function publish(staging, liveDir) {
  if (!existsSync(liveDir)) throw new Error(`${liveDir} does not exist: build the site first`);
  const files = readdirSync(staging, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(staging, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  const assets = files.filter((name) => !isFixedName(name));
  const entries = files.filter(isFixedName);

  let added = 0;
  for (const name of assets) {
    if (existsSync(path.join(liveDir, name))) continue; // same hash, same bytes
    mkdirSync(path.dirname(path.join(liveDir, name)), { recursive: true });
    copyFileSync(path.join(staging, name), path.join(liveDir, name));
    added += 1;
  }
  // Compressed variants first, the plain file last: a client never sees a new plain
  // entry next to an old compressed one for long.
  entries.sort((a, b) => Number(!/\.(br|gz)$/.test(a)) - Number(!/\.(br|gz)$/.test(b)));
  for (const name of entries) {
    const target = path.join(liveDir, name);
    mkdirSync(path.dirname(target), { recursive: true });
    const temporary = path.join(path.dirname(target), `.${path.basename(name)}.${process.pid}.tmp`);
    copyFileSync(path.join(staging, name), temporary);
    renameSync(temporary, target);
  }
  return { added, swapped: entries.length };
}

const liveDir = path.join(path.resolve(values.root), `mfe-${remote}`, 'dist');
const version = values.version ?? `1.0.0-${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
const temporary = values.stage || values.from ? null : mkdtempSync(path.join(os.tmpdir(), `deploy-${remote}-`));

try {
  if (values.stage) {
    await stage(path.resolve(values.stage), version);
    console.log(`staged ${remote} ${version} in ${path.resolve(values.stage)}: publish it with --from`);
  } else {
    const staging = values.from ? path.resolve(values.from) : temporary;
    if (temporary) await stage(temporary, version);
    const deployed = values.from ? stagedVersion(staging) : version;
    const { added, swapped } = publish(staging, liveDir);
    console.log(`deployed ${remote} ${deployed}: ${added} new hashed files, ${swapped} fixed-name files swapped in ${liveDir}`);
  }
} catch (error) {
  console.error(`deploy of ${remote} failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  if (temporary) rmSync(temporary, { recursive: true, force: true });
}
