import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SESSION_IDLE_LIMIT_MS } from '@bimi/contracts/auth';
import { rootWithShellServerBuild, startTestStore, type TestStore } from './fixtures';
import { Browser, signedInUser, startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';

const ROOT_OF = /<div id="root"([^>]*)>([\s\S]*?)<\/div><script/;

describe('server rendering in the bff', () => {
  let store: TestStore | undefined;
  afterEach(async () => {
    await store?.cleanUp();
    store = undefined;
  });

  it("puts the shell's render into #root for every page, keeps it 30 s, and says what it cost; an account page waits for nothing but its frame", async () => {
    store = await startTestStore({}, rootWithShellServerBuild(`return { html: '<main><h1>' + request.url + ' #' + renders + '</h1></main>', errors: [] };`));
    const first = await store.app.inject({ url: '/faq?from=mail&topic=dmarc' });
    expect(ROOT_OF.exec(first.body)?.slice(1)).toEqual([' data-server-rendered="true"', '<main><h1>/faq?topic=dmarc #1</h1></main>']);
    expect(first.headers['server-timing']).toMatch(/^render;dur=[\d.]+, render-cpu;dur=[\d.]+$/);
    const again = await store.app.inject({ url: '/faq?topic=dmarc&from=mail' });
    expect(ROOT_OF.exec(again.body)?.[2]).toBe('<main><h1>/faq?topic=dmarc #1</h1></main>');
    expect(again.headers['server-timing']).toBe('render;desc="cached"');

    // Without a session the account area's first HTML is the same for everybody:
    // rendered and kept like a public page, and painted without waiting for a #main it does not have yet.
    const account = await store.app.inject({ url: '/account/monitors/example.com' });
    expect(ROOT_OF.exec(account.body)?.slice(1)).toEqual([' data-server-rendered="true"', '<main><h1>/account/monitors/example.com #2</h1></main>']);
    expect(account.body).not.toContain('<link rel="expect" href="#main"');
    expect(first.body).toContain('<link rel="expect" href="#main" blocking="render">');
  });

  it('keeps a page by its path and the query parameters its route reads, never by others (issue 31)', async () => {
    store = await startTestStore({}, rootWithShellServerBuild(`return { html: '<main>' + request.url + ' #' + renders + '</main>', errors: [] };`));
    const rootOf = async (url: string) => ROOT_OF.exec((await store!.app.inject({ url })).body)?.[2];
    expect(await rootOf('/faq')).toBe('<main>/faq #1</main>');
    // A parameter the page does not read: the same page, from the cache, however many there are.
    for (let index = 0; index < 50; index += 1) expect(await rootOf(`/faq?u=${Math.random()}`)).toBe('<main>/faq #1</main>');
    // The parameters it reads, in one order, each value its own page; the others dropped.
    expect(await rootOf('/faq?topic=spf&edit=2&u=1')).toBe('<main>/faq?edit=2&topic=spf #2</main>');
    expect(await rootOf('/faq?edit=2&u=2&topic=spf')).toBe('<main>/faq?edit=2&topic=spf #2</main>');
    expect(await rootOf('/faq?topic=dkim')).toBe('<main>/faq?topic=dkim #3</main>');
    // A route that declares none (/landing/*) is rendered and kept by its path alone.
    expect(await rootOf('/landing/offer?utm_source=x')).toBe('<main>/landing/offer #4</main>');
    expect(await rootOf('/landing/offer?utm_source=y')).toBe('<main>/landing/offer #4</main>');
  });

  it('renders a cold page once for all the requests that wait for it (issue 31)', async () => {
    store = await startTestStore(
      {},
      rootWithShellServerBuild(`await new Promise((resolve) => setTimeout(resolve, 100)); return { html: '<main>home #' + renders + '</main>', errors: [] };`),
    );
    const pages = await Promise.all(Array.from({ length: 50 }, () => store!.app.inject({ url: '/' })));
    expect(new Set(pages.map((page) => ROOT_OF.exec(page.body)?.[2]))).toEqual(new Set(['<main>home #1</main>']));
    expect(pages.filter((page) => /^render;dur=/.test(String(page.headers['server-timing'])))).toHaveLength(1);
    expect(pages.filter((page) => page.headers['server-timing'] === 'render;desc="shared"')).toHaveLength(49);
  });

  it('renders two pages at a time, lets 16 wait, and sends the rest without a server render, kept by nobody (issue 31)', async () => {
    store = await startTestStore(
      {},
      rootWithShellServerBuild(
        `globalThis.__active = (globalThis.__active || 0) + 1; globalThis.__most = Math.max(globalThis.__most || 0, globalThis.__active);
        await new Promise((resolve) => setTimeout(resolve, 50)); globalThis.__active -= 1;
        return { html: '<main>' + request.url + '</main>', errors: [] };`,
      ),
    );
    const pages = await Promise.all(Array.from({ length: 30 }, (_, index) => store!.app.inject({ url: `/landing/page-${index}` })));
    expect((globalThis as { __most?: number }).__most).toBe(2);
    const busy = pages.filter((page) => page.headers['server-timing'] === 'render;desc="busy"');
    expect(busy).toHaveLength(30 - 2 - 16);
    for (const page of busy) expect(page.statusCode).toBe(200);
    for (const page of busy) expect(page.body).not.toContain('data-server-rendered');
    // Not kept: the next request for such a page renders it.
    const again = await store.app.inject({ url: `/landing/page-29` });
    expect(ROOT_OF.exec(again.body)?.[2]).toBe('<main>/landing/page-29</main>');
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
    expect(first.root).toBe('<main>#1 3,1,3,1</main>');
    expect(await page()).toMatchObject({ root: first.root, timing: 'render;desc="cached"' });

    const template = join(rootDir, 'shell', 'dist', 'index.html');
    writeFileSync(`${template}.next`, readFileSync(template, 'utf8').replace('</head>', '<meta name="release" content="2"></head>'));
    renameSync(`${template}.next`, template);
    const withNewTemplate = await page();
    expect(withNewTemplate.body).toContain('<meta name="release" content="2">');
    expect(withNewTemplate.root).toBe('<main>#2 3,1,3,1</main>');

    // A remote publishes a route more, with no server build changed: rendered with the new registry.
    const routes = join(rootDir, 'mfe-checkout', 'dist', 'routes.json');
    const table = JSON.parse(readFileSync(routes, 'utf8')) as { routes: { path: string }[] };
    table.routes.push({ ...table.routes[0], path: '/checkout/review' });
    writeFileSync(`${routes}.next`, JSON.stringify(table));
    renameSync(`${routes}.next`, routes);
    expect((await page()).root).toBe('<main>#3 3,2,3,1</main>');

    // A remote team's rebuild keeps its version: the build folder is looked at again within a second,
    // and the page is rendered anew. (Under jest the container's module is not read again, as jest
    // keeps its own module registry: the render counts on.)
    const entry = join(rootDir, 'shell', 'dist', 'server', 'remoteEntry.js');
    writeFileSync(entry, readFileSync(entry, 'utf8').replace("'<main>#'", "'<main>rebuilt #'"));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const rebuilt = await page();
    expect(rebuilt.timing).toMatch(/^render;dur=/);
    expect(rebuilt.root).toMatch(/<main>(rebuilt )?#4 3,2,3,1<\/main>/);
  });

  describe("a signed-in visitor's account page", () => {
    let identity: IdentityStore | undefined;
    afterEach(async () => {
      await identity?.cleanUp();
      identity = undefined;
    });

    it('is rendered with their session and their answers (the account API only), carries both for hydration, and is kept by nobody', async () => {
      const rootDir = rootWithShellServerBuild(`
        const signedIn = request.signedIn;
        if (!signedIn) return { html: '<main>anonymous #' + renders + '</main>', errors: [] };
        const monitors = await signedIn.fetchAnswer('/api/account/monitors');
        const outside = [await signedIn.fetchAnswer('/api/auth/csrf'), await signedIn.fetchAnswer('/api/account/.%2e/.%2e/dev/outbox'), await signedIn.fetchAnswer('/api/account/%2e%2e/auth/csrf')].find((answer) => answer !== undefined);
        const missing = await signedIn.fetchAnswer('/api/account/monitors/unknown.example');
        const text = [signedIn.session.user.name, JSON.stringify(monitors), String(outside), String(missing), 'phone=' + signedIn.phone, '#' + renders].join(' ');
        return { html: '<main>' + text.replace(/</g, '&lt;') + '</main>', errors: [], answers: { '/api/account/monitors': monitors } };
      `);
      identity = await startIdentityStore(storageEngines()[0]!, { ROOT_DIR: rootDir });
      const jane = await signedInUser(identity, 'Jane <Doe>', 'jane@example.com');
      const PAGE = '/account/monitors/example.com';

      const loggedBefore = identity.logs.entries.length;
      const page = await jane.request({ url: PAGE, headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36' } });
      expect(page.statusCode).toBe(200);
      // Logged as one request: the session and the answers are read from the plugins, not asked over HTTP.
      const logged = identity.logs.entries.slice(loggedBefore).filter((entry) => entry.msg === 'incoming request');
      expect(logged.map((entry) => (entry.req as { url: string }).url)).toEqual([PAGE]);
      expect(page.headers['cache-control']).toBe('private, no-store');
      expect(page.headers.vary).toBe('accept-encoding, cookie');
      expect(ROOT_OF.exec(page.body)?.[2]).toBe('<main>Jane &lt;Doe> {"monitors":[],"limit":25} undefined undefined phone=true #1</main>');
      // The state rides along, its markup escaped, for the browser's hydration.
      const state = /<script id="page-state" type="application\/json">(.*?)<\/script>/.exec(page.body)?.[1] ?? '';
      expect(state).not.toContain('<Doe>');
      expect(JSON.parse(state)).toEqual({
        session: { user: { name: 'Jane <Doe>', email: 'jane@example.com', image: null }, expires: expect.any(String) },
        answers: { '/api/account/monitors': { monitors: [], limit: 25 } },
        phone: true,
        sidebarCollapsed: false,
      });
      // Its main content is parsed before the first paint, like a public page's.
      expect(page.body).toContain('<link rel="expect" href="#main" blocking="render">');

      // Rendered for each request (a desktop browser: the desktop layout), never for anybody else.
      expect(ROOT_OF.exec((await jane.request({ url: PAGE, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0' } })).body)?.[2]).toContain('phone=false #2');
      const anonymous = await identity.app.inject({ url: PAGE });
      expect(anonymous.headers['cache-control']).toBe('no-cache');
      expect(ROOT_OF.exec(anonymous.body)?.[2]).toBe('<main>anonymous #3</main>');
      expect(anonymous.body).not.toContain('page-state');
      expect(anonymous.body).not.toContain('Jane');
      // A session cookie that names no live session gets the anonymous page, kept as it is for everybody.
      const forged = await identity.app.inject({ url: PAGE, headers: { cookie: 'bimi.session=forged.value' } });
      expect(ROOT_OF.exec(forged.body)?.[2]).toBe('<main>anonymous #3</main>');
      // After signing out, the same, also for the cookie of the ended session.
      const endedCookie = `bimi.session=${jane.cookies.get('bimi.session')}`;
      const signOut = await jane.request({ method: 'POST', url: '/api/auth/signout', form: { csrfToken: await jane.csrfToken(), callbackUrl: 'http://store.test/', json: 'true' } });
      expect(signOut.statusCode).toBe(200);
      expect(ROOT_OF.exec((await jane.request({ url: PAGE })).body)?.[2]).toBe('<main>anonymous #3</main>');
      const ended = await identity.app.inject({ url: PAGE, headers: { cookie: endedCookie } });
      expect(ROOT_OF.exec(ended.body)?.[2]).toBe('<main>anonymous #3</main>');
      expect(ended.body).not.toContain('Jane');
    });

    it('counts as a use of the session, as an account API call does; past its idle limit the page is anonymous', async () => {
      identity = await startIdentityStore(storageEngines()[0]!, {
        ROOT_DIR: rootWithShellServerBuild(`return { html: '<main>' + (request.signedIn ? 'signed in' : 'anonymous') + '</main>', errors: [] };`),
      });
      const jane = await signedInUser(identity, 'Jane Doe', 'jane@example.com');
      const root = async () => ROOT_OF.exec((await jane.request({ url: '/account/monitors/example.com' })).body)?.[2];
      // Twice a minute short of the idle limit: each page view starts it again.
      identity.advance(SESSION_IDLE_LIMIT_MS - 60_000);
      expect(await root()).toBe('<main>signed in</main>');
      identity.advance(SESSION_IDLE_LIMIT_MS - 60_000);
      expect(await root()).toBe('<main>signed in</main>');
      identity.advance(SESSION_IDLE_LIMIT_MS);
      expect(await root()).toBe('<main>anonymous</main>');
      // The page view did not bring it back: the API refuses it too.
      expect((await jane.request({ url: '/api/account/profile' })).statusCode).toBe(401);
    });

    it('renders two visitors at once, each with their own session and answers only', async () => {
      identity = await startIdentityStore(storageEngines()[0]!, {
        ROOT_DIR: rootWithShellServerBuild(`
          const signedIn = request.signedIn;
          await new Promise((resolve) => setTimeout(resolve, 50));
          const profile = await signedIn.fetchAnswer('/api/account/profile');
          return { html: '<main>' + signedIn.session.user.email + ' ' + profile.email + '</main>', errors: [], answers: { '/api/account/profile': profile } };
        `),
      });
      const [ada, bob] = [await signedInUser(identity, 'Ada', 'ada@example.com', '203.0.113.11'), await signedInUser(identity, 'Bob', 'bob@example.com', '203.0.113.12')];
      const pages = await Promise.all([ada, bob, ada, bob].map((browser) => browser.request({ url: '/account/monitors/example.com' })));
      expect(pages.map((page) => ROOT_OF.exec(page.body)?.[2])).toEqual([
        '<main>ada@example.com ada@example.com</main>',
        '<main>bob@example.com bob@example.com</main>',
        '<main>ada@example.com ada@example.com</main>',
        '<main>bob@example.com bob@example.com</main>',
      ]);
    });

    it('waits for an answer no longer than half the render time limit, and gets the anonymous page when the render fails', async () => {
      identity = await startIdentityStore(storageEngines()[0]!, {
        SERVER_RENDER_TIMEOUT_MS: '400',
        ROOT_DIR: rootWithShellServerBuild(`
          const signedIn = request.signedIn;
          if (!signedIn) return { html: '<main>anonymous</main>', errors: [] };
          if (request.url.includes('broken')) throw new Error('the account remote is broken');
          const started = Date.now();
          const slow = await signedIn.fetchAnswer('/api/account/monitors');
          return { html: '<main>' + String(slow) + ' after ' + (Date.now() - started < 350 ? 'less' : 'more') + ' than the limit</main>', errors: [] };
        `),
      });
      const jane = await signedInUser(identity, 'Jane Doe', 'jane@example.com');
      // The monitors' answer comes after the render's time limit (the page asks the monitors plugin,
      // whose list the API's route reads too).
      const monitors = identity.app.monitors;
      const list = monitors.list.bind(monitors);
      Object.assign(monitors, {
        list: async (userId: string) => {
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          return list(userId);
        },
      });
      const slow = await jane.request({ url: '/account/monitors/example.com' });
      expect(ROOT_OF.exec(slow.body)?.[2]).toBe('<main>undefined after less than the limit</main>');
      expect(slow.headers['cache-control']).toBe('private, no-store');
      // The answer that came too late is in the log, under the page's request, with its path.
      expect(identity.logs.entries.find((entry) => entry.msg.includes('no answer in time'))).toMatchObject({ path: '/api/account/monitors', budgetMs: 200 });
      const broken = await jane.request({ url: '/account/monitors/broken.example' });
      expect(ROOT_OF.exec(broken.body)?.[2]).toBe('<main>anonymous</main>');
      expect(broken.body).not.toContain('page-state');
      expect(broken.headers['cache-control']).toBe('no-cache');
    });

    it('draws the phone layout for a browser whose client hint or user agent says phone; the hint first', async () => {
      identity = await startIdentityStore(storageEngines()[0]!, {
        ROOT_DIR: rootWithShellServerBuild(`return { html: '<main>phone=' + request.signedIn.phone + '</main>', errors: [] };`),
      });
      const jane = await signedInUser(identity, 'Jane Doe', 'jane@example.com');
      const phoneOf = async (headers: Record<string, string>) => ROOT_OF.exec((await jane.request({ url: '/account/monitors/example.com', headers })).body)?.[2];
      expect(await phoneOf({ 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148 Safari/604.1' })).toBe('<main>phone=true</main>');
      expect(await phoneOf({ 'user-agent': 'Mozilla/5.0 (iPad; CPU OS 18_0 like Mac OS X) Safari/604.1' })).toBe('<main>phone=false</main>');
      expect(await phoneOf({ 'sec-ch-ua-mobile': '?0', 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36' })).toBe('<main>phone=false</main>');
      expect(await phoneOf({ 'sec-ch-ua-mobile': '?1', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0' })).toBe('<main>phone=true</main>');
    });

    it('draws the layout the screen measured itself at, once an account page has said so, over the guess', async () => {
      identity = await startIdentityStore(storageEngines()[0]!, {
        ROOT_DIR: rootWithShellServerBuild(`return { html: '<main>phone=' + request.signedIn.phone + '</main>', errors: [] };`),
      });
      const jane = await signedInUser(identity, 'Jane Doe', 'jane@example.com');
      const desktop = { 'sec-ch-ua-mobile': '?0', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0' };
      const phoneOf = async (headers: Record<string, string>) => ROOT_OF.exec((await jane.request({ url: '/account/monitors/example.com', headers })).body)?.[2];
      // A desktop browser in a window narrower than 768px.
      jane.cookies.set('bimi_screen', 'phone');
      expect(await phoneOf(desktop)).toBe('<main>phone=true</main>');
      jane.cookies.set('bimi_screen', 'wide');
      expect(await phoneOf({ 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148 Safari/604.1' })).toBe('<main>phone=false</main>');
      // Anything else is no measurement: the guess.
      jane.cookies.set('bimi_screen', 'tablet');
      expect(await phoneOf(desktop)).toBe('<main>phone=false</main>');
    });

    it("draws the sidebar as the visitor's cookie left it", async () => {
      identity = await startIdentityStore(storageEngines()[0]!, {
        ROOT_DIR: rootWithShellServerBuild(`return { html: '<main>collapsed=' + request.signedIn.sidebarCollapsed + '</main>', errors: [] };`),
      });
      const jane = await signedInUser(identity, 'Jane Doe', 'jane@example.com');
      const drawn = async () => {
        const page = await jane.request({ url: '/account/monitors/example.com' });
        return [ROOT_OF.exec(page.body)?.[2], JSON.parse(/<script id="page-state" type="application\/json">(.*?)<\/script>/.exec(page.body)?.[1] ?? '{}').sidebarCollapsed];
      };
      expect(await drawn()).toEqual(['<main>collapsed=false</main>', false]);
      jane.cookies.set('bimi_sidebar', 'collapsed');
      expect(await drawn()).toEqual(['<main>collapsed=true</main>', true]);
      jane.cookies.set('bimi_sidebar', 'open');
      expect(await drawn()).toEqual(['<main>collapsed=false</main>', false]);
    });

    it('is a public page like any other outside the account area', async () => {
      identity = await startIdentityStore(storageEngines()[0]!, {
        ROOT_DIR: rootWithShellServerBuild(`return { html: '<main>' + (request.signedIn ? 'signed in' : 'anonymous') + ' #' + renders + '</main>', errors: [] };`),
      });
      const jane = await signedInUser(identity, 'Jane Doe', 'jane@example.com');
      expect(ROOT_OF.exec((await jane.request({ url: '/faq' })).body)?.[2]).toBe('<main>anonymous #1</main>');
      expect(ROOT_OF.exec((await new Browser(identity.app).request({ url: '/faq' })).body)?.[2]).toBe('<main>anonymous #1</main>');
    });
  });

  it('renders nothing with SERVER_RENDER_TIMEOUT_MS=0', async () => {
    store = await startTestStore({ SERVER_RENDER_TIMEOUT_MS: '0' }, rootWithShellServerBuild(`return { html: '<main>rendered</main>', errors: [] };`));
    expect((await store.app.inject({ url: '/faq' })).body).not.toContain('data-server-rendered');
  });
});
