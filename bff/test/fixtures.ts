import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { REMOTE_NAMES, type RemoteName } from '@bimi/contracts/remote-modules';
import { loadConfig } from '../src/config';

export const SHELL_CHUNK = 'main.0a1b2c3d4e.js';

/** A small route table per remote, covering plain segments, :params, a final * and a route that only forwards. */
export const FIXTURE_ROUTES: Record<RemoteName, { path: string; title: string; layout: string; description?: string; redirectTo?: string; query?: string[] }[]> = {
  storefront: [
    { path: '/', title: 'Home', layout: 'public' },
    { path: '/faq', title: 'FAQ & <answers>', layout: 'public', description: 'Questions "answered"', query: ['topic', 'edit'] },
    { path: '/landing/*', title: 'Landing', layout: 'landing' },
  ],
  checkout: [{ path: '/checkout', title: 'Checkout', layout: 'checkout' }],
  account: [
    { path: '/account', title: 'Account', layout: 'account', redirectTo: '/account/monitors/example.com' },
    { path: '/account/monitors/:domain', title: 'Monitor', layout: 'account' },
    { path: '/auth/signin', title: 'Sign in', layout: 'auth' },
  ],
  tools: [{ path: '/account/tools/*', title: 'Tools', layout: 'account' }],
};

export function shellTemplate(head = '<!--bff:inject-->'): string {
  // Long enough that the page is worth compressing.
  const filler = '<p>The BIMI store loads here.</p>\n'.repeat(60);
  return `<!doctype html><html><head><meta charset="utf-8"><title>BIMI store</title><meta name=description content="The default description">${head}</head><body><div id="root">${filler}</div><script defer src="/mfe/shell/main.js"></script></body></html>`;
}

function writeWithCompressedSiblings(folder: string, name: string, content: string): void {
  writeFileSync(join(folder, name), content);
  writeFileSync(join(folder, `${name}.br`), brotliCompressSync(content));
  writeFileSync(join(folder, `${name}.gz`), gzipSync(content));
}

export function writeRoutes(rootDir: string, remote: RemoteName, routes: unknown): void {
  writeFileSync(join(rootDir, `mfe-${remote}`, 'dist', 'routes.json'), JSON.stringify(routes));
}

/** A remote's sharing.json (packages/webpack-config): the cart as a strict singleton. */
export const FIXTURE_SHARING = { singletons: { '@bimi/cart/': '^1.0.0' } };

/** The part of a remote's mf-manifest.json the registry reads: its name, version, exposed modules and shared modules. */
export function fixtureManifest(remote: string, version: string, shared: Array<{ name: string; version: string; requiredVersion?: string }> = []) {
  return { id: remote, name: remote, metaData: { buildInfo: { buildVersion: version } }, exposes: [{ path: './routes' }], shared };
}

/** A workspace root holding small but real builds of the shell and the four remotes. */
export function createFakeRoot(options: { withShell?: boolean; remotes?: readonly RemoteName[] } = {}): string {
  const rootDir = mkdtempSync(join(tmpdir(), 'bff-root-'));
  if (options.withShell !== false) {
    const shell = join(rootDir, 'shell', 'dist');
    mkdirSync(shell, { recursive: true });
    writeFileSync(join(shell, 'index.html'), shellTemplate());
    writeWithCompressedSiblings(shell, 'main.js', `import('./${SHELL_CHUNK}');\n`);
    writeWithCompressedSiblings(shell, SHELL_CHUNK, `export const shell = ${JSON.stringify('x'.repeat(400))};\n`);
  }
  for (const remote of options.remotes ?? REMOTE_NAMES) {
    const dist = join(rootDir, `mfe-${remote}`, 'dist');
    mkdirSync(dist, { recursive: true });
    writeWithCompressedSiblings(dist, 'remoteEntry.js', `var ${remote} = {};\n`);
    writeWithCompressedSiblings(dist, `123.abcdef0123.js`, `// ${remote} chunk\n`);
    writeFileSync(join(dist, 'mf-manifest.json'), JSON.stringify(fixtureManifest(remote, `2.0.${REMOTE_NAMES.indexOf(remote)}`)));
    writeFileSync(join(dist, 'sharing.json'), JSON.stringify(FIXTURE_SHARING));
    writeRoutes(rootDir, remote, { remote, routes: FIXTURE_ROUTES[remote] });
  }
  return rootDir;
}

/** Collects the app's JSON log lines so tests can read what it logged. */
export class LogLines extends Writable {
  readonly entries: { level: number; msg: string; [key: string]: unknown }[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString().split('\n').filter(Boolean)) this.entries.push(JSON.parse(line));
    done();
  }
  messages(minimumLevel = 0): string[] {
    return this.entries.filter((entry) => entry.level >= minimumLevel).map((entry) => entry.msg);
  }
}

export interface TestStore {
  app: FastifyInstance;
  rootDir: string;
  dataDir: string;
  logs: LogLines;
  cleanUp(): Promise<void>;
}

/** Builds the bff over a fake root and a fresh SQLite database in a temp folder. */
export async function startTestStore(env: NodeJS.ProcessEnv = {}, rootDir = createFakeRoot()): Promise<TestStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bff-data-'));
  const logs = new LogLines();
  const config = loadConfig({ ROOT_DIR: rootDir, DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: 'test', ...env });
  const app = await buildApp(config, { logStream: logs });
  return {
    app,
    rootDir,
    dataDir,
    logs,
    async cleanUp() {
      await app.close();
      rmSync(rootDir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The bff's server rendering (plugins/app/pages/server-render.ts) with a hand-written federation
 * container in place of the shell's server build: `renderPage` does what `body` says (`head`: the
 * template's head, as shellTemplate takes it). The real
 * builds are rendered in the e2e flow server-rendering.spec.ts.
 */
export function rootWithShellServerBuild(body: string, head?: string): string {
  const rootDir = createFakeRoot();
  // The root as the shell's template has it: empty but for the notice.
  writeFileSync(
    join(rootDir, 'shell', 'dist', 'index.html'),
    shellTemplate(head).replace(/<div id="root">[\s\S]*?<\/div>/, '<div id="root"><noscript>This site needs JavaScript to run.</noscript></div>'),
  );
  const folder = join(rootDir, 'shell', 'dist', 'server');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'remoteEntry.js'),
    `let renders = 0;
module.exports = {
  init() {},
  get(expose) {
    if (expose !== './render') return Promise.reject(new Error('no ' + expose));
    return Promise.resolve(() => ({ async renderPage(request) { renders += 1; ${body} } }));
  },
};
`,
  );
  return rootDir;
}
