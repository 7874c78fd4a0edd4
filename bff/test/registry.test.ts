import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Registry } from '@bimi/contracts/registry';
import { createFakeRoot, FIXTURE_ROUTES, FIXTURE_SHARING, fixtureManifest, startTestStore, writeRoutes, type TestStore } from './fixtures';

describe('GET /remotes.json', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await startTestStore();
  });
  afterAll(() => store.cleanUp());

  it('lists the four remotes with their manifests, versions and routes', async () => {
    const response = await store.app.inject({ url: '/remotes.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    const registry = Registry.parse(response.json());
    expect(registry.remotes.map((remote) => remote.name)).toEqual(['storefront', 'checkout', 'account', 'tools']);
    const account = registry.remotes.find((remote) => remote.name === 'account');
    expect(account).toEqual({
      name: 'account',
      entry: '/mfe/account/mf-manifest.json',
      version: '2.0.2',
      routes: FIXTURE_ROUTES.account.map((route) => ({ ...route, header: 'fade' })),
    });
  });

  it('sees a redeployed routes.json without a restart', async () => {
    const routes = [...FIXTURE_ROUTES.checkout, { path: '/checkout/success', title: 'Thank you', layout: 'checkout' }];
    // As the deploy script does it: the new file is written beside the old one, then renamed over it.
    const dist = join(store.rootDir, 'mfe-checkout', 'dist');
    writeFileSync(join(dist, 'routes.json.next'), JSON.stringify({ remote: 'checkout', routes }));
    renameSync(join(dist, 'routes.json.next'), join(dist, 'routes.json'));

    const registry = Registry.parse((await store.app.inject({ url: '/remotes.json' })).json());
    expect(registry.remotes.find((remote) => remote.name === 'checkout')?.routes.map((route) => route.path)).toEqual(['/checkout', '/checkout/success']);
    expect((await store.app.inject({ url: '/checkout/success' })).statusCode).toBe(200);
  });

  it('gives a remote with an invalid routes.json no routes, and warns', async () => {
    writeRoutes(store.rootDir, 'tools', { remote: 'tools', routes: [{ path: 'no-leading-slash', title: 'Bad', layout: 'public' }] });
    const registry = Registry.parse((await store.app.inject({ url: '/remotes.json' })).json());
    expect(registry.remotes.find((remote) => remote.name === 'tools')?.routes).toEqual([]);
    expect(store.logs.messages(40)).toEqual(expect.arrayContaining([expect.stringMatching(/^remote tools: routes\.json .* is unusable/)]));
  });

  it('gives a remote whose routes.json is not JSON no routes', async () => {
    writeFileSync(join(store.rootDir, 'mfe-tools', 'dist', 'routes.json'), '{ not json');
    const response = await store.app.inject({ url: '/remotes.json' });
    expect(response.statusCode).toBe(200);
    expect(Registry.parse(response.json()).remotes.find((remote) => remote.name === 'tools')?.routes).toEqual([]);
  });

  it('gives a remote without routes.json or manifest no routes and no version', async () => {
    rmSync(join(store.rootDir, 'mfe-storefront', 'dist', 'routes.json'));
    rmSync(join(store.rootDir, 'mfe-storefront', 'dist', 'mf-manifest.json'));
    const registry = Registry.parse((await store.app.inject({ url: '/remotes.json' })).json());
    expect(registry.remotes.find((remote) => remote.name === 'storefront')).toEqual({
      name: 'storefront',
      entry: '/mfe/storefront/mf-manifest.json',
      routes: [],
    });
    expect(store.logs.messages(40)).toEqual(expect.arrayContaining([expect.stringMatching(/^remote storefront: no routes\.json/)]));
  });
});

describe('a remote hosted on another origin', () => {
  let host: Server;
  let hostUrl: string;
  let served: { routes: unknown; hits: number };

  beforeAll(async () => {
    served = { routes: { remote: 'tools', routes: [{ path: '/bimi-checker', title: 'BIMI checker', layout: 'public' }] }, hits: 0 };
    host = createServer((request, response) => {
      if (request.url === '/tools/v7/routes.json') {
        served.hits += 1;
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(served.routes));
      } else if (request.url === '/tools/v7/mf-manifest.json') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(fixtureManifest('tools', '7.0.0')));
      } else if (request.url === '/tools/v7/sharing.json') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(FIXTURE_SHARING));
      } else {
        response.statusCode = 404;
        response.end();
      }
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => host.close(() => resolve())));

  it('points the registry at its manifest and fetches its routes once per cache period', async () => {
    const store = await startTestStore({ REMOTE_TOOLS_URL: `${hostUrl}/tools/v7/` });
    try {
      const registry = Registry.parse((await store.app.inject({ url: '/remotes.json' })).json());
      expect(registry.remotes.find((remote) => remote.name === 'tools')).toEqual({
        name: 'tools',
        entry: `${hostUrl}/tools/v7/mf-manifest.json`,
        version: '7.0.0',
        routes: [{ path: '/bimi-checker', title: 'BIMI checker', layout: 'public', header: 'fade' }],
      });
      expect((await store.app.inject({ url: '/bimi-checker' })).statusCode).toBe(200);

      served.routes = { remote: 'tools', routes: [{ path: '/dmarc-inspector', title: 'DMARC inspector', layout: 'public' }] };
      const cached = Registry.parse((await store.app.inject({ url: '/remotes.json' })).json());
      expect(cached.remotes.find((remote) => remote.name === 'tools')?.routes.map((route) => route.path)).toEqual(['/bimi-checker']);
      expect(served.hits).toBe(1);
    } finally {
      await store.cleanUp();
    }
  });

  it('gives the remote no routes, with a warning, when its host does not answer', async () => {
    const store = await startTestStore({ REMOTE_TOOLS_URL: 'http://127.0.0.1:9/tools/' });
    try {
      const response = await store.app.inject({ url: '/remotes.json' });
      expect(response.statusCode).toBe(200);
      const tools = Registry.parse(response.json()).remotes.find((remote) => remote.name === 'tools');
      expect(tools).toEqual({ name: 'tools', entry: 'http://127.0.0.1:9/tools/mf-manifest.json', routes: [] });
      expect(store.logs.messages(40)).toEqual(expect.arrayContaining([expect.stringMatching(/^remote tools: routes\.json at http:\/\/127\.0\.0\.1:9\/tools\/routes\.json is unusable/)]));
    } finally {
      await store.cleanUp();
    }
  });
});

describe('remotes from configuration, admitted by their builds', () => {
  /** A build of `name` in the fake root: its manifest, routes.json and sharing.json (none when null). */
  function writeRemote(rootDir: string, name: string, build: { routes: Array<{ path: string; title: string; layout: string }>; manifest?: object; sharing?: object | null }) {
    const dist = join(rootDir, `mfe-${name}`, 'dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, 'remoteEntry.js'), `var ${name} = {};\n`);
    writeFileSync(join(dist, 'mf-manifest.json'), JSON.stringify(build.manifest ?? fixtureManifest(name, '1.0.0')));
    writeFileSync(join(dist, 'routes.json'), JSON.stringify({ remote: name, routes: build.routes }));
    if (build.sharing !== null) writeFileSync(join(dist, 'sharing.json'), JSON.stringify(build.sharing ?? FIXTURE_SHARING));
  }
  const configFile = (rootDir: string, remotes: unknown[]) => {
    const file = join(rootDir, 'remotes.json');
    writeFileSync(file, JSON.stringify({ remotes }));
    return file;
  };
  const routesOf = async (store: TestStore, name: string) =>
    Registry.parse((await store.app.inject({ url: '/remotes.json' })).json())
      .remotes.find((remote) => remote.name === name)
      ?.routes.map((route) => route.path);

  it('adds a fifth remote by configuration alone: its pages answer and its files are served', async () => {
    const rootDir = createFakeRoot();
    writeRemote(rootDir, 'partners', {
      routes: [
        { path: '/partners', title: 'Partners', layout: 'public' },
        { path: '/partners/apply', title: 'Apply', layout: 'public' },
      ],
    });
    const store = await startTestStore({ REMOTES_CONFIG: configFile(rootDir, [{ name: 'storefront' }, { name: 'partners', prefixes: ['/partners'] }]) }, rootDir);
    try {
      const registry = Registry.parse((await store.app.inject({ url: '/remotes.json' })).json());
      expect(registry.remotes.map((remote) => remote.name)).toEqual(['storefront', 'partners']);
      expect(await routesOf(store, 'partners')).toEqual(['/partners', '/partners/apply']);
      expect((await store.app.inject({ url: '/partners/apply' })).statusCode).toBe(200);
      expect((await store.app.inject({ url: '/mfe/partners/remoteEntry.js' })).statusCode).toBe(200);
      // Not configured, so not composed: the checkout's page is not found.
      expect((await store.app.inject({ url: '/checkout' })).statusCode).toBe(404);
    } finally {
      await store.cleanUp();
    }
  });

  it.each([
    [
      'a route outside its prefixes',
      {
        routes: [
          { path: '/partners', title: 'Partners', layout: 'public' },
          { path: '/pricing', title: 'Pricing', layout: 'public' },
        ],
      },
      /its route \/pricing is outside its prefixes \(\/partners\)/,
    ],
    ['a path another remote owns', { routes: [{ path: '/faq', title: 'FAQ', layout: 'public' }] }, /its route \/faq is already storefront's/],
    [
      'no ./routes exposed',
      { routes: [{ path: '/partners', title: 'Partners', layout: 'public' }], manifest: { ...fixtureManifest('partners', '1.0.0'), exposes: [{ path: './Widget' }] } },
      /it does not expose \.\/routes/,
    ],
    [
      'a build of another remote',
      { routes: [{ path: '/partners', title: 'Partners', layout: 'public' }], manifest: fixtureManifest('storefront', '1.0.0') },
      /its manifest is the build of "storefront", not of "partners"/,
    ],
    [
      'a newer cart than the shell provides',
      {
        routes: [{ path: '/partners', title: 'Partners', layout: 'public' }],
        manifest: fixtureManifest('partners', '1.0.0', [{ name: '@bimi/cart/store', version: '2.0.0', requiredVersion: '^2.0.0' }]),
        sharing: { singletons: { '@bimi/cart': '^2.0.0', '@bimi/cart/': '^2.0.0' } },
      },
      /it needs @bimi\/cart\/store \^2\.0\.0, and the shell provides 1\.0\.0/,
    ],
    ['no sharing.json', { routes: [{ path: '/partners', title: 'Partners', layout: 'public' }], sharing: null }, /its sharing\.json at .* is missing: what it shares cannot be checked/],
    [
      'a newer major of a singleton package, even of a module it does not import',
      { routes: [{ path: '/partners', title: 'Partners', layout: 'public' }], sharing: { singletons: { '@bimi/cart/': '^2.0.0' } } },
      /it needs @bimi\/cart\/store \^2\.0\.0, and the shell provides 1\.0\.0/,
    ],
  ])('refuses a remote with %s: it owns no routes, and the reason is logged', async (_case, build, reason) => {
    const rootDir = createFakeRoot();
    writeFileSync(join(rootDir, 'shell', 'dist', 'mf-manifest.json'), JSON.stringify(fixtureManifest('shell', '1.0.0', [{ name: '@bimi/cart/store', version: '1.0.0' }])));
    writeRemote(rootDir, 'partners', build);
    const store = await startTestStore({ REMOTES_CONFIG: configFile(rootDir, [{ name: 'storefront' }, { name: 'partners', prefixes: ['/partners'] }]) }, rootDir);
    try {
      expect(await routesOf(store, 'partners')).toEqual([]);
      expect(await routesOf(store, 'storefront')).toEqual(FIXTURE_ROUTES.storefront.map((route) => route.path));
      expect((await store.app.inject({ url: '/partners' })).statusCode).toBe(404);
      const refusals = store.logs.messages(40).filter((message) => message.startsWith('remote partners: refused, it owns no routes: '));
      expect(refusals).toHaveLength(1);
      expect(refusals[0]).toMatch(reason);
      // Logged once, not on every request.
      await store.app.inject({ url: '/remotes.json' });
      expect(store.logs.messages(40).filter((message) => message.startsWith('remote partners: refused'))).toHaveLength(1);
    } finally {
      await store.cleanUp();
    }
  });

  it('admits the same build once the shell provides what it needs', async () => {
    const rootDir = createFakeRoot();
    const shellManifest = join(rootDir, 'shell', 'dist', 'mf-manifest.json');
    writeFileSync(shellManifest, JSON.stringify(fixtureManifest('shell', '1.0.0', [{ name: '@bimi/cart/store', version: '1.0.0' }])));
    writeRemote(rootDir, 'partners', {
      routes: [{ path: '/partners', title: 'Partners', layout: 'public' }],
      manifest: fixtureManifest('partners', '1.0.0', [{ name: '@bimi/cart/store', version: '2.0.0', requiredVersion: '^2.0.0' }]),
      sharing: { singletons: { '@bimi/cart/': '^2.0.0' } },
    });
    const store = await startTestStore({ REMOTES_CONFIG: configFile(rootDir, [{ name: 'partners' }]) }, rootDir);
    try {
      expect(await routesOf(store, 'partners')).toEqual([]);
      writeFileSync(`${shellManifest}.next`, JSON.stringify(fixtureManifest('shell', '1.1.0', [{ name: '@bimi/cart/store', version: '2.1.0' }])));
      renameSync(`${shellManifest}.next`, shellManifest);
      expect(await routesOf(store, 'partners')).toEqual(['/partners']);
    } finally {
      await store.cleanUp();
    }
  });
});
