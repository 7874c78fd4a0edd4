// @ts-check
/**
 * The one webpack configuration every front-end app builds with. An app's own
 * webpack.config.mjs reads like a table: its federation name, what it exposes, and
 * for the shell the HTML page. Sharing, hashing and compression live here so the five
 * builds cannot drift apart.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import webpack from 'webpack';
import TerserPlugin from 'terser-webpack-plugin';
import swc from '@swc/core';
import CompressionPlugin from 'compression-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { z } from 'zod';
import { RunInSlicesPlugin } from './run-in-slices.js';
import { isSingletonPackage, muiNeighbourRequests, ShareNeighboursPlugin, singletonNeighbourRequests, singletonPackages } from './shared-neighbours.js';

const require = createRequire(import.meta.url);

/**
 * Publishes a remote's route table beside its build as routes.json: the bff reads it to
 * build /remotes.json and to answer unknown paths with 404, so a remote adding a page
 * changes neither the shell nor the bff.
 */
class EmitRouteTablePlugin {
  /** @param {string} file */
  constructor(file) {
    this.file = file;
  }
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('EmitRouteTablePlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'EmitRouteTablePlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        compilation.fileDependencies.add(this.file);
        const json = JSON.stringify(JSON.parse(readFileSync(this.file, 'utf8')));
        compilation.emitAsset('routes.json', new webpack.sources.RawSource(json));
      });
    });
  }
}

/**
 * Publishes sharing.json beside the build: the share keys it uses as strict singletons and the
 * version range each accepts. The deploy script and the bff read it to refuse a remote the live
 * shell cannot run (@bimi/contracts/remote-admission) before it goes live.
 */
class EmitSharingPlugin {
  /** @param {Record<string, { singleton?: boolean, strictVersion?: boolean, requiredVersion?: string | false }>} shared */
  constructor(shared) {
    this.singletons = Object.fromEntries(
      Object.entries(shared).flatMap(([key, config]) => (config.singleton && config.strictVersion && config.requiredVersion ? [[key, config.requiredVersion]] : [])),
    );
  }
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('EmitSharingPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'EmitSharingPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        compilation.emitAsset('sharing.json', new webpack.sources.RawSource(JSON.stringify({ singletons: this.singletons })));
      });
    });
  }
}

/** A script of this folder, minified: it goes inline into every page. */
const minifiedScript = (file) => swc.minifySync(readFileSync(new URL(file, import.meta.url), 'utf8'), { compress: true, mangle: true, ecma: 2015 }).code;
/** The clicks made before the page is live (early-input.js). */
const EARLY_INPUT = minifiedScript('./early-input.js');
/** The shell's start once the page is painted (start-after-paint.js). */
const START_AFTER_PAINT = minifiedScript('./start-after-paint.js');

/**
 * The shell's page loads its code once it has been painted (issue 14), from its two inline scripts:
 * early-input.js in the head holds a click made on the server's page before it is live and makes
 * it again once it is, and start-after-paint.js at the end of the body adds the entry's scripts
 * (and a preload of the `bootstrap` chunk, which main.js imports as soon as it runs) after the
 * first paint. A deferred main.js that had already arrived (a repeat visit) ran before the first
 * paint, so a server-rendered page waited for the shell's start-up to show, and Lighthouse counted
 * its download and run into the page's largest paint. The start code is inline, not a file: a
 * deferred file is one more round trip before the scripts can start, and, run before the first
 * paint, Lighthouse's model puts its request on the path to the first and largest paint. The bff
 * allows both scripts by their hashes (its shell page reads them from index.html).
 */
class StartAfterPaintPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('StartAfterPaintPlugin', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('StartAfterPaintPlugin', (data) => {
        const entryTags = [...data.headTags, ...data.bodyTags].filter((tag) => tag.tagName === 'script' && typeof tag.attributes.src === 'string');
        if (entryTags.length === 0) return data;
        const sources = entryTags.map((tag) => String(tag.attributes.src));
        const publicPath = compilation.getPath(compilation.outputOptions.publicPath ?? '');
        const preloads = [...(compilation.namedChunks.get('bootstrap')?.files ?? [])].filter((file) => file.endsWith('.js')).map((file) => `${publicPath}${file}`);
        const inline = (innerHTML, attributes = {}) => ({ tagName: 'script', voidTag: false, meta: { plugin: 'StartAfterPaintPlugin' }, attributes, innerHTML });
        data.headTags = [inline(EARLY_INPUT), ...data.headTags.filter((tag) => !entryTags.includes(tag))];
        // At the end of the body: #root, which it reads, is parsed by then. Its text is the same
        // for every build (one hash); the files go in its attributes (URLs hold no spaces).
        const start = inline(START_AFTER_PAINT, { 'data-scripts': sources.join(' '), 'data-preloads': preloads.join(' ') });
        data.bodyTags = [...data.bodyTags.filter((tag) => !entryTags.includes(tag)), start];
        return data;
      });
    });
  }
}

/**
 * The federation runtime's packages ship both ES modules and CommonJS. The runtime that
 * the shell provides to the remotes is loaded with `require` and would bring a second,
 * CommonJS copy of them (about 20 KB gzip). Every import of these packages resolves to the
 * ES module build instead, so main.js holds one copy.
 */
function federationRuntimeAliases() {
  /** The folder of an installed package (its package.json is not always exported). */
  const packageDir = (/** @type {NodeRequire} */ from, /** @type {string} */ name) => {
    const marker = `${path.sep}node_modules${path.sep}${name.split('/').join(path.sep)}${path.sep}`;
    const entry = from.resolve(name);
    return entry.slice(0, entry.lastIndexOf(marker) + marker.length - 1);
  };
  const enhanced = createRequire(packageDir(require, '@module-federation/enhanced') + path.sep);
  const runtimeTools = createRequire(packageDir(enhanced, '@module-federation/runtime-tools') + path.sep);
  const runtime = createRequire(packageDir(runtimeTools, '@module-federation/runtime') + path.sep);
  /** @type {Record<string, string>} */
  const aliases = {};
  for (const [name, from] of /** @type {const} */ ([
    ['@module-federation/runtime', runtimeTools],
    ['@module-federation/runtime-core', runtime],
    ['@module-federation/sdk', runtime],
    ['@module-federation/error-codes', runtime],
  ])) {
    const dir = packageDir(from, name);
    const entry = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).exports['.'].import;
    aliases[`${name}$`] = path.join(dir, typeof entry === 'string' ? entry : entry.default);
  }
  return aliases;
}

/**
 * Where a build finds a workspace package. A remote team that tries a newer shared package
 * before it is merged builds against its folder instead: BIMI_PACKAGE_OVERRIDES is a JSON object
 * from package name to folder (the e2e flow for versioned sharing builds the storefront against
 * catalog N+1 this way).
 */
const PackageOverrides = z.record(z.string().regex(/^@bimi\/[a-z-]+$/), z.string().min(1));
function packageOverrides() {
  const result = PackageOverrides.safeParse(JSON.parse(process.env.BIMI_PACKAGE_OVERRIDES || '{}'));
  if (!result.success) throw new Error(`BIMI_PACKAGE_OVERRIDES must map @bimi/ package names to folders: ${z.prettifyError(result.error)}`);
  return result.data;
}

/** @param {string} appDir */
function workspacePackageDirs(appDir) {
  const overrides = packageOverrides();
  return (/** @type {string} */ name) => overrides[name] ?? path.join(appDir, 'node_modules', ...name.split('/'));
}

/**
 * Aliases that point the overridden packages' subpath imports at their folders. A workspace
 * package exports its modules as `"./*": "./src/*.ts"`, which an alias to a folder bypasses, so the
 * alias goes to the folder that pattern names.
 */
function packageOverrideAliases() {
  /** @type {Record<string, string>} */
  const aliases = {};
  for (const [name, dir] of Object.entries(packageOverrides())) {
    const { exports } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const target = exports?.['./*'];
    const folder = typeof target === 'string' ? /^\.\/([\w-]+)\/\*\.ts$/.exec(target)?.[1] : undefined;
    if (!folder) throw new Error(`${name} in ${dir} does not export its modules as "./*": "./<folder>/*.ts"`);
    aliases[name] = path.join(dir, folder);
  }
  return aliases;
}

/**
 * How the workspace packages are shared (issue 15). A package that holds state (the cart, the
 * session, the toast queue and theme) declares `"sharing": "singleton"` in its package.json: one
 * instance, and a remote built against a newer major version than the shell provides fails to
 * load with the runtime's reason (strictVersion), where its error boundary reports it. Every other
 * package (catalog, contracts, email-auth) is shared by version: a remote built against a newer
 * release than the shell's (`^1.1.0` where the shell has 1.0.0) loads its own copy, and one built
 * against the same or an older compatible release uses the shell's.
 * @param {string} dir the package's folder
 */
export function workspaceSharing(dir) {
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const requiredVersion = `^${pkg.version}`;
  return isSingletonPackage(pkg) ? { singleton: true, requiredVersion, strictVersion: true } : { singleton: false, requiredVersion };
}

/** The plugin that asks for the neighbours of MUI's core and of the app's singleton packages by share key (shared-neighbours.js). */
function shareNeighbours(/** @type {string} */ appDir) {
  const { dependencies = {} } = JSON.parse(readFileSync(path.join(appDir, 'package.json'), 'utf8'));
  const singletons = singletonPackages(dependencies, workspacePackageDirs(appDir));
  return new ShareNeighboursPlugin([muiNeighbourRequests(appDir), singletonNeighbourRequests(singletons)]);
}

/** What the app shares and how, from its own dependencies. */
function sharedConfig(appDir) {
  const pkg = JSON.parse(readFileSync(path.join(appDir, 'package.json'), 'utf8'));
  const deps = { ...pkg.dependencies };
  const packageDir = workspacePackageDirs(appDir);
  /** @type {Record<string, any>} */
  const shared = {};
  const singleton = (key, dep = key) => {
    if (!deps[dep]) return;
    shared[key] = { singleton: true, requiredVersion: deps[dep], strictVersion: false };
  };
  // Subpath imports (react-dom/client, react/jsx-runtime, @mui/material/Button) are
  // shared only through trailing-slash keys; without them they would be bundled twice.
  for (const name of ['react', 'react-dom', 'react-router-dom', 'react-router', 'valtio', '@emotion/react', '@emotion/styled', '@emotion/cache']) {
    singleton(name);
    singleton(`${name}/`, name);
  }
  // MUI is only ever imported by subpath (tree shaking): the root index is never shared.
  singleton('@mui/material/', '@mui/material');
  // MUI's own packages, reached by package name from inside @mui/material: the Emotion
  // bridge (with Emotion's serializer, about 2.6 KB gzip a remote page) and the colour
  // helpers, both in the shell's main.js. Not whole prefixes: every key is one more entry in
  // each remoteEntry.js, and a key the shell does not provide only moves the remote's copy
  // into a request of its own.
  if (deps['@mui/material']) {
    for (const key of ['@mui/styled-engine', '@mui/system/colorManipulator']) shared[key] = { singleton: true, requiredVersion: false };
  }
  for (const [dep, version] of Object.entries(deps)) {
    if (dep.startsWith('@bimi/') && String(version).startsWith('workspace:') && dep !== '@bimi/webpack-config') {
      // Imported by subpath (@bimi/cart/store), so shared through the trailing-slash key too.
      const sharing = workspaceSharing(packageDir(dep));
      for (const key of [dep, `${dep}/`]) shared[key] = { ...sharing };
    }
  }
  // A deploy stamps its own version (MF_BUILD_VERSION is also what the manifest records).
  return { shared, version: process.env.MF_BUILD_VERSION ?? pkg.version };
}

/** How every build resolves and compiles the sources, browser or server. */
function resolveOptions() {
  return {
    extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
    alias: { ...federationRuntimeAliases(), ...packageOverrideAliases() },
  };
}

/** @param {boolean} prod */
function moduleOptions(prod) {
  return {
    rules: [
      {
        test: /\.[cm]?[jt]sx?$/,
        exclude: /node_modules/,
        use: {
          loader: require.resolve('swc-loader'),
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              target: 'es2022',
              transform: { react: { runtime: 'automatic', development: !prod, refresh: false } },
            },
          },
        },
      },
      { test: /\.(svg|png|woff2)$/, type: 'asset/resource' },
    ],
  };
}

/**
 * The shell's first JavaScript as several files instead of one main.js: the browser compiles and
 * runs each file in a task of its own, where one 650 KB file was one task of about 25 ms on a
 * 2-core host (at the calibrated phone's slowdown, the page's longest task). Hashed names: unlike
 * main.js they change only when their libraries do, so a browser keeps them across releases.
 */
/** Modules of these packages, installed by npm or pnpm (`node_modules/.pnpm/<id>/node_modules/<name>/`). */
const packagesNamed = (/** @type {string[]} */ names) => new RegExp(`[\\\\/]node_modules[\\\\/](\\.pnpm[\\\\/][^\\\\/]+[\\\\/]node_modules[\\\\/])?(${names.join('|')})[\\\\/]`);

/** One file of the shell's first JavaScript: content-hashed, with every module the test matches. */
const initialFile = (/** @type {string} */ name, /** @type {RegExp} */ test, /** @type {number} */ priority) => ({
  test,
  name,
  filename: '[name].[contenthash:10].js',
  enforce: true,
  priority,
});

const MUI_CORE = packagesNamed(['@mui', 'clsx', '@babel/runtime']);
const MUI_OVERLAYS =
  /[\\/]@mui[\\/](icons-material[\\/]|material[\\/](Drawer|Modal|Backdrop|Fade|Slide|Grow|Portal|Unstable_TrapFocus|Popper|Tooltip|Alert|AlertTitle|Stack|useMediaQuery)[\\/]|system[\\/](Stack|useMediaQuery)[\\/])/;

const SHELL_INITIAL_FILES = {
  chunks: 'initial',
  cacheGroups: {
    default: false,
    defaultVendors: false,
    reactDom: initialFile('react-dom', packagesNamed(['react-dom', 'scheduler']), 30),
    ui: initialFile('ui', packagesNamed(['@emotion', 'stylis', 'react-is', 'hoist-non-react-statics']), 20),
    // MUI, which the shell provides lazily (its frame draws without it): its core in one file with
    // the first remote's page, not a file per component. What only the account frame, the phone
    // menu and the toasts use (drawers, tooltips, alerts and what they open with) stays apart.
    mui: {
      ...initialFile('mui', MUI_CORE, 25),
      test: (/** @type {{ resource?: string }} */ module) => MUI_CORE.test(module.resource ?? '') && !MUI_OVERLAYS.test(module.resource ?? ''),
      chunks: 'async',
    },
    libraries: initialFile('libraries', /[\\/]node_modules[\\/]/, 10),
  },
};

/**
 * @param {{
 *   name: string,                     federation name: shell, storefront, checkout, account, tools
 *   dir: string,                      the app's folder
 *   exposes?: Record<string,string>,  a remote's public API
 *   html?: { title: string },         the shell's page
 *   runtimePlugins?: string[],
 *   eagerShared?: { except: string[] },  the shell only: provide the shared libraries from its entry file
 * }} app
 */
export function createAppConfig(app) {
  const isShell = !app.exposes;
  const { shared, version } = sharedConfig(app.dir);
  if (app.eagerShared) {
    // The shell provides the shared libraries from main.js itself instead of ~30 separate
    // chunks fetched after it runs: one request, one round trip less before first render.
    // Modules only its lazy parts use stay separate (exact keys win over prefix keys).
    for (const config of Object.values(shared)) config.eager = true;
    for (const key of app.eagerShared.except) shared[key] = { singleton: true, requiredVersion: false, eager: false };
  }
  const mode = process.env.NODE_ENV === 'development' ? 'development' : 'production';
  const prod = mode === 'production';

  /** @type {import('webpack').Configuration} */
  const config = {
    mode,
    context: app.dir,
    // A remote has no page of its own: its only entry is the federation container.
    entry: isShell ? { main: './src/index.ts' } : {},
    target: 'web',
    devtool: prod ? 'source-map' : 'eval-cheap-module-source-map',
    output: {
      path: path.join(app.dir, 'dist'),
      // The shell knows its own place; a remote learns where it was loaded from, so the
      // registry can point it at any origin without a rebuild.
      publicPath: isShell ? '/mfe/shell/' : 'auto',
      // Entry files keep plain names and are served no-cache; every other file is
      // content-hashed and immutable (enhanced cannot hash the entry filename).
      filename: '[name].js',
      chunkFilename: prod ? '[name].[contenthash:10].js' : '[name].js',
      assetModuleFilename: '[name].[contenthash:10][ext]',
      uniqueName: app.name,
      clean: true,
    },
    resolve: resolveOptions(),
    module: moduleOptions(prod),
    optimization: {
      minimizer: [new TerserPlugin({ extractComments: false, terserOptions: { format: { comments: false } } })],
      chunkIds: prod ? 'deterministic' : 'named',
      moduleIds: prod ? 'deterministic' : 'named',
      ...(isShell ? { splitChunks: SHELL_INITIAL_FILES } : {}),
    },
    performance: { hints: false },
    plugins: [
      new webpack.DefinePlugin({
        'process.env.NODE_ENV': JSON.stringify(mode),
        __APP_VERSION__: JSON.stringify(version),
      }),
      new ModuleFederationPlugin({
        name: app.name,
        filename: isShell ? undefined : 'remoteEntry.js',
        exposes: app.exposes,
        // The shell registers remotes at run time from /remotes.json: its build names none.
        remotes: {},
        shared,
        shareStrategy: 'loaded-first',
        runtimePlugins: [require.resolve('./yield-to-browser.js'), ...(app.runtimePlugins ?? [])],
        manifest: { fileName: 'mf-manifest.json' },
        dts: false,
        experiments: {
          // The shell provides the federation runtime once; remotes reuse it rather than
          // each shipping about 28 KB of it.
          ...(isShell ? { provideExternalRuntime: true } : { externalRuntime: true }),
          // Only the browser build of the runtime is needed.
          optimization: { target: 'web' },
        },
      }),
      shareNeighbours(app.dir),
      // Production only: its lists are not part of a module's hash, so a watching build's cache could keep a stale one.
      ...(prod ? [new RunInSlicesPlugin()] : []),
      ...(isShell ? [] : [new EmitRouteTablePlugin(path.join(app.dir, 'src/app/routes.json')), new EmitSharingPlugin(shared)]),
      ...(isShell && app.html
        ? [
            new HtmlWebpackPlugin({
              template: './src/index.html',
              title: app.html.title,
              scriptLoading: 'defer',
              inject: 'head',
              minify: prod ? { collapseWhitespace: true, removeComments: true, ignoreCustomComments: [/^bff:/], minifyCSS: true } : false,
            }),
            new StartAfterPaintPlugin(),
          ]
        : []),
      // Every text file gets a gzip copy; brotli at quality 11 only the files pages load: for the
      // source maps (about 30 MB in all, asked for by developer tools alone) it took a third of a
      // remote's build (the tools remote: 21 s, 14 s without).
      ...(prod
        ? [
            new CompressionPlugin({ filename: '[path][base].gz', algorithm: 'gzip', test: /\.(js|json|html|svg|css|map)$/, threshold: 512, minRatio: 0.9, compressionOptions: { level: 9 } }),
            new CompressionPlugin({
              filename: '[path][base].br',
              algorithm: 'brotliCompress',
              test: /\.(js|json|html|svg|css)$/,
              threshold: 512,
              minRatio: 0.9,
              compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
            }),
          ]
        : []),
    ],
  };
  return config;
}

/**
 * Runs one build and resolves with its stats summary; rejects with webpack's own
 * error text so a failed build says why.
 * @param {import('webpack').Configuration} config
 */
export function runWebpack(config) {
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error) return reject(error);
      if (!stats) return reject(new Error('webpack returned no stats'));
      if (stats.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true, errorDetails: true, colors: false })));
      resolve({
        assets: stats.compilation.getAssets().map((asset) => ({ name: asset.name, size: asset.source.size() })),
        warnings: stats.compilation.warnings.map((warning) => warning.message),
      });
    });
  });
}

/**
 * Builds again on every change (a remote team's development loop, scripts/dev-remote.mjs): calls
 * `onBuilt` after each build with webpack's error text, or null when the build succeeded.
 * @param {import('webpack').Configuration[]} configs
 * @param {(errors: string | null) => void} onBuilt
 */
export function watchWebpack(configs, onBuilt) {
  return webpack(configs).watch({ aggregateTimeout: 200 }, (error, stats) => {
    if (error) onBuilt(error.message);
    else onBuilt(stats?.hasErrors() ? stats.toString({ all: false, errors: true, colors: true }) : null);
  });
}

/**
 * The server build of an app (issue 14): the same sources as a CommonJS federation container for
 * Node, in `dist/server/` beside the browser build. The bff loads these containers at runtime, from
 * the same registry as the browser, and renders public pages with them: deploying one remote
 * changes its server rendering too, without a bff or shell release. Shared libraries are the same
 * keys as in the browser, none eager: the first container loaded (the shell's) provides React,
 * MUI and the rest, and the remotes use those instances. Not minified (Node does not download it).
 *
 * @param {{ name: string, dir: string, exposes: Record<string,string> }} app
 */
export function createServerAppConfig(app) {
  const { shared, version } = sharedConfig(app.dir);
  const mode = process.env.NODE_ENV === 'development' ? 'development' : 'production';
  const prod = mode === 'production';
  /** @type {import('webpack').Configuration} */
  return {
    mode,
    context: app.dir,
    entry: {},
    target: 'async-node',
    devtool: false,
    output: {
      path: path.join(app.dir, 'dist', 'server'),
      // Chunks are fetched relative to where the container was loaded from.
      publicPath: 'auto',
      filename: '[name].js',
      chunkFilename: '[name].[contenthash:10].js',
      uniqueName: `${app.name}_server`,
      clean: true,
    },
    resolve: resolveOptions(),
    module: moduleOptions(prod),
    optimization: { minimize: false, chunkIds: 'deterministic', moduleIds: 'deterministic' },
    performance: { hints: false },
    plugins: [
      new webpack.DefinePlugin({
        'process.env.NODE_ENV': JSON.stringify(mode),
        __APP_VERSION__: JSON.stringify(version),
      }),
      new ModuleFederationPlugin({
        name: app.name,
        filename: 'remoteEntry.js',
        exposes: app.exposes,
        library: { type: 'commonjs-module' },
        remoteType: 'script',
        remotes: {},
        shared,
        // Loads the container's chunks in Node (over HTTP, from where the container came).
        runtimePlugins: [require.resolve('@module-federation/node/runtimePlugin')],
        manifest: false,
        dts: false,
      }),
      shareNeighbours(app.dir),
    ],
  };
}
