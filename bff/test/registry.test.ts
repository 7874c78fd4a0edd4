import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Registry } from '@bimi/contracts/registry';
import { FIXTURE_ROUTES, startTestStore, writeRoutes, type TestStore } from './fixtures';

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
        response.end(JSON.stringify({ metaData: { buildInfo: { buildVersion: '7.0.0' } } }));
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
