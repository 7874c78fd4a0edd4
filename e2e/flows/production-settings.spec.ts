import type { BrowserContext, Page } from '@playwright/test';
import { expect, expectRemotePage, test } from '../support/test';
import { newUser, signInWithForm, VERIFY_MAIL } from '../support/account';
import { linkFromMail } from '../support/mail';

/**
 * Issue 10, the production-settings tier: a few flows against the bff as production runs it
 * (NODE_ENV=production behind a TLS-terminating proxy on https://localhost, TRUST_PROXY,
 * __Host- Secure cookies, HSTS), which every other flow's NODE_ENV=test server never exercises.
 * Run by the `production-settings` project of playwright.config.ts (serve.mjs --production).
 */

async function cookie(context: BrowserContext, name: string) {
  return (await context.cookies()).find((candidate) => candidate.name === name);
}

async function sessionOf(page: Page): Promise<unknown> {
  return (await page.request.get('/api/auth/session')).json();
}

test('sign up, verify by mail, sign in, the account page, sign out: over https with __Host- Secure cookies', async ({ page, context }) => {
  const user = newUser('Paula Production');

  await page.goto('/auth/signup');
  await expectRemotePage(page, 'account', 'Create your account');
  const form = page.getByRole('form', { name: 'Create your account' });
  await form.getByLabel('Name').fill(user.name);
  await form.getByLabel('Email').fill(user.email);
  await form.getByLabel('Password', { exact: true }).fill(user.password);
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/auth\/check-email\?/);

  // The link in the mail starts with PUBLIC_URL, the https address.
  const link = await linkFromMail(user.email, VERIFY_MAIL, /\/auth\/verify\?token=/);
  expect(link.origin).toBe(new URL(page.url()).origin);
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('alert')).toHaveText('Your email address is verified. You can sign in now.');

  await page.goto('/auth/signin?callbackUrl=%2Faccount%2Fdashboard');
  await signInWithForm(page, user);
  await expect(page).toHaveURL('/account/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Paula');

  // Finding 9: the session cookie is set, and as production wants it.
  expect(await cookie(context, '__Host-bimi.session')).toMatchObject({ path: '/', secure: true, httpOnly: true, sameSite: 'Lax' });
  expect(await cookie(context, '__Host-next-auth.csrf-token')).toMatchObject({ path: '/', secure: true, httpOnly: true, sameSite: 'Lax' });
  expect(await cookie(context, 'bimi.session')).toBeUndefined();
  expect(await sessionOf(page)).toMatchObject({ user: { email: user.email } });

  // A write from the page itself (its Origin is the site's): the name is saved.
  await page.goto('/account/settings/profile');
  await expectRemotePage(page, 'account', 'Profile');
  const nameForm = page.getByRole('form', { name: 'Your name' });
  await nameForm.getByLabel('Name').fill('Paula P. Production');
  await nameForm.getByRole('button', { name: 'Save name' }).click();
  await expect(nameForm.getByText('Your name was saved.')).toBeVisible();

  await page.goto('/');
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('user-menu').getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL('/auth/signin');
  expect(await sessionOf(page)).toEqual({});
  expect(await cookie(context, '__Host-bimi.session')).toBeUndefined();
});

test('the cart across remotes, priced by the bff over https', async ({ page }) => {
  await page.goto('/products/digicert-verified-mark-certificate');
  await expectRemotePage(page, 'storefront', 'Verified Mark Certificate (VMC)');
  await page.getByTestId('plan-2').click();
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByText('Verified Mark Certificate added to cart')).toBeVisible();
  await expect(page.getByTestId('cart-toggle')).toHaveAttribute('data-count', '1');

  // The checkout page asks POST /api/cart/quote (an anonymous write, checked for a same-site Origin).
  const quote = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/cart/quote');
  await page.goto('/checkout');
  await expectRemotePage(page, 'checkout', 'Checkout');
  expect((await quote).status()).toBe(200);
  await expect(page.getByTestId('checkout-total')).toContainText('$2,749.68');
});

test('the DMARC inspector against the fixture DNS server', async ({ page }) => {
  await page.goto('/dmarc-inspector');
  await expectRemotePage(page, 'tools', 'DMARC inspector');
  const form = page.getByRole('form', { name: 'DMARC inspector' });
  await form.getByLabel('Domain').fill('good.example');
  await form.getByRole('button', { name: 'Inspect DMARC' }).click();
  await expect(page).toHaveURL('/dmarc-inspector?domain=good.example');
  await expect(page.locator('[data-check-id="dmarc.policy.reject"]').first()).toHaveAttribute('data-status', 'pass');
  await expect(page.getByRole('region', { name: 'Records found' })).toContainText('v=DMARC1; p=reject');
});
