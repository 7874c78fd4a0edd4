import { SPEC_ROUTE_OWNERS } from '../fixtures/routes';
import { concretePath, fetchRegistry, findOwner } from '../support/registry';
import { expect, expectRemotePage, navigateClientSide, REMOTES, SITE_NAME, test } from '../support/test';
import { createVerifiedAccount, signInByApi } from '../support/account';

/** Routes that only forward somewhere else (their remote's routes.json says where). */
const REDIRECTS: Record<string, string> = {
  '/account': '/account/dashboard',
  '/account/settings': '/account/settings/profile',
};

/** Pages whose heading follows an outcome known at once: /auth/verify without a token fails straight away. */
const OUTCOME_TITLES: Record<string, string> = {
  '/auth/verify': 'Link expired or invalid',
};

test('the registry lists the four remotes, each with its manifest, a version and routes', async ({ request }) => {
  const remotes = await fetchRegistry(request);
  expect(remotes.map((remote) => remote.name).sort()).toEqual([...REMOTES].sort());
  for (const remote of remotes) {
    expect(remote.entry).toBe(`/mfe/${remote.name}/mf-manifest.json`);
    expect(remote.version, `${remote.name} publishes its build version`).toMatch(/^\d+\.\d+\.\d+/);
    expect(remote.routes.length, `${remote.name} owns routes`).toBeGreaterThan(0);
    const manifest = await request.get(remote.entry);
    expect(manifest.status()).toBe(200);
    expect(manifest.headers()['cache-control']).toBe('no-cache');
  }
});

test('route ownership follows the architecture table for every page of spec §2', async ({ request }) => {
  const remotes = await fetchRegistry(request);
  const wrong = SPEC_ROUTE_OWNERS.flatMap(([path, owner]) => {
    const found = findOwner(remotes, path)?.remote ?? 'nobody';
    return found === owner ? [] : [`${path}: owned by ${found}, DESIGN.md says ${owner}`];
  });
  expect(wrong).toEqual([]);
});

test('the published route tables: no path twice, spec §2 frames and white headers', async ({ request }) => {
  const remotes = await fetchRegistry(request);
  const all = remotes.flatMap((remote) => remote.routes.map((route) => route.path));
  expect(all.length, 'no path is published by two remotes').toBe(new Set(all).size);
  const routeOf = (path: string) => findOwner(remotes, path)?.route;
  const frames = {
    '/auth/signin': 'auth',
    '/forgot-password': 'auth',
    '/terms': 'legal',
    '/checkout': 'checkout',
    '/landing/verified-mark-certificate': 'landing',
    '/digicert-enrollment': 'enrollment',
    '/account/tools/spf-lookup': 'account',
    '/bimi-checker': 'public',
  };
  for (const [path, layout] of Object.entries(frames)) expect(routeOf(path)?.layout, `the frame of ${path}`).toBe(layout);
  for (const path of ['/about', '/bimi-checker', '/dmarc-inspector', '/vmc-validator', '/faq', '/articles', '/help-center', '/glossary']) {
    expect(routeOf(path)?.header, `the header of ${path}`).toBe('white');
  }
  expect(routeOf('/')?.header).toBe('fade');
});

for (const remoteName of REMOTES) {
  test(`every ${remoteName} route answers 200 and renders its page in the ${remoteName} remote`, async ({ page, request }) => {
    const remotes = await fetchRegistry(request);
    const remote = remotes.find((entry) => entry.name === remoteName);
    if (!remote) throw new Error(`${remoteName} is not in /remotes.json`);

    // HTTP: every route is a page the bff owns (200), with its title already in the head; a route
    // that only forwards is a redirect there, its query kept.
    for (const route of remote.routes) {
      const path = concretePath(route.path);
      expect(route.redirectTo, `where ${path} forwards`).toBe(REDIRECTS[route.path]);
      if (route.redirectTo) {
        const forwarded = await request.get(`${path}?from=e2e`, { maxRedirects: 0 });
        expect(forwarded.status(), `GET ${path}`).toBe(302);
        expect(forwarded.headers().location).toBe(`${route.redirectTo}?from=e2e`);
        continue;
      }
      const response = await request.get(path);
      expect(response.status(), `GET ${path}`).toBe(200);
      expect(response.headers()['content-type']).toContain('text/html');
      expect(await response.text(), `<title> of ${path}`).toContain(`<title>${route.title} | ${SITE_NAME}</title>`);
    }

    // Account pages are shown only with a session (spec §6): the browser signs in first.
    if (remote.routes.some((route) => route.path.startsWith('/account'))) await signInByApi(page, await createVerifiedAccount(page));

    // The browser: one document for the remote's first route, then client-side navigation.
    const [first, ...others] = remote.routes;
    if (!first) throw new Error(`${remoteName} has no routes`);
    const firstResponse = await page.goto(concretePath(first.path));
    expect(firstResponse?.status()).toBe(200);
    for (const route of [first, ...others]) {
      const path = concretePath(route.path);
      if (route !== first) await navigateClientSide(page, path);
      const target = REDIRECTS[route.path];
      if (target) {
        await expect(page, `${path} forwards`).toHaveURL(target);
        const final = findOwner(remotes, target);
        await expectRemotePage(page, remoteName, final?.route.title ?? 'unknown');
        continue;
      }
      await expect(page).toHaveURL(path);
      await expectRemotePage(page, remoteName, OUTCOME_TITLES[route.path] ?? route.title);
    }
  });
}

for (const path of ['/no-such-page', '/products/unknown', '/account/no-such-page']) {
  test(`an unknown path (${path}) answers 404 with the shell's not-found page`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByTestId('not-found')).toBeVisible();
    await expect(page).toHaveTitle(`Page not found | ${SITE_NAME}`);
    await expect(page.locator('h1')).toHaveText('Page not found');
    await expect(page.locator('[data-remote]')).toHaveCount(0);
  });
}
