import { CART_STORAGE_KEY, ONE_VMC_CART } from '../fixtures/cart';
import { expect, test } from '../support/test';
import { signedInOnDashboard } from '../support/account';

/** Spec §4, §8: two idle hours end the session with a toast; the cart stays. */
test('two hours without activity sign the user out with a toast, and the cart is kept', async ({ page }) => {
  await page.clock.install();
  await page.addInitScript(
    ({ key, value }) => {
      if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, value);
    },
    { key: CART_STORAGE_KEY, value: JSON.stringify(ONE_VMC_CART) },
  );
  await signedInOnDashboard(page);
  const cartBefore = await page.evaluate((key) => window.localStorage.getItem(key), CART_STORAGE_KEY);
  expect(cartBefore).toContain('verified-mark-certificate');

  // Activity restarts the count: after 1h59 idle, a key press, then another 1h59, still signed in.
  await page.clock.fastForward('01:59:00');
  await page.keyboard.press('Shift');
  await page.clock.fastForward('01:59:00');
  await expect(page).toHaveURL('/account/dashboard');
  await expect(page.getByText('Your session has expired', { exact: false })).toHaveCount(0);

  // Past two hours since the key press: the next 60-second check ends the session.
  await page.clock.fastForward('00:02:00');
  const toast = page.getByRole('status').filter({ hasText: 'Your session has expired for security reasons. Your cart items are safely saved!' });
  await expect(toast).toBeVisible();
  await expect(toast.getByRole('button', { name: 'Dismiss' })).toBeVisible();

  await page.clock.runFor(1000);
  await expect(page).toHaveURL('/auth/signin?message=session_expired');
  await page.clock.runFor(500);
  await expect.poll(async () => (await page.request.get('/api/auth/session')).json()).toEqual({});
  await expect(page.getByText('Your session has expired for security reasons. Please sign in again.')).toBeVisible();

  // The toast goes after its 5 seconds.
  await page.clock.runFor(4000);
  await expect(toast).toHaveCount(0);

  expect(await page.evaluate((key) => window.localStorage.getItem(key), CART_STORAGE_KEY)).toBe(cartBefore);
  await page.goto('/account/dashboard');
  await expect(page).toHaveURL(/\/auth\/signin\?callbackUrl=%2Faccount%2Fdashboard&error=SessionRequired$/);
});
