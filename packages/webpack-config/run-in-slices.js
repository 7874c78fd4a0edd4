// @ts-check
/**
 * Code that arrives in a chunk runs a few modules a task (`RunInSlicesPlugin`, production builds).
 * Webpack runs what an `import()`, a lazily provided shared module or a remote's exposed module
 * needs in one go, once its files arrived: the module and everything it imports, in the task of
 * the promise that asked for it. On this 2-core host those tasks were the longest of every page
 * with a remote: MUI's styles with its default theme 25–60 ms, the shell's start-up steps (the cart
 * store with the catalog, the app's frame) 18–30 ms, a remote's page with its contracts 10–25 ms.
 *
 * Every place webpack writes the promise of a block's files (`runtimeTemplate.blockPromise`: an
 * `import()`, an eager-mode `import()` such as the shell's start-up steps, a provided shared module's
 * getter, a container's exposed module) now also names the modules the block's code will run first
 * (`runList`), and the runtime runs those before the block's own module, yielding to the browser
 * whenever a slice took `SLICE_MS`. The block's own code then finds them done.
 */
import webpack from 'webpack';

const NAME = 'RunInSlicesPlugin';

/** The runtime function (a runtime requirement of its own, so builds without a block go without it). */
const RUN_IN_SLICES = `${webpack.RuntimeGlobals.require}.runInSlices`;

/**
 * A module without side effects smaller than this is not named: it runs with the first module
 * that imports it (later than webpack would run it, which nothing can tell), in well under a
 * millisecond. Keeps the lists short.
 */
export const NAMED_MODULE_MIN_BYTES = 2048;

/** How long a slice runs before the browser gets a turn (React yields every 5 ms too). */
export const SLICE_MS = 5;

/**
 * The modules `roots` import, their imports' imports and so on, in the order webpack runs them:
 * each after the modules it imports (depth-first, in import order, each module once), the roots
 * last. Only static imports (`import … from`) that webpack keeps are followed (`staticImportsOf`): not
 * an `import()` of any mode, not a `require()` (which may sit in a function that never runs), not a
 * remote's module. A shared module is a node of its own (requiring it asks the share scope).
 * `cyclic` are the modules of an import cycle, which must be entered where webpack enters them.
 * @param {import('webpack').Module[]} roots
 * @param {import('webpack').ModuleGraph} moduleGraph
 * @returns {{ order: import('webpack').Module[], cyclic: Set<import('webpack').Module> }}
 */
export function runOrderOf(roots, moduleGraph) {
  /** @type {import('webpack').Module[]} */
  const order = [];
  const seen = new Set();
  /** @type {import('webpack').Module[]} */
  const path = [];
  const cyclic = new Set();
  /** @param {import('webpack').Module} module */
  const visit = (module) => {
    const onPath = path.indexOf(module);
    if (onPath >= 0) {
      for (const member of path.slice(onPath)) cyclic.add(member);
      return;
    }
    if (seen.has(module) || module.type === 'remote-module' || module.type === 'provide-module') return;
    seen.add(module);
    path.push(module);
    for (const target of staticImportsOf(module, moduleGraph)) visit(target);
    path.pop();
    order.push(module);
  };
  for (const root of roots) visit(root);
  return { order, cyclic };
}

/**
 * What a module webpack concatenated from several runs of other modules before its own code: the
 * modules its parts import, in the order its code requires them (webpack's own list), up to the
 * first part with side effects (what it imports after that runs after that part, so inside the
 * module, at its place). Unconditional, not deferred imports only; none if webpack's list cannot
 * be read.
 * @param {import('webpack').Module} module
 * @param {import('webpack').ModuleGraph} moduleGraph
 * @returns {import('webpack').Module[]}
 */
function concatenatedImportsOf(module, moduleGraph) {
  const concatenated = /** @type {any} */ (module);
  if (typeof concatenated._createConcatenationList !== 'function') return [];
  /** @type {{ type: string, module: import('webpack').Module, runtimeCondition?: unknown, nonDeferAccess?: unknown }[]} */
  const list = concatenated._createConcatenationList(concatenated.rootModule, concatenated._modules, undefined, moduleGraph);
  const imports = [];
  for (const entry of list) {
    if (entry.type === 'concatenated') {
      if (entry.module.getSideEffectsConnectionState(moduleGraph) !== false) break;
      continue;
    }
    if (entry.type !== 'external' || entry.runtimeCondition !== true || entry.nonDeferAccess !== true) break;
    imports.push(entry.module);
  }
  return imports;
}

/**
 * The modules `module`'s static imports run, in the order of its `import` statements (their source
 * order: the graph's connections come in the order the imports were resolved, which varies), as
 * webpack orders them. A shared module is a leaf; a module webpack concatenated from several is read
 * by `concatenatedImportsOf`.
 * @param {import('webpack').Module} module
 * @param {import('webpack').ModuleGraph} moduleGraph
 * @returns {import('webpack').Module[]}
 */
function staticImportsOf(module, moduleGraph) {
  if (module.type === 'consume-shared-module') return [];
  if ('modules' in module) return concatenatedImportsOf(module, moduleGraph);
  /** @type {[number, import('webpack').Module][]} */
  const imports = [];
  for (const dependency of module.dependencies) {
    if (!(dependency instanceof webpack.dependencies.HarmonyImportDependency)) continue;
    const connection = moduleGraph.getConnection(dependency);
    if (!connection?.module || connection.getActiveState(undefined) !== true) continue;
    imports.push([/** @type {any} */ (dependency).sourceOrder ?? 0, connection.module]);
  }
  return imports.sort(([a], [b]) => a - b).map(([, target]) => target);
}

/**
 * The modules to run ahead of `roots`, in order: the run order up to the first module that cannot
 * run on its own (in an import cycle, or in no file certainly loaded), leaving out the roots and
 * the small modules without side effects. So every module with side effects runs where webpack
 * would run it, relative to the others.
 * @param {import('webpack').Module[]} roots
 * @param {import('webpack').ModuleGraph} moduleGraph
 * @param {(module: import('webpack').Module) => boolean} isLoaded
 * @returns {import('webpack').Module[]}
 */
export function runList(roots, moduleGraph, isLoaded) {
  const { order, cyclic } = runOrderOf(roots, moduleGraph);
  const list = [];
  for (const module of order) {
    if (roots.includes(module) || cyclic.has(module) || !isLoaded(module)) break;
    const sideEffectFree = module.getSideEffectsConnectionState(moduleGraph) === false;
    if (sideEffectFree && module.size() < NAMED_MODULE_MIN_BYTES) continue;
    list.push(module);
  }
  return list;
}

/** The code of the runtime function: `runInSlices(promise, ids)` resolves as `promise` does, once `ids` ran. */
class RunInSlicesRuntimeModule extends webpack.RuntimeModule {
  constructor() {
    super('run in slices', webpack.RuntimeModule.STAGE_ATTACH);
  }

  generate() {
    const require = webpack.RuntimeGlobals.require;
    return `(() => {
  // The steps of yieldToBrowser in yield-to-browser.js (change both). A hidden tab paints nothing,
  // and there a timer can wait a second or more: no yield there.
  var yieldToBrowser = () => {
    if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return Promise.resolve();
    var scheduler = globalThis.scheduler;
    if (scheduler && typeof scheduler.yield === 'function') return scheduler.yield().catch(() => {});
    return new Promise((resolve) => setTimeout(resolve, 0));
  };
  ${RUN_IN_SLICES} = (promise, ids) => promise.then(async (value) => {
    var sliceStart = performance.now();
    for (var i = 0; i < ids.length; i++) {
      ${require}(ids[i]);
      if (performance.now() - sliceStart >= ${SLICE_MS}) {
        await yieldToBrowser();
        sliceStart = performance.now();
      }
    }
    return value;
  });
})();`;
  }
}

/**
 * The files certainly loaded when a block's promise resolves: the block's own, the one file that
 * holds the module that asks for it (when it is in one only: that module is running), and the
 * entry files when the build has one entry (the shell's first files, a remote's remoteEntry.js),
 * which run before anything else.
 * @param {import('webpack').Compilation} compilation
 * @param {import('webpack').ChunkGraph} chunkGraph
 * @param {import('webpack').AsyncDependenciesBlock | undefined} block
 * @param {unknown} importer
 * @returns {import('webpack').Chunk[]}
 */
function loadedFiles(compilation, chunkGraph, block, importer) {
  const files = block ? [...(chunkGraph.getBlockChunkGroup(block)?.chunks ?? [])] : [];
  if (importer instanceof webpack.Module && chunkGraph.getNumberOfModuleChunks(importer) === 1) files.push(...chunkGraph.getModuleChunks(importer));
  if (compilation.entrypoints.size === 1) for (const entrypoint of compilation.entrypoints.values()) files.push(...entrypoint.chunks);
  return files;
}

export class RunInSlicesPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      const { runtimeTemplate, moduleGraph } = compilation;
      // An `import()` in webpack's eager mode (the shell's start-up steps) has no block of its own:
      // its module is the one the import names, passed to blockPromise through this.
      /** @type {import('webpack').Module | undefined} */
      let eagerImport;
      const moduleNamespacePromise = runtimeTemplate.moduleNamespacePromise.bind(runtimeTemplate);
      runtimeTemplate.moduleNamespacePromise = (options) => {
        eagerImport = options.block || options.weak ? undefined : options.module;
        try {
          return moduleNamespacePromise(options);
        } finally {
          eagerImport = undefined;
        }
      };
      const blockPromise = runtimeTemplate.blockPromise.bind(runtimeTemplate);
      runtimeTemplate.blockPromise = (options) => {
        const promise = blockPromise(options);
        const { block, chunkGraph, runtimeRequirements } = options;
        // A block whose files are all loaded already makes a getter that answers at once (a
        // shared module's, which the share scope may ask for synchronously): it stays so.
        if (block && promise === 'Promise.resolve()') return promise;
        const roots = block
          ? /** @type {import('webpack').Module[]} */ (block.dependencies.map((dependency) => moduleGraph.getModule(dependency)).filter(Boolean))
          : eagerImport
            ? [eagerImport]
            : [];
        if (!roots.length || !runtimeRequirements) return promise;
        const loaded = loadedFiles(compilation, chunkGraph, block, options.originModule ?? block?.parent);
        const isLoaded = (/** @type {import('webpack').Module} */ module) => loaded.some((chunk) => chunkGraph.isModuleInChunk(module, chunk));
        const ids = runList(roots, moduleGraph, isLoaded)
          .map((module) => chunkGraph.getModuleId(module))
          .filter((id) => id !== null && id !== undefined);
        // A list of one runs in one go anyway.
        if (ids.length < 2) return promise;
        runtimeRequirements.add(webpack.RuntimeGlobals.require);
        runtimeRequirements.add(RUN_IN_SLICES);
        return `${RUN_IN_SLICES}(${promise}, ${JSON.stringify(ids)})`;
      };
      compilation.hooks.runtimeRequirementInTree.for(RUN_IN_SLICES).tap(NAME, (chunk) => {
        compilation.addRuntimeModule(chunk, new RunInSlicesRuntimeModule());
        return true;
      });
    });
  }
}
