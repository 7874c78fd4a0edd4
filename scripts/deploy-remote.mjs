#!/usr/bin/env node
// Deploys, rolls back and reports ONE remote while the site runs:
//   pnpm deploy:remote tools [--version 1.2.3] [--root DIR]   builds, releases and puts it live
//   pnpm deploy:remote tools --version 1.2.3 --stage DIR      builds into DIR and stops
//   pnpm deploy:remote tools --from DIR [--root DIR]          releases and puts live a staged build
//   pnpm rollback:remote tools [--root DIR]                   the version live before, in one step
//   pnpm deploy:remote tools --status [--root DIR]            what is live, and the history
//
// Every release is kept whole and unchanged in <root>/mfe-<name>/releases/<version>/ (outside
// dist/, so not served), and releases/history.json records which version went live when. Putting
// a release live copies its content-hashed files next to the live ones (new names, so nothing in
// use changes), then swaps its entry files (remoteEntry.js, mf-manifest.json, routes.json,
// sharing.json and their .br/.gz) and its fixed-name files in subfolders (the storefront's
// docs/*.pdf) in by rename, and removes the fixed-name files it does not have. The next page load
// gets that version; pages already open keep loading their old chunks, which stay in place. If
// the swap fails half-way, the release that was live is swapped back. A rollback puts the previous
// release live the same way. The shell and the other remotes are never touched.
//
// Before a release goes live it is checked by the rule the bff's registry applies too
// (@bimi/contracts/remote-admission): its manifest names this remote and exposes ./routes, its
// routes.json is this remote's and takes no path another remote built in --root owns, and the
// live shell provides every singleton it needs at a version it accepts. (A remote's `prefixes`
// in REMOTES_CONFIG are the bff's to check: it refuses the routes of a remote outside them.)
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import semver from 'semver';
import { tsImport } from 'tsx/esm/api';
import { z } from 'zod';
import { REMOTE_APPS } from './apps.mjs';
import { buildApp } from './build.mjs';
import { ROOT } from './toolchain.mjs';

const REMOTES = REMOTE_APPS.map((app) => app.slice('mfe-'.length));
/** Files a client asks for by a fixed name: swapped last, atomically, one by one. */
const ENTRY_FILE = /^(remoteEntry\.js|mf-manifest\.json|mf-manifest-stats\.json|routes\.json|sharing\.json)(\.br|\.gz|\.map)*$/;
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

/** A version that names a release folder: semver's own normal form, without build metadata (no `v`, spaces or `+`). */
const isPlainVersion = (version) => semver.valid(version) === version && !version.includes('+');
const PlainVersion = z.string().refine(isPlainVersion, 'must be a plain semantic version (1.2.3 or 1.2.3-rc.1)');

const History = z.object({
  /** Versions in the order they went live; the last is live, a rollback returns to the one before. */
  stack: z.array(PlainVersion).min(1),
  events: z.array(z.object({ at: z.iso.datetime(), action: z.enum(['snapshot', 'deploy', 'rollback']), version: PlainVersion })),
});
/** @typedef {z.infer<typeof History>} History */

/** @type {typeof import('../packages/contracts/src/remote-admission.ts')} */
const { admissionProblems, FederationManifest, SharingFile } = await tsImport('../packages/contracts/src/remote-admission.ts', import.meta.url);
/** @type {typeof import('../packages/contracts/src/registry.ts')} */
const { RemoteRouteTable } = await tsImport('../packages/contracts/src/registry.ts', import.meta.url);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    version: { type: 'string' },
    root: { type: 'string', default: ROOT },
    stage: { type: 'string' },
    from: { type: 'string' },
    rollback: { type: 'boolean', default: false },
    status: { type: 'boolean', default: false },
  },
});

const remote = positionals[0];
const modes = [values.stage, values.from, values.rollback || undefined, values.status || undefined].filter(Boolean).length;
if (!remote || !REMOTES.includes(remote) || modes > 1 || ((values.from || values.rollback || values.status) && values.version)) {
  console.error(`usage: pnpm deploy:remote <${REMOTES.join('|')}> [--version X] [--root DIR]
       pnpm deploy:remote <remote> --version X --stage DIR   (build only)
       pnpm deploy:remote <remote> --from DIR [--root DIR]   (release a staged build; its version is the one it was built with)
       pnpm rollback:remote <remote> [--root DIR]            (back to the version live before)
       pnpm deploy:remote <remote> --status [--root DIR]     (what is live, and the history)`);
  process.exit(2);
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const remoteDir = path.join(path.resolve(values.root), `mfe-${remote}`);
const liveDir = path.join(remoteDir, 'dist');
const releasesDir = path.join(remoteDir, 'releases');
const historyFile = path.join(releasesDir, 'history.json');

/** Builds the remote, stamped with `version`, into `folder`. */
async function stage(folder, version) {
  process.env.NODE_ENV = 'production';
  process.env.MF_BUILD_VERSION = version;
  console.log(`building ${remote} ${version} into ${folder}`);
  await buildApp(path.join(ROOT, `mfe-${remote}`), folder);
}

/** A build file parsed with its contract (zod/mini), or an error that names the file and what is wrong. */
function readBuildFile(folder, file, schema) {
  const where = path.join(folder, file);
  if (!existsSync(where)) throw new Error(`${folder} holds no ${file}: is it a build of ${remote}? (stage one with --stage)`);
  const parsed = schema.safeParse(readJson(where));
  if (!parsed.success) throw new Error(`${where} is not valid: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The paths the other remotes built on this machine own now, by path. */
function pathsOfOtherRemotes() {
  const owned = new Map();
  for (const other of REMOTES.filter((name) => name !== remote)) {
    const file = path.join(path.resolve(values.root), `mfe-${other}`, 'dist', 'routes.json');
    if (!existsSync(file)) continue;
    for (const route of RemoteRouteTable.parse(readJson(file)).routes) owned.set(route.path, other);
  }
  return owned;
}

/** The version a build was made with, after checking it may go live (the admission rule the bff applies too). */
function checkedVersion(folder) {
  const manifest = readBuildFile(folder, 'mf-manifest.json', FederationManifest);
  const version = manifest.metaData.buildInfo.buildVersion;
  if (!isPlainVersion(version)) throw new Error(`the build of ${remote} in ${folder} has version "${version}", which is not a plain semantic version (1.2.3 or 1.2.3-rc.1)`);
  const shellDist = path.join(path.resolve(values.root), 'shell', 'dist');
  const problems = admissionProblems({
    name: remote,
    manifest,
    routes: readBuildFile(folder, 'routes.json', RemoteRouteTable),
    sharing: readBuildFile(folder, 'sharing.json', SharingFile),
    shellManifest: readBuildFile(shellDist, 'mf-manifest.json', FederationManifest),
    ownedElsewhere: pathsOfOtherRemotes(),
  });
  if (problems.length > 0) throw new Error(`${remote} ${version} cannot go live:\n  ${problems.join('\n  ')}`);
  return version;
}

/** Puts the release in `release` live: new hashed files first, the fixed-name entries swapped in last. */
function putLive(release) {
  const files = filesUnder(release);
  const assets = files.filter((name) => !isFixedName(name));
  const entries = files.filter(isFixedName);

  let added = 0;
  for (const name of assets) {
    if (existsSync(path.join(liveDir, name))) continue; // same hash, same bytes
    mkdirSync(path.dirname(path.join(liveDir, name)), { recursive: true });
    copyFileSync(path.join(release, name), path.join(liveDir, name));
    added += 1;
  }
  // Compressed variants first, the plain file last: a client never sees a new plain
  // entry next to an old compressed one for long.
  entries.sort((a, b) => Number(!/\.(br|gz)$/.test(a)) - Number(!/\.(br|gz)$/.test(b)));
  for (const name of entries) {
    const target = path.join(liveDir, name);
    mkdirSync(path.dirname(target), { recursive: true });
    const temporary = path.join(path.dirname(target), `.${path.basename(name)}.${process.pid}.tmp`);
    copyFileSync(path.join(release, name), temporary);
    renameSync(temporary, target);
  }
  // A fixed-name file the release does not have (a .br sibling its build did not need, a PDF it
  // dropped) would otherwise keep serving the other version.
  const kept = new Set(entries);
  for (const name of filesUnder(liveDir).filter((file) => isFixedName(file) && !kept.has(file))) rmSync(path.join(liveDir, name));
  return { added, swapped: entries.length };
}

/** Every file under a folder, by its path relative to it with / separators. */
function filesUnder(folder) {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** Puts `release` live; if that fails half-way, puts `previous` back so the site runs one version. */
function switchLive(release, previous) {
  try {
    return putLive(release);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    try {
      putLive(previous);
    } catch (restoring) {
      throw new Error(`${reason}; putting the previous release back failed too (${restoring instanceof Error ? restoring.message : restoring}): run the rollback again`);
    }
    throw new Error(`${reason}; the release that was live was put back`);
  }
}

/** The history, starting it with a snapshot of what is live when this remote was never deployed by this script. */
function readHistory() {
  if (existsSync(historyFile)) {
    const history = History.safeParse(readJson(historyFile));
    if (!history.success) throw new Error(`${historyFile} is damaged (${z.prettifyError(history.error)}); repair it or remove ${releasesDir} to start a new history`);
    return history.data;
  }
  const live = liveVersion();
  if (!isPlainVersion(live)) throw new Error(`the live build of ${remote} has version "${live}", which cannot name a release: rebuild it with a plain semantic version`);
  if (!existsSync(path.join(releasesDir, live))) copyIn(liveDir, live);
  return { stack: [live], events: [{ at: new Date().toISOString(), action: 'snapshot', version: live }] };
}

/** The version of the build that is live now, as its manifest says. */
function liveVersion() {
  if (!existsSync(path.join(liveDir, 'mf-manifest.json'))) throw new Error(`${liveDir} holds no build of ${remote}: build the site first`);
  return FederationManifest.parse(readJson(path.join(liveDir, 'mf-manifest.json'))).metaData.buildInfo.buildVersion;
}

/** The history, after checking that what is live is what it says is live (a rollback must return to the release before *that*). */
function checkedHistory() {
  const history = readHistory();
  const live = liveVersion();
  if (history.stack.at(-1) !== live) {
    throw new Error(
      `${remote} ${live} is live, but ${historyFile} says ${history.stack.at(-1)} is (was it rebuilt outside deploy:remote?); deploy a release over it, or remove ${releasesDir} to start a new history`,
    );
  }
  return history;
}

/** Keeps a build as the release `version`: copied beside, then renamed into place, so a release folder is always whole. */
function copyIn(build, version) {
  const incoming = path.join(releasesDir, `.${version}.${process.pid}.incoming`);
  rmSync(incoming, { recursive: true, force: true });
  cpSync(build, incoming, { recursive: true });
  renameSync(incoming, path.join(releasesDir, version));
}

/** @param {History} history */
function writeHistory(history) {
  const temporary = `${historyFile}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(History.parse(history), null, 2)}\n`);
  renameSync(temporary, historyFile);
}

/** One deploy or rollback of a remote at a time: a second one waits for nobody, it is refused. */
function withLock(action) {
  mkdirSync(releasesDir, { recursive: true });
  const lock = path.join(releasesDir, '.lock');
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
  } catch {
    throw new Error(`another deploy or rollback of ${remote} is running (${lock}); if none is, remove that file`);
  }
  try {
    return action();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Keeps the staged build as an immutable release and puts it live. */
function release(staged) {
  return withLock(() => {
    const version = checkedVersion(staged);
    const history = checkedHistory();
    const folder = path.join(releasesDir, version);
    if (existsSync(folder)) throw new Error(`${remote} ${version} was released before: releases are immutable, build this one with a new --version`);
    copyIn(staged, version);
    let switched;
    try {
      switched = switchLive(folder, path.join(releasesDir, history.stack.at(-1)));
    } catch (error) {
      // It never went live: the same version may be tried again.
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
    const { added, swapped } = switched;
    writeHistory({ stack: [...history.stack, version], events: [...history.events, { at: new Date().toISOString(), action: 'deploy', version }] });
    console.log(`deployed ${remote} ${version}: ${added} new hashed files, ${swapped} fixed-name files swapped in ${liveDir}`);
  });
}

function rollback() {
  return withLock(() => {
    const history = checkedHistory();
    const [current, previous] = history.stack.slice(-2).reverse();
    if (!previous) throw new Error(`${remote} ${current} is the only release: there is nothing to roll back to`);
    checkedVersion(path.join(releasesDir, previous));
    const { swapped } = switchLive(path.join(releasesDir, previous), path.join(releasesDir, current));
    writeHistory({ stack: history.stack.slice(0, -1), events: [...history.events, { at: new Date().toISOString(), action: 'rollback', version: previous }] });
    console.log(`rolled ${remote} back from ${current} to ${previous}: ${swapped} fixed-name files swapped in ${liveDir}`);
  });
}

function status() {
  const history = existsSync(historyFile) ? History.parse(readJson(historyFile)) : null;
  const live = liveVersion();
  console.log(`${remote}: ${live} is live (${liveDir})`);
  if (!history) return console.log('never deployed alone: no releases yet');
  console.log(`a rollback returns to: ${history.stack.at(-2) ?? 'nothing (the first release)'}`);
  for (const event of history.events) console.log(`  ${event.at}  ${event.action.padEnd(8)} ${event.version}`);
}

const temporary = values.stage || values.from || values.rollback || values.status ? null : mkdtempSync(path.join(os.tmpdir(), `deploy-${remote}-`));
try {
  if (values.status) status();
  else if (values.rollback) rollback();
  else if (values.stage) {
    const version = values.version ?? '';
    if (!isPlainVersion(version)) throw new Error(`--stage needs a plain semantic --version for the build, such as 1.2.3 (got "${version}")`);
    await stage(path.resolve(values.stage), version);
    console.log(`staged ${remote} ${version} in ${path.resolve(values.stage)}: deploy it with --from`);
  } else if (values.from) release(path.resolve(values.from));
  else if (temporary) {
    const version = values.version ?? `1.0.0-${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
    if (!isPlainVersion(version)) throw new Error(`--version must be a plain semantic version, such as 1.2.3 (got "${version}")`);
    await stage(temporary, version);
    release(temporary);
  }
} catch (error) {
  console.error(`${values.rollback ? 'rollback' : values.status ? 'status' : 'deploy'} of ${remote} failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  if (temporary) rmSync(temporary, { recursive: true, force: true });
}
