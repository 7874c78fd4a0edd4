import type { Page } from '@playwright/test';
import { createVerifiedAccount, signInWithForm } from '../support/account';
import { sharedKeys } from '../support/federation';
import { expect, expectRemotePage, REMOTES, test } from '../support/test';

/** The shell theme's primary colour (packages/ui theme: brand.blue #1746c7). */
const PRIMARY_RGB = 'rgb(23, 70, 199)';
/** The Emotion cache key the shell creates its one cache with (packages/ui EMOTION_CACHE_KEY). */
const EMOTION_KEY = 'bimi';

/** Every MUI button marked theme-probe on the page: styled by the shell's theme, through the shell's Emotion cache. */
async function expectThemeProbes(page: Page, where: string) {
  const probes = page.getByTestId('theme-probe');
  await expect(probes.first(), `a theme probe on ${where}`).toBeVisible();
  // The pointer may rest on a probe after the click that led here: hover shows primary.dark.
  await page.mouse.move(1, 1);
  const count = await probes.count();
  for (let index = 0; index < count; index += 1) {
    await expect(probes.nth(index), `theme-probe background on ${where}`).toHaveCSS('background-color', PRIMARY_RGB);
  }
  const classLists = await probes.evaluateAll((buttons) => buttons.map((button) => [...button.classList]));
  for (const classes of classLists) {
    const emotionClasses = classes.filter((name) => !name.startsWith('Mui'));
    expect(emotionClasses.length, `Emotion classes on ${where}: ${classes.join(' ')}`).toBeGreaterThan(0);
    for (const name of emotionClasses) expect(name, `Emotion class on ${where}`).toMatch(new RegExp(`^${EMOTION_KEY}-`));
  }
  // One cache: every style element Emotion inserted carries the shell's key (global styles, such
  // as the input autofill keyframes of MUI's InputBase, are the same cache's `<key>-global` sheet).
  const emotionKeys = await page
    .locator('style[data-emotion]')
    .evaluateAll((elements) => [...new Set(elements.map((element) => (element.getAttribute('data-emotion') ?? '').split(' ')[0]?.replace(/-global$/, '')))]);
  expect(emotionKeys, `Emotion caches on ${where}`).toEqual([EMOTION_KEY]);
}

test('a visitor crosses all four remotes in one document, on one set of singletons', async ({ page }) => {
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document' && request.frame() === page.mainFrame()) documents.push(request.url());
  });

  // An account made beforehand, over the API (the sign-up flow covers the pages).
  const user = await createVerifiedAccount(page);

  // Home (storefront).
  await page.goto('/');
  await expectRemotePage(page, 'storefront', 'BIMI mark certificates and DMARC enforcement');
  await page.evaluate(() => {
    (window as unknown as { __e2eJourney?: string }).__e2eJourney = 'still the first document';
  });
  await expectThemeProbes(page, 'home');

  // A product page, through the header's Products dropdown (a mouse user hovers it open).
  const header = page.getByTestId('site-header');
  await header.getByRole('button', { name: 'Products' }).hover();
  const productsMenu = header.getByRole('navigation', { name: 'Products' });
  await expect(productsMenu).toBeVisible();
  await productsMenu.getByRole('link', { name: /^Verified Mark Certificate/ }).click();
  await expect(page).toHaveURL('/products/digicert-verified-mark-certificate');
  await expectRemotePage(page, 'storefront', 'Verified Mark Certificate (VMC)');
  await expect(page.locator('h1')).toHaveText('Verified Mark Certificate (VMC)');
  await expectThemeProbes(page, 'the product page');

  // Checkout (checkout remote): add the configured certificate, then go through the cart drawer.
  await page.getByTestId('add-to-cart').click();
  await page.getByTestId('cart-toggle').click();
  await page.locator('.MuiDrawer-paper').getByRole('link', { name: 'Go to checkout' }).click();
  await expect(page).toHaveURL('/checkout');
  await expectRemotePage(page, 'checkout', 'Checkout');
  await expectThemeProbes(page, 'checkout');

  // Sign-in (account remote), from the checkout page's link.
  await page.getByRole('link', { name: 'Sign in to continue' }).click();
  await expect(page).toHaveURL('/auth/signin?callbackUrl=%2Fcheckout');
  await expectRemotePage(page, 'account', 'Sign in');

  // Signing in returns to the checkout, and the floating Dashboard button leads to the account area.
  await signInWithForm(page, user);
  await expect(page).toHaveURL('/checkout');
  await expectRemotePage(page, 'checkout', 'Checkout');
  await page.getByTestId('floating-dashboard').click();
  await expect(page).toHaveURL('/account/dashboard');
  await expectRemotePage(page, 'account', 'Dashboard');
  await expectThemeProbes(page, 'the dashboard');

  // A tool (tools remote), through the account sidebar's Tools group.
  const sidebar = page.getByTestId('account-sidebar');
  await sidebar.getByRole('button', { name: 'Tools' }).click();
  await sidebar.getByRole('link', { name: 'SPF lookup' }).click();
  await expect(page).toHaveURL('/account/tools/spf-lookup');
  await expectRemotePage(page, 'tools', 'SPF lookup');

  // Never a full reload.
  expect(await page.evaluate(() => (window as unknown as { __e2eJourney?: string }).__e2eJourney)).toBe('still the first document');
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
  expect(documents).toHaveLength(1);

  await page.screenshot({ path: '/tmp/e2e-visitor-journey-tool.png' });

  // One instance of each singleton, provided by the shell and used by the remotes.
  for (const pkg of ['react', 'react-dom', 'react-router-dom', '@emotion/react', 'valtio', '@bimi/cart']) {
    const keys = await sharedKeys(page, pkg);
    expect(keys.length, `${pkg} is in the federation share scope`).toBeGreaterThan(0);
    for (const { key, versions } of keys) {
      expect(versions, `${key}: exactly one registered version`).toHaveLength(1);
      const [only] = versions;
      expect(only?.loaded, `${key} is loaded`).toBe(true);
      expect(only?.from, `${key} came from the shell`).toBe('shell');
    }
  }
  // The remotes consumed the shell's copies rather than their own.
  const routerUsers = (await sharedKeys(page, 'react-router-dom')).flatMap((key) => key.versions.flatMap((version) => version.useIn));
  for (const remote of REMOTES) expect(routerUsers, `${remote} uses the shell's router`).toContain(remote);
  const cartUsers = (await sharedKeys(page, '@bimi/cart')).flatMap((key) => key.versions.flatMap((version) => version.useIn));
  expect(cartUsers, "the checkout remote uses the shell's cart store").toContain('checkout');
});
