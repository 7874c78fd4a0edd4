#!/usr/bin/env node
// The bff's production server build (issue 16): `node scripts/build-bff.mjs` compiles
// bff/src/server.ts into bff/dist/server.js (CommonJS, Node 20) and the untrusted-files worker
// into bff/dist/worker.cjs, which `npm start` runs with plain Node; tsx stays for development and
// the tests. The workspace packages (@bimi/*, TypeScript sources) and the packages only they
// depend on are bundled in; the bff's own dependencies stay in node_modules, required at run time
// (native addons, files read beside their code, worker threads of their own).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
const BFF = path.join(ROOT, 'bff');
const OUT = path.join(BFF, 'dist');
const { dependencies } = JSON.parse(readFileSync(path.join(BFF, 'package.json'), 'utf8'));

/** `pkg/sub/path` → `pkg`, `@scope/pkg/sub` → `@scope/pkg`. */
const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The bff's own dependencies stay outside the bundle; everything else it reaches (the workspace packages and their dependencies) is bundled. */
const bffDependenciesExternal = {
  name: 'bff-dependencies-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { external: true };
      const name = packageName(args.path);
      if (name.startsWith('@bimi/')) return undefined;
      return Object.hasOwn(dependencies, name) ? { external: true } : undefined;
    });
  },
};

/** The untrusted-files worker threads' entry, beside server.js (untrusted-files.ts reads the name). */
const WORKER_ENTRY = 'worker.cjs';

/** The fields every output shares. */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [bffDependenciesExternal],
  // Ours is TypeScript with `.js` import suffixes (NodeNext); esbuild resolves them to the .ts files.
  resolveExtensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
};

/** Builds both outputs and answers how big they are. */
export async function buildBff() {
  // Loaded here, not at import: the bootstrap scripts import this file before the install.
  const esbuild = createRequire(path.join(BFF, 'package.json'))('esbuild');
  const server = await esbuild.build({
    ...common,
    entryPoints: { server: path.join(BFF, 'src/server.ts') },
    outdir: OUT,
    format: 'cjs',
    define: { __BFF_WORKER_ENTRY__: JSON.stringify(WORKER_ENTRY) },
    metafile: true,
  });
  const worker = await esbuild.build({
    ...common,
    entryPoints: { [path.basename(WORKER_ENTRY, '.cjs')]: path.join(BFF, 'src/services/untrusted-files/worker-thread.ts') },
    outdir: OUT,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    metafile: true,
  });
  const bytes = (result) => Object.values(result.metafile.outputs).reduce((sum, output) => sum + (output.bytes ?? 0), 0);
  return { serverBytes: bytes(server), workerBytes: bytes(worker) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = Date.now();
  const { serverBytes, workerBytes } = await buildBff();
  console.log(
    `bff built in ${((Date.now() - started) / 1000).toFixed(1)} s: dist/server.js and dist/${WORKER_ENTRY} (${Math.round((serverBytes + workerBytes) / 1024)} KB with source maps)`,
  );
}
