import { expect, test } from '../support/test';
import { signedInOnDashboard } from '../support/account';

test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

/** Spec §2: at phone width the account area has a top bar, bottom tabs and the More sheet with Sign Out. */
test('the signed-in account area at 375px: top bar, bottom tabs, More sheet with Sign Out', async ({ page }) => {
  const user = await signedInOnDashboard(page);
  await expect(page.getByTestId('account-layout')).toHaveAttribute('data-variant', 'phone');
  await expect(page.getByTestId('mobile-top-bar')).toBeVisible();
  const tabs = page.getByTestId('mobile-tabs');
  for (const label of ['Dashboard', 'Tools', 'Orders', 'Buy Now', 'More']) await expect(tabs.getByText(label, { exact: true })).toBeVisible();

  await tabs.getByRole('link', { name: 'Buy Now' }).click();
  await expect(page).toHaveURL('/account/buy-now');
  await expect(page.getByRole('article', { name: 'Verified Mark Certificate' })).toContainText('From $1,447.20 a year per domain');
  // Nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  await tabs.getByRole('button', { name: 'More' }).click();
  const sheet = page.getByTestId('more-sheet');
  await expect(sheet).toContainText(`Signed in as ${user.email}`);
  await sheet.getByRole('link', { name: 'Support tickets' }).click();
  await expect(page).toHaveURL('/account/support');

  // A support ticket: the shared rules, then the server's reference in the list.
  const form = page.getByRole('form', { name: 'New support ticket' });
  await form.getByLabel('Subject').fill('Logo not showing');
  await form.getByLabel('Message').fill('Too short');
  await form.getByRole('button', { name: 'Send ticket' }).click();
  await expect(form.getByText('Message must be at least 10 characters')).toBeVisible();
  await form.getByLabel('Message').fill('Our logo does not show in Gmail after validation.');
  await form.getByRole('button', { name: 'Send ticket' }).click();
  await expect(page.getByTestId('ticket-list')).toContainText('Logo not showing');

  await tabs.getByRole('button', { name: 'More' }).click();
  await page.getByTestId('more-sheet').getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL('/auth/signin');
  await expect(page.getByTestId('mobile-tabs')).toHaveCount(0);
  expect(await (await page.request.get('/api/auth/session')).json()).toEqual({});
});
