// Sorts the files a page downloads into three groups, from each app's dist/mf-manifest.json:
//
//   shared  chunks that provide shared modules: the chunks a manifest lists under `shared`, and
//           chunks it does not list whose code (by source map) comes only from the shared
//           packages and their own dependencies (webpack split those out as common parts of
//           several shared modules: @mui/system, @emotion/serialize, scheduler, …)
//   remote  a remote's remoteEntry.js, its mf-manifest.json and every other chunk of the remote
//           that is not shared (its exposed modules and what they import)
//   shell   the shell's own chunks: main.js (with the federation runtime it provides) and every
//           shell chunk that is not shared, including npm code bundled into it unshared
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { FRONTEND_APPS } from '../apps.mjs';
import { compositionOf } from './sourcemap.mjs';

/** '@mui/material/Badge' → '@mui/material', 'react-dom/client' → 'react-dom' */
export function basePackage(request) {
  const parts = request.split('/');
  return request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Node's lookup: the nearest node_modules/<name> at or above `fromDir`, as a real path. */
function findPackageDir(fromDir, name) {
  let dir = fromDir;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate);
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** The shared packages of an app and, transitively, the packages they depend on. */
function sharedClosure(appDir, sharedNames) {
  const closure = new Set();
  const queue = [...new Set(sharedNames.map(basePackage))].map((name) => ({ name, from: appDir }));
  while (queue.length) {
    const { name, from } = queue.shift();
    if (closure.has(name)) continue;
    closure.add(name);
    const dir = findPackageDir(from, name);
    if (!dir) continue;
    let pkg;
    try {
      pkg = readJson(path.join(dir, 'package.json'));
    } catch {
      continue;
    }
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) queue.push({ name: dep, from: dir });
  }
  return closure;
}

/**
 * @param {string} root the workspace (its node_modules tell which packages shared ones depend on)
 * @param {{ distRoot?: string }} [options] where shell/dist and mfe-<name>/dist are (a snapshot; the workspace by default)
 */
export function loadCatalog(root, { distRoot = root } = {}) {
  /** @type {Map<string, any>} federation name → app */
  const apps = new Map();
  for (const folder of FRONTEND_APPS) {
    const appDir = path.join(root, folder);
    const dist = path.join(distRoot, folder, 'dist');
    const manifestFile = path.join(dist, 'mf-manifest.json');
    if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing`);
    const manifest = readJson(manifestFile);
    const federationName = manifest.name ?? (folder === 'shell' ? 'shell' : folder.replace(/^mfe-/, ''));
    /** file → { group, why } from the manifest */
    const listed = new Map();
    const list = (file, group, why) => {
      if (!listed.has(file)) listed.set(file, { group, why });
    };
    for (const shared of manifest.shared ?? []) {
      for (const kind of ['sync', 'async']) for (const file of shared.assets?.js?.[kind] ?? []) list(file, 'shared', `shared ${shared.name}`);
    }
    for (const expose of manifest.exposes ?? []) {
      for (const kind of ['sync', 'async']) for (const file of expose.assets?.js?.[kind] ?? []) list(file, 'remote', `exposes ${expose.path ?? expose.name}`);
    }
    const remoteEntry = manifest.metaData?.remoteEntry?.name;
    const isShell = !remoteEntry;
    if (remoteEntry) list(remoteEntry, 'remote', 'remote entry');
    list('mf-manifest.json', isShell ? 'shell' : 'remote', 'federation manifest');
    if (isShell) list('main.js', 'shell', 'entry');
    const sharedNames = (manifest.shared ?? []).map((s) => s.name);
    apps.set(federationName, {
      name: federationName,
      folder,
      dist,
      isShell,
      listed,
      sharedNames,
      closure: sharedClosure(appDir, sharedNames),
    });
  }

  /**
   * The app and file behind a URL path: /mfe/<name>/<file>, else the one dist folder that
   * holds a file of that name.
   */
  function locate(urlPath) {
    const match = /\/mfe\/([^/]+)\/(.+)$/.exec(urlPath);
    if (match && apps.has(match[1])) {
      const app = apps.get(match[1]);
      const file = path.join(app.dist, match[2]);
      if (existsSync(file)) return { app, file, name: match[2] };
    }
    const base = path.basename(urlPath);
    const holders = [...apps.values()].filter((app) => existsSync(path.join(app.dist, base)));
    if (holders.length === 1) return { app: holders[0], file: path.join(holders[0].dist, base), name: base };
    return null;
  }

  /**
   * @param {string} urlPath
   * @returns {{ group: 'shell'|'shared'|'remote', app: string, file: string|null, name: string, why: string, composition: any[]|null } | null}
   */
  function classify(urlPath) {
    const found = locate(urlPath);
    if (!found) return null;
    const { app, file, name } = found;
    const composition = name.endsWith('.js') ? compositionOf(file) : null;
    const own = app.isShell ? 'shell' : 'remote';
    const fromManifest = app.listed.get(name);
    if (fromManifest) return { group: fromManifest.group, app: app.name, file, name, why: fromManifest.why, composition };
    if (composition) {
      const code = composition.filter((part) => part.share > 0.001 && part.kind !== 'webpack');
      const allShared = code.length > 0 && code.every((part) => part.kind === 'npm' && app.closure.has(part.name));
      if (allShared) return { group: 'shared', app: app.name, file, name, why: `common code of shared packages (${code.map((p) => p.name).join(', ')})`, composition };
      return { group: own, app: app.name, file, name, why: 'not shared (source map)', composition };
    }
    return { group: own, app: app.name, file, name, why: 'not in the manifest', composition };
  }

  return { apps, classify };
}
