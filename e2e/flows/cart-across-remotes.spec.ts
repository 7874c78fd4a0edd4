import type { Page } from '@playwright/test';
import { CART_STORAGE_KEY } from '../fixtures/cart';
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

test('one cart in the header (shell), the drawer (checkout) and the product page (storefront), kept over a reload', async ({ page }) => {
  await addTwoYearVmc(page);
  const toggle = page.getByTestId('cart-toggle');
  await expect(toggle).toHaveAttribute('data-count', '1');
  await expect(page.getByTestId('in-cart')).toHaveAttribute('data-count', '1');

  await page.reload();
  await expectRemotePage(page, 'storefront', 'Verified Mark Certificate (VMC)');
  await expect(toggle).toHaveAccessibleName('Open cart, 1 item, $2,749.68');
  await expect(page.getByTestId('in-cart')).toHaveAttribute('data-count', '1');

  // Quantity from the drawer: the header and the product page follow; it never goes below 1.
  await toggle.click();
  const line = drawer(page).getByTestId('cart-line');
  await expect(line).toHaveCount(1);
  const decrease = line.getByRole('button', { name: 'Decrease quantity of Verified Mark Certificate' });
  await expect(decrease).toBeDisabled();
  await line.getByRole('button', { name: 'Increase quantity of Verified Mark Certificate' }).click();
  await expect(line.getByTestId('cart-line-quantity')).toHaveText('2');
  await expect(drawer(page).getByTestId('cart-total')).toHaveText('$5,499.36');
  await expect(toggle).toHaveAttribute('data-count', '2');
  await expect(page.getByTestId('in-cart')).toHaveAttribute('data-count', '2');
  await decrease.click();
  await expect(line.getByTestId('cart-line-quantity')).toHaveText('1');
  await expect(decrease).toBeDisabled();
  await decrease.click({ force: true });
  await expect(line.getByTestId('cart-line-quantity')).toHaveText('1');

  // The checkout page reads the same cart.
  await drawer(page).getByRole('link', { name: 'Go to checkout' }).click();
  await expectRemotePage(page, 'checkout', 'Checkout');
  await expect(page.getByTestId('checkout-total')).toContainText('$2,749.68');

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

  await page.getByTestId('cart-toggle').click();
  await drawer(page).getByRole('button', { name: 'Increase quantity of Verified Mark Certificate' }).click();
  await expect(second.getByTestId('cart-toggle')).toHaveAccessibleName('Open cart, 2 items, $5,499.36');

  await second.getByTestId('cart-toggle').click();
  await drawer(second).getByRole('button', { name: 'Remove Verified Mark Certificate' }).click();
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
