import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { PublicConfig } from '@bimi/contracts/public-config';
import { Registry, RemoteRoute } from '@bimi/contracts/registry';
import { injectPageData } from '../src/plugins/app/pages/shell-page';
import { createFakeRoot, shellTemplate, startTestStore, writeRoutes, type TestStore } from './fixtures';

/** The JSON inside `<script id="…" type="application/json">` of a page. */
function embeddedJson(html: string, id: string): unknown {
  const match = new RegExp(`<script id="${id}" type="application/json">(.*?)</script>`).exec(html);
  if (!match?.[1]) throw new Error(`no ${id} script in the page`);
  return JSON.parse(match[1]);
}

describe('client routes', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await startTestStore();
  });
  afterAll(() => store.cleanUp());

  it.each([
    ['/', 'the home page'],
    ['/faq', 'a plain route'],
    ['/faq/', 'a plain route with a trailing slash'],
    ['/account/monitors/example.com', 'a :param route'],
    ['/landing/entrust-to-digicert', 'a * route, one level down'],
    ['/landing/entrust-to-digicert/vmc/step-2', 'a * route, several levels down'],
    ['/landing', 'a * route, nothing after the prefix'],
    ['/account/tools/spf-lookup?domain=example.com', 'a route with a query string'],
  ])('serves the shell with 200 for %s (%s)', async (url) => {
    const response = await store.app.inject({ url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<div id="root">');
  });

  it.each([
    ['/no-such-page', 'an unknown path'],
    ['/faq/extra', 'a plain route with an extra segment'],
    ['/account/monitors', 'a :param route without its parameter'],
    ['/account/monitors/example.com/history', 'a :param route with an extra segment'],
    ['/products', 'a path nobody owns'],
  ])('serves the shell with 404 for %s (%s), so the shell shows its not-found page', async (url) => {
    const response = await store.app.inject({ url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<div id="root">');
  });

  it.each([
    ['/account', '/account/monitors/example.com'],
    ['/account/', '/account/monitors/example.com'],
    ['/account?tab=1&x=%20', '/account/monitors/example.com?tab=1&x=%20'],
    ['/account?é=ü', '/account/monitors/example.com?%C3%A9=%C3%BC'],
  ])('answers a route that only forwards (%s) with a redirect to where its routes.json says, the query kept', async (url, location) => {
    const response = await store.app.inject({ url });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(location);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('refuses a route table whose route forwards anywhere but a page of the site', () => {
    const refused = ['//evil.example/', 'https://evil.example/', '/account/:id', '/a/../b', '/a/.', 'account', '/a b'].filter(
      (redirectTo) => RemoteRoute.safeParse({ path: '/account', title: 'Account', layout: 'account', redirectTo }).success === false,
    );
    expect(refused).toHaveLength(7);
    expect(RemoteRoute.safeParse({ path: '/account', title: 'Account', layout: 'account', redirectTo: '/account/dashboard' }).success).toBe(true);
  });

  it("puts the route's title and description in the head, escaped, before any script runs", async () => {
    const page = (await store.app.inject({ url: '/faq' })).body;
    expect(page).toContain('<title>FAQ &amp; &lt;answers&gt; | BIMI Store</title>');
    expect(page).toContain('<meta name=description content="Questions &quot;answered&quot;">');
    const home = (await store.app.inject({ url: '/' })).body;
    expect(home).toContain('<title>Home | BIMI Store</title>');
    expect(home).toContain('content="The default description"');
    expect((await store.app.inject({ url: '/no-such-page' })).body).toContain('<title>Page not found | BIMI Store</title>');
  });

  it('gives a public page its canonical URL and Open Graph tags, and keeps the account area and a missing page out of search engines', async () => {
    const page = (await store.app.inject({ url: '/faq?utm_source=mail' })).body;
    const base = /<link rel="canonical" href="(http[^"]+)\/faq">/.exec(page)?.[1];
    expect(base).toMatch(/^http:\/\/(localhost|127\.0\.0\.1):\d+$/);
    expect(page).toContain(`<meta property="og:url" content="${base}/faq">`);
    expect(page).toContain('<meta property="og:title" content="FAQ &amp; &lt;answers&gt;">');
    expect(page).toContain('<meta property="og:description" content="Questions &quot;answered&quot;">');
    expect(page).toContain('<meta property="og:site_name" content="BIMI Store">');
    expect(page).not.toContain('noindex');
    expect((await store.app.inject({ url: '/faq/' })).body).toContain(`<link rel="canonical" href="${base}/faq">`);
    for (const url of ['/account/monitors/example.com', '/no-such-page']) {
      const hidden = (await store.app.inject({ url })).body;
      expect(hidden).toContain('<meta name="robots" content="noindex">');
      expect(hidden).not.toContain('rel="canonical"');
      expect(hidden).not.toContain('og:title');
    }
  });

  it("announces the owning remote's manifest and entry in the head, so they load in parallel with the shell", async () => {
    const page = (await store.app.inject({ url: '/checkout' })).body;
    expect(page).toContain('<link rel="preload" href="/mfe/checkout/mf-manifest.json" as="fetch" crossorigin="anonymous">');
    expect(page).toContain('<link rel="preload" href="/mfe/checkout/remoteEntry.js" as="script">');
    expect(page).not.toContain('/mfe/storefront/mf-manifest.json" as="fetch"');
    expect((await store.app.inject({ url: '/no-such-page' })).body).not.toContain('rel="preload"');
  });

  it("announces none of the remote's files for a static page: the browser keeps its markup and loads none of them", async () => {
    const routes = (isStatic: boolean) => ({ remote: 'checkout', routes: [{ path: '/checkout', title: 'Checkout', layout: 'checkout' as const, static: isStatic }] });
    writeRoutes(store.rootDir, 'checkout', routes(true));
    try {
      expect((await store.app.inject({ url: '/checkout' })).body).not.toContain('rel="preload"');
    } finally {
      writeRoutes(store.rootDir, 'checkout', routes(false));
    }
    expect((await store.app.inject({ url: '/checkout' })).body).toContain('<link rel="preload" href="/mfe/checkout/remoteEntry.js" as="script">');
  });

  it('answers a missing file with a plain 404, not the page', async () => {
    const response = await store.app.inject({ url: '/favicon.ico' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found' });
  });

  it('embeds the registry and the public config in place of the placeholder', async () => {
    const response = await store.app.inject({ url: '/faq' });
    expect(response.body).not.toContain('<!--bff:inject-->');
    const registry = Registry.parse(embeddedJson(response.body, 'remote-registry'));
    expect(registry.remotes.map((remote) => remote.name)).toEqual(['storefront', 'checkout', 'account', 'tools']);
    expect(PublicConfig.parse(embeddedJson(response.body, 'public-config'))).toEqual({ newsletterUrl: '/api/newsletter/subscribe', tagManagerId: null, priceSettings: {} });
    expect(response.body.indexOf('id="remote-registry"')).toBeLessThan(response.body.indexOf('</head>'));
  });

  it('escapes the embedded JSON so a route title cannot close the script element', async () => {
    const title = '</script><script>alert(1)</script><!-- & $& \u2028';
    writeRoutes(store.rootDir, 'checkout', { remote: 'checkout', routes: [{ path: '/checkout', title, layout: 'checkout' }] });
    const response = await store.app.inject({ url: '/checkout' });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('<script>alert(1)');
    expect(response.body).not.toContain('<!-- &');
    expect(response.body).toContain('\\u003c/script\\u003e\\u003cscript\\u003ealert(1)');
    const registry = Registry.parse(embeddedJson(response.body, 'remote-registry'));
    expect(registry.remotes.find((remote) => remote.name === 'checkout')?.routes[0]?.title).toBe(title);
  });

  it('compresses the page with brotli or gzip as the client accepts', async () => {
    const plain = await store.app.inject({ url: '/faq', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();

    const br = await store.app.inject({ url: '/faq', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);

    const gzip = await store.app.inject({ url: '/no-such-page', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gzip.statusCode).toBe(404);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toContain('<div id="root">');
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await store.app.inject({ method: 'HEAD', url: '/faq' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
  });

  it('does not take /api or /mfe paths as pages', async () => {
    expect((await store.app.inject({ url: '/api/nothing-here' })).headers['content-type']).toMatch(/application\/json/);
    expect((await store.app.inject({ url: '/mfe/shell/nothing.js' })).headers['content-type']).toMatch(/application\/json/);
  });

  it('sends a template without the placeholder unchanged', async () => {
    const template = shellTemplate('');
    writeFileSync(join(store.rootDir, 'shell', 'dist', 'index.html'), template);
    const response = await store.app.inject({ url: '/faq', headers: { 'accept-encoding': 'identity' } });
    expect(response.body).toBe(template);
  });

  it('answers 503 with a hint to build once the shell build is gone', async () => {
    rmSync(join(store.rootDir, 'shell', 'dist', 'index.html'));
    const response = await store.app.inject({ url: '/faq' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toMatch(/not built yet.*build/);
  });
});

describe('a site whose shell was never built', () => {
  it('starts and answers pages with 503', async () => {
    const store = await startTestStore({}, createFakeRoot({ withShell: false }));
    try {
      const response = await store.app.inject({ url: '/' });
      expect(response.statusCode).toBe(503);
      expect(response.body).toMatch(/not built yet/);
      expect((await store.app.inject({ url: '/remotes.json' })).statusCode).toBe(200);
    } finally {
      await store.cleanUp();
    }
  });
});

describe('a server-rendered page', () => {
  const registry: Registry = { remotes: [] };
  const publicConfig = PublicConfig.parse({ newsletterUrl: '/api/newsletter/subscribe', tagManagerId: null, priceSettings: {} });

  it.each([
    ['the template as written', '<div id="root"><noscript><p class="boot">This site needs JavaScript to run.</p></noscript></div>'],
    ['the template as html-webpack-plugin minifies it', '<div id=root><noscript><p class=boot>This site needs JavaScript to run.</p></noscript></div>'],
  ])('puts the markup into #root, marked for hydration, in place of the notice (%s)', (_name, root) => {
    const template = `<!doctype html><html><head><title>x</title><!--bff:inject--></head><body>${root}</body></html>`;
    const page = injectPageData(template, { registry, publicConfig, rootHtml: '<main><h1>Hello</h1></main>' });
    expect(page).toContain('<body><div id="root" data-server-rendered="true"><main><h1>Hello</h1></main></div></body>');
    expect(page).not.toContain('noscript');
  });

  it("puts the markup's styles into the head as Emotion's browser cache finds them, global sheets first, and no CSS can close its element", () => {
    const template = '<!doctype html><html><head><title>x</title><!--bff:inject--></head><body><div id="root"></div></body></html>';
    const page = injectPageData(template, {
      registry,
      publicConfig,
      rootHtml: '<main class="bimi-a1"><h1 class="bimi-b2">Hello</h1></main>',
      rootStyles: [
        { key: 'bimi-global', ids: ['animation-k1'], css: '@keyframes animation-k1{from{opacity:0}}' },
        { key: 'bimi', ids: ['a1', 'b2'], css: '.bimi-a1{color:red}.bimi-b2::after{content:"</style><script>alert(1)</script>"}' },
      ],
      paintAfter: ['main-content'],
    });
    const head = page.slice(page.indexOf('<head>'), page.indexOf('</head>'));
    expect(head).toContain(
      '<style data-emotion="bimi-global animation-k1">@keyframes animation-k1{from{opacity:0}}</style>' +
        '<style data-emotion="bimi a1 b2">.bimi-a1{color:red}.bimi-b2::after{content:"\\3c /style>\\3c script>alert(1)\\3c /script>"}</style>' +
        '<link rel="expect" href="#main-content" blocking="render">',
    );
    expect(page.match(/<\/style>/g)).toHaveLength(2);
    expect(page).not.toContain('<script>');
  });

  it('leaves the root as it is when the page renders in the browser', () => {
    const template = '<html><head><!--bff:inject--></head><body><div id="root"><noscript>JS</noscript></div></body></html>';
    expect(injectPageData(template, { registry, publicConfig })).toContain('<div id="root"><noscript>JS</noscript></div>');
  });

  it('is not attempted without the server build: the page is served for the browser to render', async () => {
    const store = await startTestStore();
    try {
      const page = (await store.app.inject({ url: '/faq' })).body;
      expect(page).toContain('<div id="root">');
      expect(page).not.toContain('data-server-rendered');
    } finally {
      await store.cleanUp();
    }
  });
});
