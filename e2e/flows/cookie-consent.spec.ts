import type { BrowserContext, Page } from '@playwright/test';
import { CONSENT_COOKIE, expect, expectRemotePage, navigateClientSide, recordBeacons, test } from '../support/test';
import { signedInOnDashboard } from '../support/account';

const TAG_MANAGER_ID = 'GTM-E2ETEST';
const YEAR_SECONDS = 365 * 24 * 60 * 60;

// These flows start before the visitor made a choice.
test.use({ consent: null });

/** Answers the tag manager locally (no network here) and records every request made to it. */
async function interceptTagManager(page: Page): Promise<string[]> {
  const requested: string[] = [];
  await page.route(/^https:\/\/[^/]*googletagmanager\.com\//, (route) => {
    requested.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'application/javascript', body: '/* tag manager, e2e */' });
  });
  return requested;
}

async function consentCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === CONSENT_COOKIE);
}

/** The stored choice lasts 365 days (spec §4, §9). */
function expectAboutAYear(expires: number | undefined) {
  const inAYear = Date.now() / 1000 + YEAR_SECONDS;
  expect(expires, 'cookie expiry').toBeDefined();
  expect(Math.abs((expires ?? 0) - inAYear), 'cookie expires 365 days from now').toBeLessThan(10 * 60);
}

async function openHome(page: Page) {
  await page.goto('/');
  await expectRemotePage(page, 'storefront', 'BIMI mark certificates and DMARC enforcement');
}

/** The tag manager was neither requested nor put in the page. */
async function expectNoTagManager(page: Page, requested: string[]) {
  // Everything the page asks for on its own has been asked for (remotes, preloads, beacons).
  await page.waitForLoadState('networkidle');
  expect(requested).toEqual([]);
  await expect(page.locator('script#tag-manager')).toHaveCount(0);
  expect(await page.evaluate(() => 'dataLayer' in window)).toBe(false);
}

test('before a choice the banner shows and no tag is loaded; Decline keeps it that way for a year', async ({ page, context }) => {
  const requested = await interceptTagManager(page);
  const pageViews = recordBeacons(page, '/api/analytics/pageview');

  await openHome(page);
  const banner = page.getByTestId('cookie-consent');
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Accept' })).toBeVisible();
  expect(await consentCookie(context)).toBeUndefined();
  // The page-view beacon does not wait for consent.
  await expect.poll(() => pageViews.filter((view) => view.path === '/').length).toBe(1);
  await expectNoTagManager(page, requested);

  // Client-side navigation sends its own page view, still without any tag.
  await navigateClientSide(page, '/faq');
  await expectRemotePage(page, 'storefront', 'Frequently asked questions');
  await expect.poll(() => pageViews.find((view) => view.path === '/faq')).toMatchObject({ path: '/faq', title: 'Frequently asked questions' });
  await expect(banner).toBeVisible();

  await banner.getByRole('button', { name: 'Decline' }).click();
  await expect(banner).toHaveCount(0);
  const cookie = await consentCookie(context);
  expect(cookie?.value).toBe('declined');
  expect(cookie?.path).toBe('/');
  expect(cookie?.sameSite).toBe('Lax');
  expectAboutAYear(cookie?.expires);
  await expectNoTagManager(page, requested);

  await page.reload();
  await expectRemotePage(page, 'storefront', 'Frequently asked questions');
  await expect(page.getByTestId('cookie-consent')).toHaveCount(0);
  await expect.poll(() => pageViews.filter((view) => view.path === '/faq').length).toBe(2);
  await expectNoTagManager(page, requested);
});

test('Accept loads the tag manager with the configured id, and the choice holds for a year', async ({ page, context }) => {
  const requested = await interceptTagManager(page);
  const pageViews = recordBeacons(page, '/api/analytics/pageview');

  await openHome(page);
  const banner = page.getByTestId('cookie-consent');
  await expect(banner).toBeVisible();
  await expect.poll(() => pageViews.filter((view) => view.path === '/').length).toBe(1);
  await expectNoTagManager(page, requested);

  await banner.getByRole('button', { name: 'Accept' }).click();
  await expect(banner).toHaveCount(0);
  await expect.poll(() => requested.length).toBe(1);
  const script = new URL(requested[0] ?? 'about:blank');
  expect(script.origin).toBe('https://www.googletagmanager.com');
  expect(script.pathname).toBe('/gtm.js');
  expect(script.searchParams.get('id')).toBe(TAG_MANAGER_ID);
  await expect(page.locator('script#tag-manager')).toHaveCount(1);
  expect(await page.evaluate(() => (window as unknown as { dataLayer?: Array<{ event?: string }> }).dataLayer?.[0]?.event)).toBe('gtm.js');

  const cookie = await consentCookie(context);
  expect(cookie?.value).toBe('accepted');
  expectAboutAYear(cookie?.expires);

  await page.reload();
  await expectRemotePage(page, 'storefront', 'BIMI mark certificates and DMARC enforcement');
  await expect(page.getByTestId('cookie-consent')).toHaveCount(0);
  // Accepted before: the tag manager loads with the page, once.
  await expect.poll(() => requested.length).toBe(2);
  await expect(page.locator('script#tag-manager')).toHaveCount(1);
  await expect.poll(() => pageViews.filter((view) => view.path === '/').length).toBe(2);
});

test('a dialog opened before the choice lies above the banner: its buttons are never under it', async ({ page }) => {
  await signedInOnDashboard(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByTestId('cookie-consent')).toBeVisible();
  await page.getByRole('region', { name: 'Domain monitors' }).getByRole('button', { name: 'Add Monitor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Monitor' });
  await expect(dialog).toBeVisible();
  // A click reaches the button only when nothing lies over it.
  await dialog.getByRole('button', { name: 'Cancel' }).click({ timeout: 5000 });
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('cookie-consent')).toBeVisible();
});
