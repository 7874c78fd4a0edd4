import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { devices, type Page } from '@playwright/test';
import { CART_STORAGE_KEY, ONE_VMC_CART, ONE_VMC_TOTAL } from '../fixtures/cart';
import { concretePath, fetchRegistry } from '../support/registry';
import { CONSENT_COOKIE, expect, tempRoot, test, untilPageReady } from '../support/test';
import { AUTH_PATHS, CSRF_HEADER } from '@bimi/contracts/auth';
import { MONITOR_PATHS } from '@bimi/contracts/api-paths';
import { SCREEN_COOKIE } from '@bimi/contracts/page-state';
import { createVerifiedAccount, signInByApi } from '../support/account';

/**
 * Issue 14: the bff renders public pages on the server with the server builds of the shell and the
 * remotes; the browser hydrates them. This project has a server of its own (playwright.config.ts),
 * as the last flow breaks a remote's server build on purpose.
 */
const HEADING = /<h1\b[^>]*>([\s\S]*?)<\/h1>/;
const textOf = (html: string) => html.replace(/<[^>]+>/g, '').trim();
/** The inline scripts of a page that run (not its JSON data), with their text. */
const inlineScripts = (html: string) => [...html.matchAll(/<script(?![^>]*type="application\/json")(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)];

test.describe.configure({ mode: 'serial' });

// First: no storefront page has been rendered on this server yet, so its server build is loaded now.
test('a remote whose server build fails leaves only its own area to the browser; the page still works, and the next render is whole again', async ({ page, request }) => {
  const entry = join(tempRoot(), 'mfe-storefront', 'dist', 'server', 'remoteEntry.js');
  copyFileSync(entry, `${entry}.kept`);
  try {
    writeFileSync(entry, 'throw new Error("the storefront server build is broken on purpose");\n');
    const html = await (await request.get('/faq')).text();
    expect(html.includes('data-server-rendered="true"'), 'the page is server-rendered').toBe(true);
    expect(html.includes('data-testid="site-header"'), 'with its header').toBe(true);
    expect(HEADING.exec(html), 'but not the storefront part').toBeNull();

    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto('/faq');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently asked questions');
    expect(problems).toEqual([]);
  } finally {
    copyFileSync(`${entry}.kept`, entry);
  }
  // A new federation instance is started at most every 10 s after a failure (server-render.ts).
  await expect.poll(async () => textOf(HEADING.exec(await (await request.get('/faq')).text())?.[1] ?? ''), { timeout: 30_000 }).toBe('Frequently asked questions');
});

test('every public route and checkout come with their heading in the first HTML; the account area, without a session, with its loading frame', async ({ request }) => {
  const templateScripts = inlineScripts(readFileSync(join(tempRoot(), 'shell', 'dist', 'index.html'), 'utf8')).map(([, code]) => code ?? '');
  expect(templateScripts.length, "the shell template's inline scripts: early input and the start").toBe(2);
  for (const remote of await fetchRegistry(request)) {
    // (A route that only forwards is a redirect: every-route.spec.ts.)
    for (const route of remote.routes.filter((entry) => !entry.redirectTo)) {
      const path = concretePath(route.path);
      const response = await request.get(path);
      const html = await response.text();
      // (Booleans: a failure names the page without printing all its markup.)
      expect(html.includes('<div id="root" data-server-rendered="true">'), `${path} is server-rendered`).toBe(true);
      // Inline, only the page's data and the shell's own scripts (its template's): React left none
      // in the page. The page's policy lets each of them run, by its hash, and no other.
      const inline = inlineScripts(html);
      expect(inline.filter(([, code]) => !templateScripts.includes(code ?? '')).length, `${path}: inline scripts not the shell template's`).toBe(0);
      const scriptSources = /(?:^|;)\s*script-src ([^;]*)/.exec(response.headers()['content-security-policy'] ?? '')?.[1]?.split(' ') ?? [];
      const hashes = inline.map(
        ([, code]) =>
          `'sha256-${createHash('sha256')
            .update(code ?? '')
            .digest('base64')}'`,
      );
      expect(scriptSources.filter((source) => source.startsWith("'sha256-")).sort(), `${path}: the hashes its policy allows`).toEqual(hashes.sort());
      expect(scriptSources, `${path}: no inline script is allowed by anything but its hash`).not.toContain("'unsafe-inline'");
      if (route.layout === 'account') {
        // Without a session: the same first HTML for every such visitor, the page loading (the
        // browser then sends them to sign in).
        expect(html.includes('aria-label="Loading page"'), `${path} shows the page loading`).toBe(true);
        expect(html.includes('data-remote='), `${path} holds no remote's markup`).toBe(false);
        continue;
      }
      expect(html.includes(`data-remote="${remote.name}"`), `${path} holds the ${remote.name} remote's markup`).toBe(true);
      expect(textOf(HEADING.exec(html)?.[1] ?? ''), `${path}: its h1`).not.toBe('');
    }
  }
});

test('with JavaScript off, a visitor still reads the page: its heading, its text and its prices', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL, viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  await page.goto('/products/digicert-verified-mark-certificate');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verified Mark Certificate (VMC)');
  await expect(page.getByText(/From \$[\d,]+\.\d\d a year per domain/)).toBeVisible();
  // Styled as with JavaScript, from one sheet of the page's classes in the head (the body holds no <style>).
  await expect(page.getByRole('heading', { level: 1 })).toHaveCSS('font-weight', '700');
  await expect(page.getByRole('link', { name: 'Configure and buy' })).toHaveCSS('background-color', 'rgb(23, 70, 199)');
  expect(await page.locator('head style[data-emotion^="bimi "]').count()).toBe(1);
  expect(await page.locator('body style').count()).toBe(0);
  await page.goto('/bimi-checker');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('BIMI checker');
  await context.close();
});

/** Keeps the server's h1 element as the document is parsed, before any script runs. */
async function keepServerHeading(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { serverHeading: Element | null }).serverHeading = document.querySelector('main h1');
    });
  });
}

/** Hydration took the server's h1 over: the same element is still in the page (not drawn anew after a blink of PageLoading). */
const serverHeadingKept = (page: Page) =>
  page.evaluate(() => {
    const kept = (window as unknown as { serverHeading: Element | null }).serverHeading;
    return kept !== null && kept === document.querySelector('main h1') && document.contains(kept);
  });

for (const path of ['/', '/products/digicert-verified-mark-certificate', '/faq', '/bimi-checker', '/auth/signin', '/checkout', '/checkout/cancel']) {
  test(`${path} hydrates without a console error or a hydration warning, keeps the server's elements, and answers clicks`, async ({ page }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await keepServerHeading(page);
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('data-page-ready', 'true');
    // When the session's status arrives the frame re-renders: the page must not be drawn anew.
    await page.waitForLoadState('networkidle');
    expect(await serverHeadingKept(page), 'the h1 the server sent is the one on the page').toBe(true);
    // A client-side navigation: the logo's link is live.
    await page.getByRole('link', { name: 'BIMI Store home' }).first().click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Put your logo next to every email you send');
    expect(problems).toEqual([]);
  });
}

for (const device of ['desktop', 'phone'] as const) {
  test(`a signed-in visitor's account pages come with their session and answers in the first HTML (${device}), for them alone, and hydrate in place`, async ({
    browser,
    baseURL,
    request,
  }) => {
    const context = await browser.newContext({ baseURL, ...(device === 'phone' ? devices['Pixel 7'] : { viewport: { width: 1280, height: 800 } }) });
    await context.addCookies([{ name: CONSENT_COOKIE, value: 'declined', url: baseURL ?? '' }]);
    const page = await context.newPage();
    const user = await createVerifiedAccount(page);
    await signInByApi(page, user);

    const html = await (await page.request.get('/account/dashboard')).text();
    expect(textOf(HEADING.exec(html)?.[1] ?? '')).toBe('Welcome back, Ada');
    // The layout the device will show, and the page's answers (no monitors yet), before any script runs.
    expect(html.includes(`data-variant="${device}"`), `the ${device} layout`).toBe(true);
    expect(html.includes('No monitors yet.'), "the monitors' answer").toBe(true);
    expect(html.includes('id="page-state"'), 'the state to hydrate with').toBe(true);
    // Nobody else gets any of it.
    const anonymous = await (await request.get('/account/dashboard')).text();
    expect(anonymous.includes(user.email) || anonymous.includes('Welcome back') || anonymous.includes('page-state'), 'an anonymous page holds nothing of it').toBe(false);

    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await keepServerHeading(page);
    await page.goto('/account/dashboard');
    await expect(page.locator('html')).toHaveAttribute('data-page-ready', 'true');
    await page.waitForLoadState('networkidle');
    expect(await serverHeadingKept(page), 'the h1 the server sent is the one on the page').toBe(true);
    await expect(page.getByTestId('account-layout')).toHaveAttribute('data-variant', device);
    await expect(page.getByText('No monitors yet.')).toBeVisible();
    // Live: a client-side navigation to another account page, which asks for its own answers.
    const nav = device === 'phone' ? page.getByTestId('mobile-tabs') : page.getByTestId('account-sidebar');
    await nav.getByRole('link', { name: device === 'phone' ? 'Orders' : 'My Orders' }).click();
    await expect(page).toHaveURL('/account/orders');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('My orders');
    expect(problems).toEqual([]);
    await context.close();
  });
}

test('a desktop browser in a phone-wide window: the first account page is a guess, the next comes drawn for its screen, and nothing moves as it hydrates', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 375, height: 800 } });
  await context.addCookies([{ name: CONSENT_COOKIE, value: 'declined', url: baseURL ?? '' }]);
  const page = await context.newPage();
  const user = await createVerifiedAccount(page);
  await signInByApi(page, user);
  // The browser names itself a desktop: the server guesses the desktop layout, and the browser's
  // screen corrects it once live.
  expect(await (await page.request.get('/account/dashboard')).text()).toContain('data-variant="desktop"');
  await page.goto('/account/dashboard');
  await expect(page.getByTestId('account-layout')).toHaveAttribute('data-variant', 'phone');
  expect((await context.cookies()).find((cookie) => cookie.name === SCREEN_COOKIE)?.value).toBe('phone');
  // From now on the server draws what this screen shows: the heading stays where it first was.
  expect(await (await page.request.get('/account/dashboard')).text()).toContain('data-variant="phone"');
  const shell = await holdShellStart(page);
  await page.goto('/account/orders', { waitUntil: 'commit' });
  const firstShown = await page.getByRole('heading', { level: 1 }).boundingBox();
  shell.start();
  await untilPageReady(page);
  await expect(page.getByTestId('account-layout')).toHaveAttribute('data-variant', 'phone');
  expect(await page.getByRole('heading', { level: 1 }).boundingBox()).toEqual(firstShown);
  // A wider window is remembered too.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId('account-layout')).toHaveAttribute('data-variant', 'desktop');
  await expect.poll(async () => (await context.cookies()).find((cookie) => cookie.name === SCREEN_COOKIE)?.value).toBe('wide');
  await context.close();
});

test("a checked monitor's page, rendered for a visitor in another time zone and language, hydrates without a mismatch, on a phone and a desktop", async ({ browser, baseURL }) => {
  const setUp = await browser.newContext({ baseURL });
  const user = await createVerifiedAccount(await setUp.newPage());
  await setUp.close();
  for (const device of ['phone', 'desktop'] as const) {
    const context = await browser.newContext({
      baseURL,
      timezoneId: 'Pacific/Kiritimati',
      locale: 'fr-FR',
      ...(device === 'phone' ? devices['Pixel 7'] : { viewport: { width: 1280, height: 800 } }),
    });
    try {
      await context.addCookies([{ name: CONSENT_COOKIE, value: 'declined', url: baseURL ?? '' }]);
      const page = await context.newPage();
      await signInByApi(page, user);
      if (device === 'phone') {
        const { csrfToken } = (await (await page.request.get(AUTH_PATHS.csrf)).json()) as { csrfToken: string };
        const created = await page.request.post(MONITOR_PATHS.create, { data: { domain: 'good.example' }, headers: { [CSRF_HEADER]: csrfToken } });
        expect(created.status(), await created.text()).toBe(201);
      }
      const html = await (await page.request.get(MONITOR_PATHS.page('good.example'))).text();
      expect(textOf(HEADING.exec(html)?.[1] ?? '')).toBe('good.example');
      // The moment of the check in UTC (the server cannot know the visitor's zone); the browser rewrites it.
      expect(/Last checked (?:<!-- -->)?<time dateTime="[^"]+">[A-Z][a-z]{2} \d+, \d+:\d\d [AP]M UTC<\/time>/.test(html), 'the last check, in UTC').toBe(true);

      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await keepServerHeading(page);
      await page.goto(MONITOR_PATHS.page('good.example'));
      await expect(page.locator('html')).toHaveAttribute('data-page-ready', 'true');
      await page.waitForLoadState('networkidle');
      expect(await serverHeadingKept(page), 'the h1 the server sent is the one on the page').toBe(true);
      await expect(page.getByTestId('account-layout')).toHaveAttribute('data-variant', device);
      await expect(page.getByTestId('inbox-previews').locator('[data-device]').first()).toHaveAttribute('data-device', device);
      // Once live: the visitor's own time, the charts drawn.
      await expect(page.locator('time').first()).not.toContainText('UTC');
      await expect(page.getByTestId('monitor-history').locator('svg').first()).toBeVisible();
      // It opens at its top: the assistant's conversation scrolls within its own box, not the page.
      expect(await page.evaluate(() => window.scrollY), 'the page scrolled on its own').toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }
});

/**
 * Holds the shell's script files until the returned function is called: the server's page is on
 * screen and does not answer yet. `requested` resolves once the page's inline start code has asked
 * for the first of them (after the first paint).
 */
async function holdShellStart(page: Page): Promise<{ start: () => void; requested: Promise<void> }> {
  let release: () => void = () => {};
  let asked: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const requested = new Promise<void>((resolve) => (asked = resolve));
  await page.route('**/mfe/shell/*.js', async (route) => {
    asked();
    await released;
    await route.continue();
  });
  return { start: release, requested };
}

test("a click made on the server's page before it is live is not lost: the last one is made again once it is", async ({ context }) => {
  // A page of its own, without the flows' wait for the page to be live after each load.
  const page = await context.newPage();
  const shell = await holdShellStart(page);
  await page.goto('/products/digicert-verified-mark-certificate', { waitUntil: 'commit' });
  const addToCart = page.getByTestId('add-to-cart');
  await addToCart.click();
  await addToCart.click();
  // Before any of the shell's code (its files are held): only what the page holds inline listens.
  await shell.requested;
  await expect(page.getByTestId('cart-toggle'), 'nothing in the cart before the shell ran').toHaveAttribute('data-count', '0');
  const scrolledTo = await page.evaluate(() => window.scrollY);
  expect(scrolledTo, 'the button is below the fold').toBeGreaterThan(0);
  shell.start();
  await expect(page.locator('html')).toHaveAttribute('data-page-ready', 'true');
  // The page stays where the visitor scrolled it as it goes live (it jumped to the top, and a second
  // click landed beside the button).
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolledTo);
  // Made once: one line in the cart.
  await expect(page.getByTestId('in-cart')).toHaveAttribute('data-count', '1');
  await expect(page.getByTestId('cart-toggle')).toHaveAttribute('data-count', '1');
  // A link is left to the browser: it works before the page is live.
  const linkPage = await context.newPage();
  await holdShellStart(linkPage);
  await linkPage.goto('/products/digicert-verified-mark-certificate', { waitUntil: 'commit' });
  await linkPage.getByRole('link', { name: 'BIMI Store home' }).first().click();
  await expect(linkPage).toHaveURL(/\/$/);
  await linkPage.close();
  await page.close();
});

test("checkout comes with its frame in the first HTML, shows the cart loading (never empty) until the browser read it, then the visitor's lines", async ({ page, request }) => {
  const html = await (await request.get('/checkout')).text();
  expect(textOf(HEADING.exec(html)?.[1] ?? '')).toBe('Checkout');
  expect(html.includes('Loading your cart…'), 'the cart shows as loading').toBe(true);
  expect(html.includes('Your cart is empty'), 'not as empty: the server cannot know').toBe(false);

  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  await page.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [CART_STORAGE_KEY, JSON.stringify(ONE_VMC_CART)] as const);
  await keepServerHeading(page);
  await page.goto('/checkout');
  await expect(page.getByTestId('checkout-line')).toHaveCount(1);
  await expect(page.getByTestId('checkout-total')).toContainText(ONE_VMC_TOTAL);
  await expect(page.getByTestId('checkout-loading')).toHaveCount(0);
  expect(await serverHeadingKept(page)).toBe(true);
  expect(problems).toEqual([]);
});

test.describe('before the visitor chose about cookies', () => {
  test.use({ consent: null });

  test('the cookie banner is in the first HTML exactly when the browser shows it, and hydrates in place', async ({ page, request, context }) => {
    const BANNER = 'data-testid="cookie-consent"';
    expect((await (await request.get('/faq')).text()).includes(BANNER), 'no choice yet: the banner is in the HTML').toBe(true);
    for (const choice of ['declined', 'accepted']) {
      const html = await (await request.get('/faq', { headers: { cookie: `${CONSENT_COOKIE}=${choice}` } })).text();
      expect(html.includes(BANNER), `${choice}: no banner`).toBe(false);
    }

    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    await keepServerHeading(page);
    await page.goto('/faq');
    const banner = page.getByTestId('cookie-consent');
    await expect(banner).toBeVisible();
    expect(await serverHeadingKept(page)).toBe(true);
    await banner.getByRole('button', { name: 'Decline' }).click();
    await expect(banner).toBeHidden();
    expect((await context.cookies()).find((cookie) => cookie.name === CONSENT_COOKIE)?.value).toBe('declined');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently asked questions');
    await expect(banner).toHaveCount(0);
    expect(problems).toEqual([]);
  });
});
