// @ts-check
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

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
    .filter(({ pkg }) => pkg.sharing === 'singleton')
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
 * The request a module inside a singleton package makes of a neighbour it exports, by its share key:
 * `./client` inside @bimi/session becomes `@bimi/session/client`. Undefined for any other request.
 * @param {SingletonPackage[]} packages
 * @param {string} context the importing module's folder
 * @param {string} request
 */
export function sharedNeighbourRequest(packages, context, request) {
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
}

/**
 * Inside a package shared as a singleton, a module reaches its neighbours by relative path, which no
 * share key matches: a remote's own copy of a module the shell does not provide (`@bimi/session/api`)
 * brought its own copy of the neighbour it imports (`./client`), so the page ran a second session
 * store beside the shell's, which a 401 refreshed while the shell's stayed signed in. Rewriting those
 * requests to the package's subpath makes every neighbour a shared module, one instance per page.
 */
export class ShareSingletonNeighboursPlugin {
  /** @param {SingletonPackage[]} packages */
  constructor(packages) {
    this.packages = packages;
  }
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.normalModuleFactory.tap('ShareSingletonNeighboursPlugin', (factory) => {
      factory.hooks.beforeResolve.tap('ShareSingletonNeighboursPlugin', (data) => {
        const shared = sharedNeighbourRequest(this.packages, data.context, data.request);
        if (shared) data.request = shared;
      });
    });
  }
}
