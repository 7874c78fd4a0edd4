// What a page downloads before its main content renders, measured in Chromium with Playwright.
//
// "First render" is the moment the page's <h1> inside <main> is first in the DOM with a layout
// box and not visibility:hidden: a MutationObserver installed before any page script records
// performance.now() at that moment. A request counts as "before first render" when its
// response had fully arrived by then (Resource Timing responseEnd ≤ that moment); the
// document itself counts as one. The browser starts with an empty cache for every run.
import { chromium } from '@playwright/test';

export const CHROMIUM_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/**
 * Every non-loopback request goes to a closed local port and fails at once; loopback
 * (localhost, 127.0.0.0/8, [::1]) always bypasses a proxy in Chromium. Only used when the
 * site under test is itself on loopback.
 */
export const NO_EXTERNAL_NETWORK_ARGS = ['--proxy-server=http://127.0.0.1:9', '--proxy-bypass-list=127.0.0.1;localhost;[::1]'];

/** Lighthouse's default mobile device (Moto G Power), so both halves of the report see the same layout. */
export const MOBILE_DEVICE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
};

export const FIRST_RENDER_SELECTOR = 'main h1';

function installFirstRenderProbe(selector) {
  const record = () => {
    if (window.__benchFirstRender) return true;
    const heading = document.querySelector(selector);
    if (!heading || heading.getClientRects().length === 0 || getComputedStyle(heading).visibility === 'hidden') return false;
    window.__benchFirstRender = {
      at: performance.now(),
      text: (heading.textContent ?? '').trim().slice(0, 120),
      remoteError: heading.closest('[data-remote-error]')?.getAttribute('data-remote-error') ?? null,
      remote: heading.closest('[data-remote]')?.getAttribute('data-remote') ?? null,
    };
    return true;
  };
  const observer = new MutationObserver(() => {
    if (record()) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  // The page is interactive once the shell marks it ready (<html data-page-ready="true">: the route's
  // remote hydrated or rendered, shell/src/federation/PageReady.tsx).
  const ready = new MutationObserver(() => {
    if (document.documentElement?.dataset.pageReady !== 'true') return;
    window.__benchInteractive = { at: performance.now() };
    ready.disconnect();
  });
  // On `document`: the script runs before <html> exists.
  ready.observe(document, { attributes: true, subtree: true, attributeFilter: ['data-page-ready'] });
}

export async function launchBrowser({ blockExternal }) {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // The benchmark's own signal handler closes the browser, then stops the bff.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [...CHROMIUM_ARGS, ...(blockExternal ? NO_EXTERNAL_NETWORK_ARGS : [])],
  });
}

/**
 * One cold load of `url`; `cookie` (a Cookie header) signs the visit in.
 * @param {import('@playwright/test').Browser} browser
 * @returns {Promise<{ firstRenderMs: number, heading: string, remote: string|null, remoteError: string|null,
 *   document: object, resources: object[], consoleErrors: string[], external: string[], failed: string[] }>}
 */
export async function loadOnce(browser, url, { timeoutMs = 30_000, device = MOBILE_DEVICE, cookie } = {}) {
  const context = await browser.newContext({ ...device, serviceWorkers: 'block', extraHTTPHeaders: cookie ? { cookie } : undefined });
  try {
    const page = await context.newPage();
    const origin = new URL(url).origin;
    const consoleErrors = [];
    const external = [];
    const failed = [];
    page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text().split('\n')[0].slice(0, 300)));
    page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message.split('\n')[0].slice(0, 300)}`));
    page.on('request', (request) => {
      const requestUrl = request.url();
      if (!requestUrl.startsWith('data:') && !requestUrl.startsWith(origin) && !requestUrl.startsWith('blob:')) external.push(requestUrl);
    });
    page.on('requestfailed', (request) => failed.push(`${request.url()} (${request.failure()?.errorText ?? 'failed'})`));
    await page.addInitScript(installFirstRenderProbe, FIRST_RENDER_SELECTOR);
    await page.goto(url, { waitUntil: 'commit', timeout: timeoutMs });
    try {
      await page.locator(FIRST_RENDER_SELECTOR).first().waitFor({ state: 'visible', timeout: timeoutMs });
      await page.waitForFunction(() => Boolean(window.__benchFirstRender), null, { timeout: 5000 });
      await page.waitForFunction(() => Boolean(window.__benchInteractive), null, { timeout: timeoutMs });
    } catch (error) {
      const text = await page
        .locator('body')
        .innerText({ timeout: 1000 })
        .catch(() => '');
      throw new Error(
        `${url}: no visible "${FIRST_RENDER_SELECTOR}", or not marked ready (data-page-ready), within ${timeoutMs / 1000} s` +
          (consoleErrors.length ? `; console errors: ${consoleErrors.slice(0, 3).join(' | ')}` : '') +
          (text ? `; page text: ${text.replace(/\s+/g, ' ').slice(0, 200)}` : ''),
        { cause: error },
      );
    }
    const probe = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType('navigation');
      const pick = (entry) => ({
        url: entry.name,
        initiatorType: entry.initiatorType,
        startTime: entry.startTime,
        responseEnd: entry.responseEnd,
        encodedBodySize: entry.encodedBodySize,
        transferSize: entry.transferSize,
      });
      return {
        mark: window.__benchFirstRender,
        interactiveAt: window.__benchInteractive.at,
        document: navigation ? pick(navigation) : null,
        resources: performance.getEntriesByType('resource').map(pick),
      };
    });
    return {
      firstRenderMs: probe.mark.at,
      interactiveMs: probe.interactiveAt,
      heading: probe.mark.text,
      remote: probe.mark.remote,
      remoteError: probe.mark.remoteError,
      document: probe.document,
      resources: probe.resources,
      consoleErrors,
      external,
      failed,
    };
  } finally {
    await context.close();
  }
}

/**
 * Files the page had received by the time it was interactive (the document included), in arrival
 * order: what it needs before a visitor can use it. A server-rendered page shows before any of it.
 */
export function receivedBeforeInteractive(load) {
  const before = load.resources.filter((r) => r.responseEnd > 0 && r.responseEnd <= load.interactiveMs);
  return [...(load.document ? [load.document] : []), ...before.sort((a, b) => a.responseEnd - b.responseEnd)];
}
