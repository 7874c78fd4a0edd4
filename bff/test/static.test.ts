import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { createFakeRoot, SHELL_CHUNK, startTestStore, type TestStore } from './fixtures';

describe('build outputs under /mfe', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await startTestStore();
  });
  afterAll(() => store.cleanUp());

  it('caches content-hashed chunks for a year and as immutable', async () => {
    const response = await store.app.inject({ url: `/mfe/shell/${SHELL_CHUNK}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-type']).toMatch(/javascript/);
  });

  it.each(['/mfe/storefront/remoteEntry.js', '/mfe/storefront/mf-manifest.json', '/mfe/tools/routes.json', '/mfe/shell/main.js'])(
    'makes browsers revalidate the entry file %s',
    async (url) => {
      const response = await store.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
    },
  );

  it('sends the brotli sibling to a client that accepts br', async () => {
    const response = await store.app.inject({ url: '/mfe/checkout/123.abcdef0123.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe('// checkout chunk\n');
  });

  it('sends the gzip sibling to a client that accepts only gzip', async () => {
    const response = await store.app.inject({ url: '/mfe/checkout/remoteEntry.js', headers: { 'accept-encoding': 'gzip' } });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(response.rawPayload).toString()).toBe('var checkout = {};\n');
  });

  it('sends the plain file to a client that accepts no compression', async () => {
    const response = await store.app.inject({ url: '/mfe/checkout/remoteEntry.js', headers: { 'accept-encoding': 'identity' } });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe('var checkout = {};\n');
  });

  it('lets a shell on another origin fetch manifests and run chunks', async () => {
    const response = await store.app.inject({ url: '/mfe/account/mf-manifest.json' });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('keeps same-origin resource policy outside /mfe', async () => {
    const response = await store.app.inject({ url: '/api/health' });
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('answers 404 for a file that is not in the build', async () => {
    const response = await store.app.inject({ url: '/mfe/storefront/999.0000000000.js' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found' });
  });

  it('does not list folders or serve dotfiles', async () => {
    writeFileSync(join(store.rootDir, 'mfe-storefront', 'dist', '.env'), 'SECRET=1');
    const folder = await store.app.inject({ url: '/mfe/storefront/' });
    expect([403, 404]).toContain(folder.statusCode);
    expect(folder.body).not.toContain('remoteEntry');
    expect((await store.app.inject({ url: '/mfe/storefront/.env' })).statusCode).toBe(404);
  });

  it('serves a redeployed entry file at once, without a restart', async () => {
    const dist = join(store.rootDir, 'mfe-tools', 'dist');
    writeFileSync(join(dist, '456.fedcba9876.js'), '// new tools chunk\n');
    writeFileSync(join(dist, 'remoteEntry.js.next'), 'var tools = { version: 2 };\n');
    for (const sibling of ['.br', '.gz']) rmSync(join(dist, `remoteEntry.js${sibling}`));
    renameSync(join(dist, 'remoteEntry.js.next'), join(dist, 'remoteEntry.js'));

    expect((await store.app.inject({ url: '/mfe/tools/remoteEntry.js', headers: { 'accept-encoding': 'br' } })).body).toBe('var tools = { version: 2 };\n');
    expect((await store.app.inject({ url: '/mfe/tools/456.fedcba9876.js' })).body).toBe('// new tools chunk\n');
  });
});

describe('a remote that is not built yet', () => {
  it('starts anyway, warns, and answers 404 for its files', async () => {
    const store = await startTestStore({}, createFakeRoot({ remotes: ['storefront', 'checkout', 'account'] }));
    try {
      const response = await store.app.inject({ url: '/mfe/tools/remoteEntry.js' });
      expect(response.statusCode).toBe(404);
      expect(store.logs.messages(40)).toEqual(expect.arrayContaining([expect.stringMatching(/^tools build not found at .*mfe-tools/)]));
      expect((await store.app.inject({ url: '/mfe/checkout/remoteEntry.js' })).statusCode).toBe(200);
    } finally {
      await store.cleanUp();
    }
  });
});

describe('source maps and server builds (issue 31)', () => {
  const stores: TestStore[] = [];
  afterAll(async () => {
    for (const one of stores) await one.cleanUp();
  });

  /** A root whose shell build has a map beside its chunk (with a gzip sibling) and a server build. */
  function rootWithMapsAndServerBuild(): string {
    const rootDir = createFakeRoot();
    const shell = join(rootDir, 'shell', 'dist');
    writeFileSync(join(shell, 'main.js.map'), '{"version":3,"sources":["src/secret-source.tsx"]}');
    writeFileSync(join(shell, 'main.js.map.gz'), gzipSync('{"version":3}'));
    mkdirSync(join(shell, 'server'), { recursive: true });
    writeFileSync(join(shell, 'server', 'remoteEntry.js'), 'module.exports = { secret: true };\n');
    writeFileSync(join(shell, 'server', 'render.js.map'), '{}');
    return rootDir;
  }

  it('serves neither by default, under any spelling, and the scripts still', async () => {
    const store = await startTestStore({}, rootWithMapsAndServerBuild());
    stores.push(store);
    for (const url of [
      '/mfe/shell/main.js.map',
      '/mfe/shell/MAIN.JS.MAP',
      '/mfe/shell/server/remoteEntry.js',
      '/mfe/shell/%73erver/remoteEntry.js',
      '/mfe/shell/./server/remoteEntry.js',
      '/mfe/shell/x/../server/remoteEntry.js',
      '/mfe/shell//server/remoteEntry.js',
      '/mfe/shell/server/render.js.map',
    ]) {
      const answer = await store.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      // 404, or 403 for a path @fastify/static refuses as not canonical (`//`): never the file.
      expect({ url, refused: [403, 404].includes(answer.statusCode) }).toEqual({ url, refused: true });
      expect(answer.body).not.toContain('secret');
    }
    expect((await store.app.inject({ url: '/mfe/shell/main.js' })).statusCode).toBe(200);
  });

  it('serves the maps, never the server builds, with SERVE_SOURCE_MAPS=true', async () => {
    const store = await startTestStore({ SERVE_SOURCE_MAPS: 'true' }, rootWithMapsAndServerBuild());
    stores.push(store);
    const map = await store.app.inject({ url: '/mfe/shell/main.js.map', headers: { 'accept-encoding': 'identity' } });
    expect(map.statusCode).toBe(200);
    expect(map.body).toContain('secret-source');
    expect((await store.app.inject({ url: '/mfe/shell/server/remoteEntry.js' })).statusCode).toBe(404);
  });
});
