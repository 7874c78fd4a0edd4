import type { Page } from '@playwright/test';
import { certificateCartItems } from '@bimi/catalog/cart-items';
import { AUTH_PATHS, CSRF_HEADER } from '@bimi/contracts/auth';
import { ORDER_PATHS, type OrderList } from '@bimi/contracts/orders';
import { createVerifiedAccount, signInByApi } from '../support/account';
import { ordersCommand } from '../support/fulfilment';
import { expect, PAYMENT_CONFIRMED_MS, test } from '../support/test';

/**
 * Issue 11, with the store's clock under the flow's control (the controlled-clock project:
 * serve.mjs --clock, DEV_CLOCK=true, a server of its own): a 1-year certificate, paid, validated
 * and issued, renews by default; eleven months later it is still `active`; turning renewal off
 * then moves it under `expiring`, since its paid year ends within 60 days.
 */

const DAY_MS = 86_400_000;
const CART_KEY = 'bimi.cart';
const VMC = certificateCartItems({ productId: 'verified-mark-certificate', domains: 1, years: 1, logos: 1, sourcePageType: 'product' }, { settings: {}, logger: { error: () => {} } });
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 64 64"><title>Acme</title><rect width="64" height="64" fill="#1a5fb4"/></svg>`;

async function csrf(page: Page): Promise<Record<string, string>> {
  const { csrfToken } = (await (await page.request.get(AUTH_PATHS.csrf)).json()) as { csrfToken: string };
  return { [CSRF_HEADER]: csrfToken };
}

async function post(page: Page, url: string, data: unknown): Promise<{ id: string }> {
  const answer = await page.request.post(url, { headers: await csrf(page), data });
  expect(answer.status(), await answer.text()).toBeLessThan(300);
  return (await answer.json()) as { id: string };
}

test('a certificate stays active while it renews; eleven months on, turning renewal off moves it under expiring', async ({ page }) => {
  test.setTimeout(180_000);
  await page.addInitScript(
    ({ key, value }) => {
      if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, value);
    },
    { key: CART_KEY, value: JSON.stringify({ version: 2, items: VMC }) },
  );
  const user = await createVerifiedAccount(page);
  await signInByApi(page, user);

  // Buy it with the test card, details to follow.
  await page.goto('/checkout');
  await expect(page.getByTestId('checkout-signed-in')).toBeVisible();
  await page.getByLabel('Finish these details later').check();
  await page.getByLabel('I accept the terms of service').check();
  await page.getByLabel('I accept the refund policy').check();
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/api\/payments\/test\/checkout\//);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByTestId('confirmed-order')).toHaveCount(1, { timeout: PAYMENT_CONFIRMED_MS });

  // The details through the API (the checkout and order pages' forms have flows of their own), then
  // the operator validates and issues it.
  const [order] = ((await (await page.request.get(ORDER_PATHS.orders)).json()) as OrderList).orders;
  if (!order) throw new Error('no order after payment');
  const organization = await post(page, '/api/account/organizations', { name: 'Acme Inc.' });
  const contacts: Record<string, string> = {};
  for (const kind of ['legal', 'technical', 'billing']) {
    contacts[kind] = (await post(page, '/api/account/contacts', { kind, name: `Pat ${kind}`, email: `${kind}@acme.example`, phone: null, jobTitle: null, company: null })).id;
  }
  const details = await page.request.put(ORDER_PATHS.orderDetails(order.id), {
    headers: await csrf(page),
    data: { organizationId: organization.id, domains: ['acme.example'], logoSvg: LOGO, trademarkStatus: 'Registered', contacts },
  });
  expect(details.status(), await details.text()).toBe(200);
  for (const step of ['organization', 'domain-control', 'trademark', 'logo']) ordersCommand('step', order.number, step, 'done');
  ordersCommand('issue', order.number);

  // Eleven months later (the session has long ended: sign in again), it renews: active, not expiring.
  const moved = await page.request.post('/dev/clock', { data: { advanceMs: 330 * DAY_MS } });
  expect(moved.status()).toBe(200);
  await signInByApi(page, user);
  await page.goto(`/account/orders/${order.id}`);
  await expect(page.getByTestId('order-status').first()).toHaveAttribute('data-status', 'active');
  await page.goto('/account/orders?status=expiring');
  await expect(page.getByTestId('orders-filter-expiring')).toHaveText('Expiring (0)');

  // Renewal off: the paid year ends within 60 days, so it moves under expiring, on the dashboard too.
  await page.goto(`/account/orders/${order.id}`);
  const renewal = page.getByRole('switch', { name: 'Renew automatically' });
  await expect(renewal).toBeChecked();
  await renewal.click();
  const dialog = page.getByRole('dialog', { name: 'Turn renewal off?' });
  await expect(dialog).toContainText(/Renewal off: your certificate ends on /);
  await dialog.getByRole('button', { name: 'Turn renewal off' }).click();
  await expect(renewal).not.toBeChecked();
  await expect(page.getByTestId('order-status').first()).toHaveAttribute('data-status', 'expiring');
  await page.goto('/account/orders?status=expiring');
  await expect(page.getByTestId('orders-filter-expiring')).toHaveText('Expiring (1)');
  await expect(page.getByTestId('order-row').filter({ hasText: 'Verified Mark Certificate' })).toHaveCount(1);
  await page.goto('/account/dashboard');
  await expect(page.getByTestId('dashboard-expiring').getByRole('link', { name: /Verified Mark Certificate/ })).toBeVisible();
});
