// @ts-check
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Inside a shared package a module reaches its neighbours by relative path (`./client`,
 * `../zero-styled/index.mjs`), which no share key matches: a remote's own copy of a module the shell
 * does not provide would bring its own copy of every neighbour it imports. `muiNeighbourRequests` and
 * `singletonNeighbourRequests` each return a `NeighbourRequest`: the share key such a request stands
 * for, in one kind of package, or undefined. `ShareNeighboursPlugin` asks for the neighbour by that
 * key, so it becomes a shared module like the app's own imports.
 * @typedef {(context: string, request: string) => string | undefined} NeighbourRequest
 */

/** A workspace package that holds state (the cart, the session, the toasts and theme) says so in its package.json. */
export const isSingletonPackage = (/** @type {{ sharing?: unknown }} */ pkg) => pkg.sharing === 'singleton';

/**
 * @typedef {{ name: string, src: string, modules: Map<string, string> }} SingletonPackage
 *   name: `@bimi/session`; src: its source folder (real path, with a trailing separator); modules: each
 *   exported module's file under src, without extension (`client`), to its subpath (`client`)
 */

/**
 * The workspace packages an app depends on that are shared as singletons (`"sharing": "singleton"`:
 * the cart, the session, the toasts and theme hold state), with the modules each exports.
 * @param {Record<string, string>} dependencies the app's package.json dependencies
 * @param {(name: string) => string} packageDir where a workspace package is (overrides included)
 * @returns {SingletonPackage[]}
 */
export function singletonPackages(dependencies, packageDir) {
  return Object.entries(dependencies)
    .filter(([name, version]) => name.startsWith('@bimi/') && String(version).startsWith('workspace:'))
    .map(([name]) => ({ name, dir: realpathSync(packageDir(name)) }))
    .map(({ name, dir }) => ({ name, dir, pkg: JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) }))
    .filter(({ pkg }) => isSingletonPackage(pkg))
    .map(({ name, dir, pkg }) => ({ name, src: path.join(dir, 'src') + path.sep, modules: exportedModules(dir, pkg.exports ?? {}) }));
}

/** `"./*": "./src/*.ts"` exports every .ts file of src; `"./theme": "./src/theme.ts"` one module by name. */
function exportedModules(/** @type {string} */ dir, /** @type {Record<string, unknown>} */ exports) {
  /** @type {Map<string, string>} */
  const modules = new Map();
  for (const [key, target] of Object.entries(exports)) {
    if (typeof target !== 'string' || !target.startsWith('./src/')) continue;
    if (key === './*' && target.startsWith('./src/*')) {
      const extension = target.slice('./src/*'.length);
      for (const file of readdirSync(path.join(dir, 'src'))) {
        if (file.endsWith(extension) && !/\.(test|d)\.[^.]+$/.test(file)) modules.set(file.slice(0, -extension.length), file.slice(0, -extension.length));
      }
    } else if (!key.includes('*')) {
      modules.set(target.slice('./src/'.length).replace(/\.[^./]+$/, ''), key.slice(2));
    }
  }
  return modules;
}

/**
 * A neighbour a module inside a singleton package imports, by its share key when the package exports
 * it: `./client` inside @bimi/session becomes `@bimi/session/client`.
 * @param {SingletonPackage[]} packages
 * @returns {NeighbourRequest}
 */
export function singletonNeighbourRequests(packages) {
  return (context, request) => {
    if (!request.startsWith('.')) return undefined;
    const owner = packages.find((candidate) => (context + path.sep).startsWith(candidate.src));
    if (!owner) return undefined;
    const target = path.join(context, request);
    if (!target.startsWith(owner.src)) return undefined;
    const relative = target
      .slice(owner.src.length)
      .split(path.sep)
      .join('/')
      .replace(/\.[jt]sx?$/, '');
    const subpath = owner.modules.get(relative);
    return subpath === undefined ? undefined : `${owner.name}/${subpath}`;
  };
}

/**
 * The folders of @mui/material asked for by share key: MUI's styling core (styled, useTheme, default
 * props) and the components nearly every other one is built from, which the shell's first render
 * already has. Without it a remote's fallback for a component the shell does not provide (Link,
 * TextField…) would compile its own copy of MUI's styling engine and default theme (about 18 KB gzip
 * per page) and its own React contexts. Not every folder: each one becomes one more shared module, listed
 * in every remoteEntry.js, and in the shell an eager one, so the parts of the Drawer or the Tooltip
 * (Modal, Popper…) would move from their lazy chunks into the first files. Small helper files MUI
 * does not export stay compiled in.
 */
const MUI_CORE_FOLDERS = ['zero-styled', 'DefaultPropsProvider', 'Typography', 'ButtonBase', 'SvgIcon', 'Paper', 'CircularProgress'];
const MUI_MARKER = `${path.sep}node_modules${path.sep}@mui${path.sep}material${path.sep}`;

/**
 * `../Typography/index.mjs` inside @mui/material becomes `@mui/material/Typography`, for the core folders
 * the package exports.
 * @param {string} appDir the app whose @mui/material is read
 * @returns {NeighbourRequest}
 */
export function muiNeighbourRequests(appDir) {
  const root = path.dirname(createRequire(path.join(appDir, 'package.json')).resolve('@mui/material/package.json'));
  const exported = new Set(
    Object.keys(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).exports)
      .filter((key) => key.startsWith('./') && key !== './package.json')
      .map((key) => key.slice(2))
      .filter((folder) => MUI_CORE_FOLDERS.includes(folder)),
  );
  return (context, request) => {
    if (!request.startsWith('.') || !context.includes(MUI_MARKER)) return undefined;
    const target = path.join(context, request);
    const inside = target.slice(target.lastIndexOf(MUI_MARKER) + MUI_MARKER.length).split(path.sep);
    if (inside.at(-1) === 'index.mjs') inside.pop();
    const subpath = inside.join('/');
    return exported.has(subpath) ? `@mui/material/${subpath}` : undefined;
  };
}

/**
 * Asks for the neighbours of shared packages by their share keys (see `NeighbourRequest`), the first
 * rewrite that answers winning. For the singleton packages this keeps one instance per page: without
 * it a remote's own copy of `@bimi/session/api` would bring its own `./client`, a second session
 * store beside the shell's, which a 401 would refresh while the shell's stayed signed in.
 */
export class ShareNeighboursPlugin {
  /** @param {NeighbourRequest[]} rewrites */
  constructor(rewrites) {
    this.rewrites = rewrites;
  }
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.normalModuleFactory.tap('ShareNeighboursPlugin', (factory) => {
      factory.hooks.beforeResolve.tap('ShareNeighboursPlugin', (data) => {
        for (const rewrite of this.rewrites) {
          const shared = rewrite(data.context, data.request);
          if (shared) {
            data.request = shared;
            return;
          }
        }
      });
    });
  }
}
