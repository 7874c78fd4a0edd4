import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { certificateCartItems, dmarcCartItem } from '@bimi/catalog/cart-items';
import { CSRF_HEADER, AUTH_PATHS } from '@bimi/contracts/auth';
import { createVerifiedAccount, signInByApi } from '../support/account';
import { publishedRoutes } from '../support/apps';
import { expect, PAYMENT_CONFIRMED_MS, test } from '../support/test';

/**
 * Issue 30, finding 9: at 375 px checkout with certificate details was 420 px wide and an
 * incomplete order page 407 px (Add Monitor and the tab bar cut off); at 1280 px checkout grew to
 * 1,537 px once a logo was picked (the details form's hidden file input, 100% wide). An account with
 * data (orders paid and unpaid, an incomplete certificate, a monitor, a transaction, organizations,
 * contacts) opens every checkout and account page, at 375 and 1280 px, picks a logo where a page
 * asks for one, and no page is wider than the window. Each page is photographed for a person to look
 * at (/tmp/e2e-width/).
 */

const SHOTS = '/tmp/e2e-width';
const quiet = { error: () => {} };
const VMC = certificateCartItems({ productId: 'verified-mark-certificate', domains: 3, years: 2, logos: 2, sourcePageType: 'product' }, { settings: {}, logger: quiet });
const DMARC = dmarcCartItem({ productId: 'dmarc-plus', emailVolume: 1_000_000, billingPeriod: 'monthly', sourcePageType: 'product' }, { settings: {}, logger: quiet });
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 64 64"><title>Acme</title><rect width="64" height="64" fill="#1a5fb4"/></svg>`;
/** A domain of the fixture DNS zones (bff/test/fixtures/tools/zones.ts). */
const MONITORED = 'good.example';

async function csrf(page: Page): Promise<Record<string, string>> {
  const { csrfToken } = (await (await page.request.get(AUTH_PATHS.csrf)).json()) as { csrfToken: string };
  return { [CSRF_HEADER]: csrfToken };
}

async function post(page: Page, path: string, data: unknown): Promise<Record<string, unknown>> {
  const answer = await page.request.post(path, { headers: await csrf(page), data });
  expect(answer.status(), `${path}: ${await answer.text()}`).toBeLessThan(300);
  return (await answer.json()) as Record<string, unknown>;
}

interface AccountData {
  /** A VMC paid without its details: the order page asks for them (and for a logo). */
  incompleteOrderId: string;
  /** A checkout started and never paid. */
  unpaidCheckoutId: string;
  paidCheckoutId: string;
}

/** An account as a customer's looks after a first purchase: organizations, contacts, a monitor, orders paid and unpaid, a transaction. */
async function accountWithData(page: Page): Promise<AccountData> {
  await signInByApi(page, await createVerifiedAccount(page));
  await post(page, '/api/account/organizations', { name: 'Acme Corporation International Holdings' });
  await post(page, '/api/account/organizations', { name: 'Acme Labs' });
  for (const kind of ['legal', 'technical', 'billing']) {
    await post(page, '/api/account/contacts', {
      kind,
      name: `Patricia ${kind} Montgomery-Smith`,
      email: `${kind}.contact@acme-corporation.example`,
      phone: null,
      jobTitle: null,
      company: null,
    });
  }
  await post(page, '/api/account/monitors/create', { domain: MONITORED });
  const vmc = { productId: 'verified-mark-certificate', domains: 3, years: 2, logos: 1, quantity: 1 };
  const dmarc = { productId: 'dmarc-plus', emailVolume: 1_000_000, billingPeriod: 'monthly', quantity: 1 };
  const paid = await post(page, '/api/account/checkout', { items: [vmc, dmarc], acceptTerms: true });
  await page.goto(String(paid.url));
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page).toHaveURL(/\/checkout\/success\?checkout=/);
  await expect(page.getByTestId('confirmed-order')).toHaveCount(2, { timeout: PAYMENT_CONFIRMED_MS });
  const unpaid = await post(page, '/api/account/checkout', { items: [{ ...vmc, domains: 1 }], acceptTerms: true });
  return { incompleteOrderId: String((paid.orderIds as string[])[0]), unpaidCheckoutId: String(unpaid.checkoutId), paidCheckoutId: String(paid.checkoutId) };
}

/** Every checkout and account page (the remotes' published route tables), with the account's own ids in place of the parameters. */
function pagesToVisit(data: AccountData): string[] {
  const routes = ['mfe-checkout', 'mfe-account', 'mfe-tools'].flatMap((app) => publishedRoutes(app).routes);
  const paths = routes
    .filter((route) => (route.layout === 'checkout' || route.layout === 'account') && !route.redirectTo)
    .map((route) => {
      if (route.path === '/checkout/success') return `/checkout/success?checkout=${data.paidCheckoutId}`;
      if (route.path === '/checkout/cancel') return `/checkout/cancel?checkout=${data.unpaidCheckoutId}`;
      return route.path.replace(':orderId', encodeURIComponent(data.incompleteOrderId)).replace(':domain', MONITORED);
    });
  const filters = ['all', 'active', 'pending', 'incomplete', 'expiring'].map((status) => `/account/orders?status=${status}`);
  return [...paths, ...filters];
}

/** How much wider than the window the document is (0 when it fits), after the page has settled. */
async function overflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number; widest: string[] }> {
  return page.evaluate(() => {
    const innerWidth = document.documentElement.clientWidth;
    // What sticks out, to name in a failure.
    const widest = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => element.getBoundingClientRect().right > innerWidth + 1)
      .slice(0, 5)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].slice(0, 2).join('.')} right=${Math.round(element.getBoundingClientRect().right)}`,
      );
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, widest };
  });
}

async function settle(page: Page): Promise<void> {
  await expect(page.locator('h1').first()).toBeVisible();
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await expect(page.locator('.MuiSkeleton-root')).toHaveCount(0);
}

async function expectWithinWindow(page: Page, name: string, width: number): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${width}-${name}.png`, fullPage: true });
  const measured = await overflow(page);
  expect(measured.scrollWidth, `${page.url()} at ${width}px: ${measured.widest.join('; ')}`).toBeLessThanOrEqual(width);
}

/** Picks the logo in the first certificate details form of the page, as the buyer does. */
async function pickLogo(page: Page): Promise<void> {
  const file = page.locator('input[type=file]').first();
  await file.setInputFiles({ name: 'acme.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(LOGO) });
  await expect(page.getByText('acme.svg: passes the SVG Tiny PS check.').first()).toBeVisible();
}

for (const width of [375, 1280]) {
  test(`at ${width}px every checkout and account page, with data, fits the window`, async ({ page }) => {
    test.setTimeout(420_000);
    mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width, height: width < 768 ? 812 : 800 });
    const data = await accountWithData(page);

    for (const path of pagesToVisit(data)) {
      const name =
        path
          .replace(/\?.*$/, '')
          .replace(/[^a-z0-9]+/gi, '-')
          .replace(/^-|-$/g, '') + (path.includes('status=') ? `-${path.split('status=')[1]}` : '');
      if (path === '/checkout') {
        // A cart with two logos of a certificate and a plan: the review, the account, the details of each logo.
        await page.evaluate((cart) => window.localStorage.setItem('bimi.cart', cart), JSON.stringify({ version: 2, items: [...VMC, DMARC] }));
      }
      await page.goto(path);
      await settle(page);
      await expectWithinWindow(page, name, width);
      if (path === '/checkout' || path.startsWith('/account/orders/')) {
        await expect(page.locator('input[type=file]').first()).toBeAttached();
        await pickLogo(page);
        await expectWithinWindow(page, `${name}-logo-picked`, width);
      }
      if (path.startsWith('/account/orders/')) {
        // The renewal dialog (turning renewal off asks first) fits the window too.
        await page.getByLabel('Renew automatically').click();
        const dialog = page.getByRole('dialog');
        await expect(dialog).toBeVisible();
        const box = (await dialog.boundingBox({ timeout: 10_000 }))!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        await page.screenshot({ path: `${SHOTS}/${width}-${name}-renewal-dialog.png` });
        await dialog.getByRole('button', { name: 'Keep renewing' }).click();
        await expect(dialog).toHaveCount(0);
      }
    }
  });
}
