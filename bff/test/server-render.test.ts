import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFakeRoot, shellTemplate, startTestStore, type TestStore } from './fixtures';

/**
 * The bff's server rendering (plugins/app/server-render.ts) with a hand-written federation
 * container in place of the shell's server build: `renderPage` does what `body` says. The real
 * builds are rendered in the e2e flow server-rendering.spec.ts.
 */
function rootWithShellServerBuild(body: string): string {
  const rootDir = createFakeRoot();
  // The root as the shell's template has it: empty but for the notice.
  writeFileSync(
    join(rootDir, 'shell', 'dist', 'index.html'),
    shellTemplate().replace(/<div id="root">[\s\S]*?<\/div>/, '<div id="root"><noscript>This site needs JavaScript to run.</noscript></div>'),
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

const ROOT_OF = /<div id="root"([^>]*)>([\s\S]*?)<\/div><script/;

describe('server rendering in the bff', () => {
  let store: TestStore | undefined;
  afterEach(async () => {
    await store?.cleanUp();
    store = undefined;
  });

  it("puts the shell's render into #root for every page, keeps it 30 s, and says what it cost; an account page waits for nothing but its frame", async () => {
    store = await startTestStore({}, rootWithShellServerBuild(`return { html: '<main><h1>' + request.url + ' #' + renders + '</h1></main>', errors: [] };`));
    const first = await store.app.inject({ url: '/faq?from=mail' });
    expect(ROOT_OF.exec(first.body)?.slice(1)).toEqual([' data-server-rendered="true"', '<main><h1>/faq?from=mail #1</h1></main>']);
    expect(first.headers['server-timing']).toMatch(/^render;dur=[\d.]+, render-cpu;dur=[\d.]+$/);
    const again = await store.app.inject({ url: '/faq?from=mail' });
    expect(ROOT_OF.exec(again.body)?.[2]).toBe('<main><h1>/faq?from=mail #1</h1></main>');
    expect(again.headers['server-timing']).toBe('render;desc="cached"');

    // The account area's first HTML is the same for everybody (the session is read in the browser):
    // rendered and kept like a public page, and painted without waiting for a #main it does not have yet.
    const account = await store.app.inject({ url: '/account/monitors/example.com' });
    expect(ROOT_OF.exec(account.body)?.slice(1)).toEqual([' data-server-rendered="true"', '<main><h1>/account/monitors/example.com #2</h1></main>']);
    expect(account.body).not.toContain('<link rel="expect" href="#main"');
    expect(first.body).toContain('<link rel="expect" href="#main" blocking="render">');
  });

  it('renders from the URL, the registry, the public config and the cookie choice only: no session reaches it, so a cached page holds nothing of a signed-in visitor', async () => {
    store = await startTestStore({}, rootWithShellServerBuild(`return { html: '<pre>' + Object.keys(request).sort().join(' ') + '</pre>', errors: [] };`));
    const page = await store.app.inject({ url: '/faq', headers: { cookie: 'bimi.session=someone' } });
    expect(ROOT_OF.exec(page.body)?.[2]).toBe('<pre>config consent loadRemoteModule remotes signal url</pre>');
  });

  it("passes the visitor's cookie choice (only a valid one), keeps a page per choice and says the page varies on cookies", async () => {
    store = await startTestStore({}, rootWithShellServerBuild(`return { html: '<p>' + request.consent + ' #' + renders + '</p>', errors: [] };`));
    const rootFor = async (cookie?: string) => {
      const page = await store!.app.inject({ url: '/faq', headers: cookie ? { cookie } : {} });
      expect(page.headers.vary).toBe('accept-encoding, cookie');
      return ROOT_OF.exec(page.body)?.[2];
    };
    expect(await rootFor()).toBe('<p>null #1</p>');
    expect(await rootFor('cookie_consent=accepted')).toBe('<p>accepted #2</p>');
    expect(await rootFor('cookie_consent=declined; other=1')).toBe('<p>declined #3</p>');
    expect(await rootFor('cookie_consent=<script>')).toBe('<p>null #1</p>');
    expect(await rootFor('cookie_consent=accepted')).toBe('<p>accepted #2</p>');
  });

  it('leaves the page to the browser when the render outlasts SERVER_RENDER_TIMEOUT_MS, and answers in time', async () => {
    store = await startTestStore(
      { SERVER_RENDER_TIMEOUT_MS: '100' },
      rootWithShellServerBuild(`await new Promise((resolve) => setTimeout(resolve, 2000)); return { html: '<main>late</main>', errors: [] };`),
    );
    const started = Date.now();
    const page = await store.app.inject({ url: '/faq' });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('data-server-rendered');
    expect(store.logs.messages()).toContainEqual(expect.stringContaining('server rendering outlasted its time limit'));
  });

  it('leaves the page to the browser when the render throws, and serves a render with failed parts without keeping it', async () => {
    store = await startTestStore(
      {},
      rootWithShellServerBuild(`if (request.url === '/faq') throw new Error('broken'); return { html: '<main>part #' + renders + '</main>', errors: ['the storefront remote failed'] };`),
    );
    const broken = await store.app.inject({ url: '/faq' });
    expect(broken.statusCode).toBe(200);
    expect(broken.body).not.toContain('data-server-rendered');
    expect((await store.app.inject({ url: '/' })).body).toContain('<main>part #2</main>');
    expect((await store.app.inject({ url: '/' })).body).toContain('<main>part #3</main>');
  });

  it('keeps the whole page, and never past a new template, a new route table or a rebuilt server build', async () => {
    const rootDir = rootWithShellServerBuild(`return { html: '<main>#' + renders + ' ' + request.remotes.map((r) => r.routes.length).join(',') + '</main>', errors: [] };`);
    store = await startTestStore({}, rootDir);
    const page = async () => {
      const answer = await store!.app.inject({ url: '/faq', headers: { 'accept-encoding': 'identity' } });
      return { root: ROOT_OF.exec(answer.body)?.[2], timing: answer.headers['server-timing'], body: answer.body };
    };
    const first = await page();
    expect(first.root).toBe('<main>#1 3,1,2,1</main>');
    expect(await page()).toMatchObject({ root: first.root, timing: 'render;desc="cached"' });

    const template = join(rootDir, 'shell', 'dist', 'index.html');
    writeFileSync(`${template}.next`, readFileSync(template, 'utf8').replace('</head>', '<meta name="release" content="2"></head>'));
    renameSync(`${template}.next`, template);
    const withNewTemplate = await page();
    expect(withNewTemplate.body).toContain('<meta name="release" content="2">');
    expect(withNewTemplate.root).toBe('<main>#2 3,1,2,1</main>');

    // A remote publishes a route more, with no server build changed: rendered with the new registry.
    const routes = join(rootDir, 'mfe-checkout', 'dist', 'routes.json');
    const table = JSON.parse(readFileSync(routes, 'utf8')) as { routes: { path: string }[] };
    table.routes.push({ ...table.routes[0], path: '/checkout/review' });
    writeFileSync(`${routes}.next`, JSON.stringify(table));
    renameSync(`${routes}.next`, routes);
    expect((await page()).root).toBe('<main>#3 3,2,2,1</main>');

    // A remote team's rebuild keeps its version: the build folder is looked at again within a second,
    // and the page is rendered anew. (Under jest the container's module is not read again, as jest
    // keeps its own module registry: the render counts on.)
    const entry = join(rootDir, 'shell', 'dist', 'server', 'remoteEntry.js');
    writeFileSync(entry, readFileSync(entry, 'utf8').replace("'<main>#'", "'<main>rebuilt #'"));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const rebuilt = await page();
    expect(rebuilt.timing).toMatch(/^render;dur=/);
    expect(rebuilt.root).toMatch(/<main>(rebuilt )?#4 3,2,2,1<\/main>/);
  });

  it('renders nothing with SERVER_RENDER_TIMEOUT_MS=0', async () => {
    store = await startTestStore({ SERVER_RENDER_TIMEOUT_MS: '0' }, rootWithShellServerBuild(`return { html: '<main>rendered</main>', errors: [] };`));
    expect((await store.app.inject({ url: '/faq' })).body).not.toContain('data-server-rendered');
  });
});
