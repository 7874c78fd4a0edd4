import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REMOTE_NAMES, type RemoteName } from '@bimi/contracts/remote-modules';
import { SITE_NAME } from '@bimi/contracts/site';
import { CONSENT_COOKIE } from '@bimi/contracts/consent';
import { test as base, expect, type Page, type Request } from '@playwright/test';

export { expect, SITE_NAME };
export const REMOTES = REMOTE_NAMES;
export type { RemoteName };
export { CONSENT_COOKIE };
/**
 * How long a success page may wait for the payment to be confirmed: the provider's webhook reaches
 * the bff asynchronously, and on a loaded machine (the Stripe double's signed webhook, six servers,
 * two browsers) it took over 10 s.
 */
export const PAYMENT_CONFIRMED_MS = 30_000;

/**
 * Where the web server of the running test's project put its temporary copy of the build, its data
 * and its mail (see support/serve.mjs): $E2E_RUN_DIR, or the folder the project's `metadata.runDir`
 * names under it (the stripe-double project's server, playwright.config.ts).
 */
export function runDir(): string {
  const dir = process.env.E2E_RUN_DIR;
  if (!dir) throw new Error('E2E_RUN_DIR is not set: run the flows through e2e/playwright.config.ts');
  const own = (base.info().project.metadata as { runDir?: unknown } | undefined)?.runDir;
  return typeof own === 'string' ? join(dir, own) : dir;
}

/** The temporary ROOT_DIR the bff serves shell/dist and mfe-*\/dist from. */
export function tempRoot(): string {
  return readFileSync(join(runDir(), 'root-dir'), 'utf8').trim();
}

const LOOPBACK = /^(?:https?|wss?):\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?\//;

interface Fixtures {
  /** The cookie choice the visitor already made; null leaves the banner up (cookie-consent flow). */
  consent: 'accepted' | 'declined' | null;
  /** Every request that tried to leave the machine; the flows fail if one is not intercepted. */
  externalRequests: string[];
}

export const test = base.extend<Fixtures>({
  consent: ['declined', { option: true }],

  externalRequests: [
    async ({ context }, use) => {
      const seen: string[] = [];
      // No network here but loopback: anything else is answered locally (a test's own
      // page.route takes precedence, e.g. the tag manager in the cookie-consent flow).
      await context.route(
        (url) => !LOOPBACK.test(url.href) && !url.href.startsWith('data:') && !url.href.startsWith('blob:'),
        (route) => {
          seen.push(route.request().url());
          return route.abort('internetdisconnected');
        },
      );
      await use(seen);
      expect(seen, 'requests that tried to leave the machine without a test intercepting them').toEqual([]);
    },
    { auto: true },
  ],

  context: async ({ context, consent, baseURL }, use) => {
    if (consent) await context.addCookies([{ name: CONSENT_COOKIE, value: consent, url: baseURL ?? 'http://127.0.0.1' }]);
    await use(context);
  },

  // A server-rendered page shows its content before its JavaScript runs, and a click there would
  // be lost: after each load the flows wait until the page is live, as a visitor would.
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await untilPageReady(page);
      return response;
    };
    page.reload = async (options) => {
      const response = await reload(options);
      await untilPageReady(page);
      return response;
    };
    await use(page);
  },
});

/** Waits, on a page the bff rendered on the server, until it is hydrated (shell/src/federation/PageReady.tsx). */
export async function untilPageReady(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getElementById('root')?.dataset.serverRendered !== 'true' || document.documentElement.dataset.pageReady === 'true');
}

/** Client-side navigation the way a link does it: react-router follows popstate. */
export async function navigateClientSide(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
  }, path);
}

/** Waits until a remote's page has rendered: its wrapper is in place and the page has its one h1. */
export async function expectRemotePage(page: Page, remote: RemoteName, title: string): Promise<void> {
  await expect(page).toHaveTitle(`${title} | ${SITE_NAME}`);
  await expect(page.locator(`[data-remote=${remote}]`)).toHaveCount(1);
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(page.locator('h1')).toBeVisible();
}

/** JSON bodies of the beacons the page sends to a path (sendBeacon or fetch), as they are sent. */
export function recordBeacons<T = Record<string, unknown>>(page: Page, path: string): T[] {
  const bodies: T[] = [];
  page.on('request', (request: Request) => {
    if (request.method() !== 'POST' || new URL(request.url()).pathname !== path) return;
    try {
      bodies.push(JSON.parse(request.postData() ?? 'null') as T);
    } catch {
      bodies.push({ unparsable: request.postData() } as T);
    }
  });
  return bodies;
}

export interface ClientErrorReport {
  kind: 'remote-load' | 'remote-render' | 'shell';
  remote?: string;
  message: string;
  path?: string;
}

/** Computed background colour of an element as [r, g, b, alpha]. */
export async function backgroundRgba(page: Page, selector: string): Promise<[number, number, number, number]> {
  const value = await page.locator(selector).evaluate((element) => getComputedStyle(element).backgroundColor);
  const parts = /rgba?\(([^)]+)\)/
    .exec(value)?.[1]
    ?.split(',')
    .map((part) => Number(part.trim()));
  if (!parts || parts.length < 3) throw new Error(`unexpected colour ${value}`);
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
}
