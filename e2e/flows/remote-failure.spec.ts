import type { Page, Route } from '@playwright/test';
import { CART_STORAGE_KEY, ONE_VMC_CART } from '../fixtures/cart';
import { makeExposedModuleThrow } from '../support/federation';
import { expect, expectRemotePage, navigateClientSide, recordBeacons, SITE_NAME, test, type ClientErrorReport, type RemoteName } from '../support/test';

const LOAD_FAILED = 'This part of the site could not be loaded';
const RENDER_FAILED = 'Something went wrong on this page';

function remoteError(page: Page, remote: RemoteName) {
  return page.locator(`[role=alert][data-remote-error=${remote}]`);
}

/** The header's cart toggle opens the checkout remote's drawer, and it closes again. */
async function expectCartToggleWorks(page: Page) {
  await page.getByTestId('cart-toggle').click();
  await expect(page.getByTestId('cart-drawer')).toBeVisible();
  await expect(page.getByTestId('cart-drawer')).toContainText('Your cart');
  await page.getByRole('button', { name: 'Close cart' }).click();
  await expect(page.getByTestId('cart-drawer')).toBeHidden();
}

/** A product page through the header's Products dropdown (hovered open, as with a mouse). */
async function openProductFromHeader(page: Page) {
  const header = page.getByTestId('site-header');
  await header.getByRole('button', { name: 'Products' }).hover();
  await header
    .getByRole('navigation', { name: 'Products' })
    .getByRole('link', { name: /^Common Mark Certificate/ })
    .click();
  await expect(page).toHaveURL('/products/digicert-common-mark-certificate');
  await expectRemotePage(page, 'storefront', 'Common Mark Certificate (CMC)');
}

interface DownCase {
  remote: RemoteName;
  /** A page of the remote that is down. */
  path: string;
  title: string;
  /** What of the frame is on that page besides the message. */
  frame: 'header' | 'small-footer' | 'minimal-footer';
  /** Goes to a page of another remote and checks it rendered. */
  elsewhere: (page: Page) => Promise<void>;
}

const DOWN_CASES: DownCase[] = [
  {
    // A page that needs the storefront's code (its form): a static one keeps the server's markup
    // and loads none (static-pages.spec.ts).
    remote: 'storefront',
    path: '/contact',
    title: 'Contact us',
    frame: 'header',
    elsewhere: async (page) => {
      const header = page.getByTestId('site-header');
      await header.getByRole('button', { name: 'Resources' }).hover();
      await header.getByRole('navigation', { name: 'Tools' }).getByRole('link', { name: 'BIMI checker' }).click();
      await expect(page).toHaveURL('/bimi-checker');
      await expectRemotePage(page, 'tools', 'BIMI checker');
    },
  },
  {
    remote: 'checkout',
    path: '/checkout',
    title: 'Checkout',
    frame: 'minimal-footer',
    elsewhere: async (page) => {
      await navigateClientSide(page, '/auth/signin');
      await expectRemotePage(page, 'account', 'Sign in');
    },
  },
  {
    remote: 'account',
    path: '/auth/signin',
    title: 'Sign in',
    frame: 'small-footer',
    elsewhere: async (page) => {
      await page.getByTestId('footer-small').getByRole('link', { name: 'Terms' }).click();
      await expect(page).toHaveURL('/terms');
      await expectRemotePage(page, 'storefront', 'Terms of service');
    },
  },
  {
    remote: 'tools',
    path: '/bimi-checker',
    title: 'BIMI checker',
    frame: 'header',
    elsewhere: openProductFromHeader,
  },
];

for (const down of DOWN_CASES) {
  test(`when ${down.remote} answers 503, its page shows an in-place message with Retry and the rest of the site works`, async ({ page }) => {
    const errors = recordBeacons<ClientErrorReport>(page, '/api/client-errors');
    const pattern = `**/mfe/${down.remote}/**`;
    await page.route(pattern, (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }));

    await page.goto(down.path);
    const message = remoteError(page, down.remote);
    await expect(message).toBeVisible();
    await expect(message).toContainText(LOAD_FAILED);
    await expect(message.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(page.locator(`[data-remote=${down.remote}]`)).toHaveCount(0);
    // The shell still knows the page: its title and its frame.
    await expect(page).toHaveTitle(`${down.title} | ${SITE_NAME}`);
    if (down.frame === 'header') {
      await expect(page.getByTestId('site-header')).toBeVisible();
      await expect(page.getByTestId('footer-full')).toBeVisible();
      await expectCartToggleWorks(page);
    } else {
      await expect(page.getByTestId('site-header')).toHaveCount(0);
      await expect(page.getByTestId(down.frame === 'small-footer' ? 'footer-small' : 'footer-minimal')).toBeVisible();
    }
    await expect.poll(() => errors.filter((report) => report.kind === 'remote-load' && report.remote === down.remote && report.path === down.path).length).toBeGreaterThan(0);

    // Another remote's page works meanwhile.
    await down.elsewhere(page);

    // Back on the page: still down, until the remote is back and the visitor retries.
    await page.goBack();
    await expect(page).toHaveURL(down.path);
    await expect(message).toBeVisible();
    await page.unroute(pattern);
    await message.getByRole('button', { name: 'Retry' }).click();
    await expectRemotePage(page, down.remote, down.title);
    await expect(message).toHaveCount(0);
  });
}

test('a remote that cannot be reached at all (network error) shows the message, and Retry recovers', async ({ page }) => {
  const errors = recordBeacons<ClientErrorReport>(page, '/api/client-errors');
  const pattern = '**/mfe/storefront/**';
  await page.route(pattern, (route) => route.abort('connectionrefused'));
  await page.goto('/contact');
  const message = remoteError(page, 'storefront');
  await expect(message).toContainText(LOAD_FAILED);
  await expect(page.getByTestId('footer-full')).toBeVisible();
  await expect.poll(() => errors.filter((report) => report.kind === 'remote-load' && report.remote === 'storefront').length).toBeGreaterThan(0);
  await expectCartToggleWorks(page);
  await page.unroute(pattern);
  await message.getByRole('button', { name: 'Retry' }).click();
  await expectRemotePage(page, 'storefront', 'Contact us');
});

test('a broken entry file (a script that does not parse) shows the message, and Retry recovers', async ({ page }) => {
  const errors = recordBeacons<ClientErrorReport>(page, '/api/client-errors');
  const pattern = '**/mfe/account/remoteEntry.js';
  await page.route(pattern, (route: Route) => route.fulfill({ status: 200, contentType: 'application/javascript', body: 'syntax error(' }));
  await page.goto('/forgot-password');
  const message = remoteError(page, 'account');
  await expect(message).toContainText(LOAD_FAILED);
  await expect(page.getByTestId('footer-small')).toBeVisible();
  await expect.poll(() => errors.filter((report) => report.kind === 'remote-load' && report.remote === 'account').length).toBeGreaterThan(0);
  // Another remote's page works meanwhile.
  await page.getByTestId('footer-small').getByRole('link', { name: 'Privacy policy' }).click();
  await expectRemotePage(page, 'storefront', 'Privacy policy');
  await page.goBack();
  await expect(message).toBeVisible();
  await page.unroute(pattern);
  await message.getByRole('button', { name: 'Retry' }).click();
  await expectRemotePage(page, 'account', 'Forgot your password?');
});

test('a routes chunk that failed loads after Retry', async ({ page }) => {
  // Only the chunk: the entry loads, and the chunk loader must ask again after the Retry.
  const pattern = '**/mfe/account/__federation_expose_routes*';
  await page.route(pattern, (route: Route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }));
  await page.goto('/forgot-password');
  const message = remoteError(page, 'account');
  await expect(message).toContainText(LOAD_FAILED);
  await page.unroute(pattern);
  await message.getByRole('button', { name: 'Retry' }).click();
  await expectRemotePage(page, 'account', 'Forgot your password?');
});

test("checkout's own chunk for a cart with lines: when it fails, a message with Retry inside the page, and Retry loads it", async ({ page }) => {
  await page.addInitScript(({ key, value }) => window.localStorage.setItem(key, value), { key: CART_STORAGE_KEY, value: JSON.stringify(ONE_VMC_CART) });
  const pattern = '**/mfe/checkout/cart-checkout.*';
  await page.route(pattern, (route: Route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }));
  await page.goto('/checkout');
  await expect(page.getByRole('alert').filter({ hasText: 'Your cart could not be loaded.' })).toBeVisible();
  // The page and its frame stay: only the cart's part failed.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Checkout');
  await expect(remoteError(page, 'checkout')).toHaveCount(0);
  await page.unroute(pattern);
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('checkout-line')).toHaveCount(1);
});

test("a payment's outcome whose chunk fails: a message with Retry inside the page, the cart stays, and Retry loads it", async ({ page }) => {
  await page.addInitScript(({ key, value }) => window.localStorage.setItem(key, value), { key: CART_STORAGE_KEY, value: JSON.stringify(ONE_VMC_CART) });
  const pattern = '**/mfe/checkout/payment-outcome.*';
  await page.route(pattern, (route: Route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }));
  await page.goto('/checkout?checkout=cs_test_outcome_chunk');
  const message = page.getByRole('alert').filter({ hasText: 'What became of your payment could not be loaded.' });
  await expect(message).toBeVisible();
  // Only the outcome's part failed: the page, its frame and the cart stay.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Checkout');
  await expect(page.getByTestId('checkout-line')).toHaveCount(1);
  await expect(remoteError(page, 'checkout')).toHaveCount(0);
  await page.unroute(pattern);
  const loaded = page.waitForResponse((response) => /\/mfe\/checkout\/payment-outcome\./.test(response.url()) && response.ok());
  await message.getByRole('button', { name: 'Retry' }).click();
  await loaded;
  await expect(message).toHaveCount(0);
  await expect(page.getByTestId('checkout-line')).toHaveCount(1);
});

test("the phone menu's code that fails to load leaves the page as it is, and the next tap opens the menu", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const pattern = '**/mfe/shell/phone-menu.*';
  await page.route(pattern, (route: Route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }));
  await page.goto('/about');
  await expectRemotePage(page, 'storefront', 'About us');
  const open = page.getByRole('button', { name: 'Open menu' });
  await open.click();
  await expect(open).toHaveAttribute('aria-expanded', 'false');
  // Only the menu is left out: the page and its frame stay.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('About us');
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
  await page.unroute(pattern);
  await open.click();
  await expect(page.getByRole('link', { name: 'Help center' }).last()).toBeVisible();
});

test('a remote that throws while rendering shows the message in place; the error is reported and the site works', async ({ page }) => {
  const errors = recordBeacons<ClientErrorReport>(page, '/api/client-errors');
  // A page whose content links nowhere, so the tools remote is not preloaded before the plugin is in.
  await page.goto('/terms');
  await expectRemotePage(page, 'storefront', 'Terms of service');
  await makeExposedModuleThrow(page, 'tools', './routes', 'e2e: the tools routes threw while rendering');

  await navigateClientSide(page, '/bimi-checker');
  const message = remoteError(page, 'tools');
  await expect(message).toBeVisible();
  await expect(message).toContainText(RENDER_FAILED);
  await expect(message.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(page).toHaveTitle(`BIMI checker | ${SITE_NAME}`);
  await expect
    .poll(
      () =>
        errors.filter((report) => report.kind === 'remote-render' && report.remote === 'tools' && report.path === '/bimi-checker' && report.message.includes('e2e: the tools routes threw'))
          .length,
    )
    .toBeGreaterThan(0);

  // Header, footer, cart and the other remotes keep working.
  await expect(page.getByTestId('footer-full')).toBeVisible();
  await expectCartToggleWorks(page);
  await openProductFromHeader(page);
  await navigateClientSide(page, '/auth/signup');
  await expectRemotePage(page, 'account', 'Create your account');
});

test("when checkout's files fail, the cart drawer shows the widget's compact message and the page stays usable", async ({ page }) => {
  const errors = recordBeacons<ClientErrorReport>(page, '/api/client-errors');
  const pattern = '**/mfe/checkout/**';
  await page.route(pattern, (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }));
  await page.goto('/');
  await expectRemotePage(page, 'storefront', 'BIMI mark certificates and DMARC enforcement');

  await page.getByTestId('cart-toggle').click();
  const message = remoteError(page, 'checkout');
  await expect(message).toBeVisible();
  await expect(message).toContainText(LOAD_FAILED);
  // The compact (widget) variant: a paragraph, not the page's heading.
  await expect(message.locator('h1')).toHaveCount(0);
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(message.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect.poll(() => errors.filter((report) => report.kind === 'remote-load' && report.remote === 'checkout').length).toBeGreaterThan(0);

  // The page stays usable: header navigation and footer links.
  await openProductFromHeader(page);
  await page.getByTestId('footer-full').getByRole('link', { name: 'About' }).click();
  await expectRemotePage(page, 'storefront', 'About us');

  // Checkout back: Retry brings the drawer.
  await page.unroute(pattern);
  await message.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('cart-drawer')).toBeVisible();
  await expect(message).toHaveCount(0);
});

test("the cart widget's message floats over the page, fully in view, and Close dismisses it", async ({ page }) => {
  await page.route('**/mfe/checkout/**', (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }));
  await page.goto('/about');
  await expectRemotePage(page, 'storefront', 'About us');
  await page.getByTestId('cart-toggle').click();
  const message = remoteError(page, 'checkout');
  await expect(message).toBeVisible();
  await expect(message.getByText(LOAD_FAILED)).toBeInViewport({ ratio: 1 });
  await message.getByRole('button', { name: 'Close' }).click();
  await expect(message).toHaveCount(0);
  // Opening the cart again shows the message again, until checkout answers.
  await page.getByTestId('cart-toggle').click();
  await expect(message).toBeVisible();
});
