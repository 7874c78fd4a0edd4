import type { Page } from '@playwright/test';
import { CART_STORAGE_KEY } from '../fixtures/cart';
import { remoteLoadsZod } from '../support/federation';
import { expect, expectRemotePage, test } from '../support/test';

function drawer(page: Page) {
  return page.locator('.MuiDrawer-paper').filter({ has: page.getByTestId('cart-drawer') });
}

async function addTwoYearVmc(page: Page) {
  await page.goto('/products/digicert-verified-mark-certificate');
  await expectRemotePage(page, 'storefront', 'Verified Mark Certificate (VMC)');
  await page.getByTestId('plan-2').click();
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByText('Verified Mark Certificate added to cart')).toBeVisible();
}

test("the product page's configurator loads no Zod of the storefront's: the cart's schemas are the shell's", async ({ page }) => {
  // Issue 34: the catalog's products and prices come without their zod schemas (./product-schema).
  const loadsZod = remoteLoadsZod(page, 'storefront');
  await addTwoYearVmc(page);
  await expect(page.getByTestId('cart-toggle')).toHaveAttribute('data-count', '1');
  expect(await loadsZod()).toBe(false);
});

test('one cart in the header (shell), the drawer (checkout) and the product page (storefront), kept over a reload', async ({ page }) => {
  await addTwoYearVmc(page);
  const toggle = page.getByTestId('cart-toggle');
  await expect(toggle).toHaveAttribute('data-count', '1');
  await expect(page.getByTestId('in-cart')).toHaveAttribute('data-count', '1');

  await page.reload();
  await expectRemotePage(page, 'storefront', 'Verified Mark Certificate (VMC)');
  await expect(toggle).toHaveAccessibleName('Open cart, 1 item, $2,749.68');
  await expect(page.getByTestId('in-cart')).toHaveAttribute('data-count', '1');

  // A certificate line has no quantity buttons (a second copy is one tap away otherwise): it is edited in the
  // configurator, whose "Update cart" replaces the line; the header and the product page follow.
  await toggle.click();
  const line = drawer(page).getByTestId('cart-line');
  await expect(line).toHaveCount(1);
  await expect(line.getByRole('button', { name: /quantity of Verified Mark Certificate/ })).toHaveCount(0);
  await line.getByRole('link', { name: 'Edit Verified Mark Certificate' }).click();
  await expect(page).toHaveURL(/domains=1&years=2&logos=1/);
  await expect(page.getByTestId('plan-2')).toHaveAttribute('aria-checked', 'true');
  await page.getByTestId('certificate-configurator').getByLabel('Domains').fill('2');
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByText('Verified Mark Certificate updated in cart')).toBeVisible();
  await expect(line).toHaveCount(1);
  await expect(line.getByTestId('cart-line-options')).toHaveText('2 domains · 2 years · Trademark registered');
  await expect(drawer(page).getByTestId('cart-total')).toHaveText('$5,499.36');
  await expect(toggle).toHaveAttribute('data-count', '1');
  await expect(page.getByTestId('in-cart')).toHaveAttribute('data-count', '1');
  await drawer(page).getByRole('button', { name: 'Close cart' }).click();
  await expect(page.getByTestId('add-to-cart')).toHaveText('Add to cart');
  await toggle.click();

  // The checkout page reads the same cart.
  await drawer(page).getByRole('link', { name: 'Go to checkout' }).click();
  await expectRemotePage(page, 'checkout', 'Checkout');
  await expect(page.getByTestId('checkout-total')).toContainText('$5,499.36');

  // Removing empties it everywhere (checkout has no header: back to the product page).
  await page.goBack();
  await expectRemotePage(page, 'storefront', 'Verified Mark Certificate (VMC)');
  await toggle.click();
  await drawer(page).getByRole('button', { name: 'Remove Verified Mark Certificate' }).click();
  await expect(drawer(page).getByTestId('cart-empty')).toBeVisible();
  // The open drawer hides the page from assistive technology, so the header is read by its data.
  await expect(toggle).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('cart-dot')).toHaveAttribute('data-visible', 'false');
  await expect(page.getByTestId('in-cart')).toHaveCount(0);
});

test('a second tab sees every change', async ({ page, context }) => {
  await addTwoYearVmc(page);
  const second = await context.newPage();
  await second.goto('/about');
  await expectRemotePage(second, 'storefront', 'About us');
  await expect(second.getByTestId('cart-toggle')).toHaveAttribute('data-count', '1');

  await page.getByTestId('add-to-cart').click();
  await expect(second.getByTestId('cart-toggle')).toHaveAccessibleName('Open cart, 2 items, $5,499.36');

  await second.getByTestId('cart-toggle').click();
  const removes = drawer(second).getByRole('button', { name: 'Remove Verified Mark Certificate' });
  await removes.first().click();
  await expect(removes).toHaveCount(1);
  await removes.first().click();
  await page.getByTestId('cart-toggle').click();
  await expect(drawer(page).getByTestId('cart-empty')).toBeVisible();
  await expect(page.getByTestId('cart-toggle')).toHaveAttribute('data-count', '0');
});

test('corrupt or outdated stored carts are dropped with a warning, and the site keeps working', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await page.goto('/about');
  await expectRemotePage(page, 'storefront', 'About us');
  for (const stored of ['{not json', JSON.stringify({ version: 1, items: [{ uniqueId: 'u1', id: 'verified-mark-certificate', name: 'VMC', quantity: 1, price: 144720 }] })]) {
    await page.evaluate(({ key, value }) => window.localStorage.setItem(key, value), { key: CART_STORAGE_KEY, value: stored });
    await page.reload();
    await expectRemotePage(page, 'storefront', 'About us');
    await expect(page.getByTestId('cart-toggle')).toHaveAccessibleName('Open cart, empty');
  }
  expect(warnings).toEqual(expect.arrayContaining([expect.stringContaining('not valid JSON'), expect.stringContaining('from version 1')]));
  await addTwoYearVmc(page);
  await expect(page.getByTestId('cart-toggle')).toHaveAttribute('data-count', '1');
});
