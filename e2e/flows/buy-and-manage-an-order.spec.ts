import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { certificateCartItems, dmarcCartItem } from '@bimi/catalog/cart-items';
import { formatUsd } from '@bimi/catalog/prices';
import { AUTH_PATHS, CSRF_HEADER } from '@bimi/contracts/auth';
import { createVerifiedAccount, newUser, signInByApi, signInWithForm, VERIFY_MAIL } from '../support/account';
import { ordersCommand } from '../support/fulfilment';
import { linkFromMail } from '../support/mail';
import { expect, expectRemotePage, PAYMENT_CONFIRMED_MS, test } from '../support/test';

/**
 * Issue 11, end to end: a cart of a 2-year VMC for 3 domains and a monthly DMARC Plus plan →
 * checkout → an account created inline (verified through the real SMTP sink) → certificate
 * details → the test card → success → the orders under their filters → the receipt PDF. And the
 * unhappy paths: a declined card, renewal off. Against the built-in test payments (test-settings)
 * and, in the stripe-double project, through the real Stripe SDK against the Stripe API double;
 * where Stripe's hosted pages behave otherwise, the flow branches on the payment page it reached.
 */

const CART_KEY = 'bimi.cart';
const VMC = certificateCartItems({ productId: 'verified-mark-certificate', domains: 3, years: 2, logos: 1, sourcePageType: 'product' }, { settings: {}, logger: { error: () => {} } });
const DMARC = dmarcCartItem({ productId: 'dmarc-plus', emailVolume: 1_000_000, billingPeriod: 'monthly', sourcePageType: 'product' }, { settings: {}, logger: { error: () => {} } });
const CART = { version: 2, items: [...VMC, DMARC] };

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 64 64"><title>Acme</title><rect width="64" height="64" fill="#1a5fb4"/></svg>`;
const WIDE_LOGO = LOGO.replace('0 0 64 64', '0 0 128 64');

/** Serious and critical axe findings (WCAG 2.2 AA), one line each, so a failure names the rule and the elements. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** The cart as a visitor left it, put in place once (the success page empties it later, and it must stay empty). */
async function seedCart(page: Page): Promise<void> {
  await page.addInitScript(
    ({ key, value }) => {
      if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, value);
    },
    { key: CART_KEY, value: JSON.stringify(CART) },
  );
}

async function storedCartItems(page: Page): Promise<unknown[]> {
  return page.evaluate((key) => (JSON.parse(window.localStorage.getItem(key) ?? '{"items":[]}') as { items: unknown[] }).items, CART_KEY);
}

async function csrf(page: Page): Promise<Record<string, string>> {
  const { csrfToken } = (await (await page.request.get(AUTH_PATHS.csrf)).json()) as { csrfToken: string };
  return { [CSRF_HEADER]: csrfToken };
}

/** The legal, technical and billing contacts of the account's settings. */
async function addContacts(page: Page): Promise<void> {
  const headers = await csrf(page);
  for (const kind of ['legal', 'technical', 'billing']) {
    const answer = await page.request.post('/api/account/contacts', {
      headers,
      data: { kind, name: `Pat ${kind}`, email: `${kind}@acme.example`, phone: null, jobTitle: null, company: null },
    });
    expect(answer.status(), await answer.text()).toBe(201);
  }
}

/** The certificate details form of one line: organization created inline, 3 domains, the logo, contacts. */
async function fillDetails(page: Page, scope: ReturnType<Page['getByRole']>) {
  await scope.getByLabel('New organization name').fill('Acme Inc.');
  await scope.getByRole('button', { name: 'Create organization' }).click();
  await expect(scope.getByLabel('Organization', { exact: true })).toHaveValue(/.+/);
  for (const [index, domain] of ['acme.example', 'mail.acme.example', 'news.acme.example'].entries()) await scope.getByLabel(`Domain ${index + 1}`).fill(domain);
  // A logo that is not Tiny PS is refused, and says why.
  const file = scope.locator('input[type=file]');
  await file.setInputFiles({ name: 'wide.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(WIDE_LOGO) });
  await expect(scope.getByTestId('logo-failures')).toContainText('viewBox is not square');
  await file.setInputFiles({ name: 'acme.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(LOGO) });
  await expect(scope.getByText('acme.svg: passes the SVG Tiny PS check.')).toBeVisible();
  await expect(scope.getByLabel('Trademark status')).toHaveValue('Registered');
  for (const kind of ['Legal', 'Technical', 'Billing']) {
    const select = scope.getByLabel(`${kind} contact`);
    await select.selectOption({ index: 1 });
  }
}

/** Which payment page checkout opened: the bff's built-in test payments, or Stripe's (the API double's hosted Checkout). */
type PaymentPage = 'test' | 'stripe';

function paymentPageOf(url: string): PaymentPage {
  return /\/pay\/cs_test_/.test(new URL(url).pathname) ? 'stripe' : 'test';
}

/** The payment page (either): a card number, a future expiry, a code. */
async function payWithCard(page: Page, number: string): Promise<void> {
  await expect(page.getByText('test', { exact: false }).first()).toBeVisible();
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay/ }).click();
}

async function acceptAndPay(page: Page): Promise<PaymentPage> {
  await page.getByLabel('I accept the terms of service').check();
  await page.getByLabel('I accept the refund policy').check();
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  // The built-in test payment page, or the Stripe double's hosted page (E2E_PAYMENTS=stripe-double).
  await expect(page).toHaveURL(/\/api\/payments\/test\/checkout\/|\/pay\/cs_test_/);
  return paymentPageOf(page.url());
}

/** A signed-in buyer pays the seeded cart (details later) with a card that is declined; answers which payment page it was. */
async function payTheSeededCartDeclined(page: Page): Promise<PaymentPage> {
  await seedCart(page);
  const user = await createVerifiedAccount(page);
  await signInByApi(page, user);
  await page.goto('/checkout');
  await expect(page.getByTestId('checkout-signed-in')).toBeVisible();
  await page.getByLabel('Finish these details later').check();
  const paymentPage = await acceptAndPay(page);
  await payWithCard(page, '4000 0000 0000 0002');
  return paymentPage;
}

for (const { width, detailsNow } of [
  { width: 1280, detailsNow: true },
  { width: 375, detailsNow: false },
]) {
  test(`at ${width}px: cart → checkout → account created inline → ${detailsNow ? 'details' : 'details later'} → pay with 4242 → the orders, the receipt PDF`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    await seedCart(page);
    await page.goto('/checkout');
    await expectRemotePage(page, 'checkout', 'Checkout');

    // Review: the lines with their options and billing periods, priced by the bff's quote only.
    const quote = (await (
      await page.request.post('/api/cart/quote', {
        data: {
          items: [
            { productId: 'verified-mark-certificate', domains: 3, years: 2, logos: 1, quantity: 1 },
            { productId: 'dmarc-plus', emailVolume: 1_000_000, billingPeriod: 'monthly', quantity: 1 },
          ],
        },
      })
    ).json()) as { total: number; items: { amount: number }[] };
    const lines = page.getByTestId('checkout-line');
    await expect(lines).toHaveCount(2);
    await expect(lines.nth(0).getByTestId('checkout-line-options')).toHaveText('3 domains · 2 years');
    await expect(lines.nth(0).getByTestId('checkout-line-billing')).toContainText('Billed every 2 years; renews on');
    await expect(lines.nth(1).getByTestId('checkout-line-billing')).toContainText('Billed every month; renews on');
    await expect(lines.nth(0).getByTestId('checkout-line-amount')).toHaveText(formatUsd(quote.items[0]!.amount));
    await expect(page.getByTestId('checkout-amount-due')).toHaveText(formatUsd(quote.total));
    await expect(page.getByRole('button', { name: `Pay ${formatUsd(quote.total)}` })).toBeDisabled();

    // A certificate line is changed with Edit (back in the configurator), as in the cart drawer; a plan is bought once, with no quantity to change.
    await expect(lines.nth(0).getByRole('link', { name: 'Edit Verified Mark Certificate' })).toHaveAttribute('href', /\/products\/.*domains=3.*years=2.*edit=/);
    await expect(page.getByRole('button', { name: 'Increase quantity of Verified Mark Certificate' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Increase quantity of DMARC Plus' })).toHaveCount(0);
    await expect(page.getByTestId('checkout-amount-due')).toHaveText(formatUsd(quote.total));
    await page.screenshot({ path: `/tmp/e2e-checkout-review-${width}.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // An account, created without leaving checkout; the mailed link brings the buyer back here.
    const user = newUser();
    const signUp = page.getByRole('form', { name: 'Create your account' });
    await signUp.getByLabel('Name').fill(user.name);
    await signUp.getByLabel('Email').fill(user.email);
    await signUp.getByLabel('Password').fill(user.password);
    await signUp.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByTestId('checkout-check-email')).toContainText(user.email);
    const link = await linkFromMail(user.email, VERIFY_MAIL, /\/auth\/verify\?token=/);
    await page.goto(link.pathname + link.search);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/auth\/signin\?.*callbackUrl=%2Fcheckout/);
    await signInWithForm(page, user);
    await expect(page).toHaveURL('/checkout');
    await expect(page.getByTestId('checkout-signed-in')).toContainText(user.email);
    await expect(lines).toHaveCount(2);

    await addContacts(page);
    await page.reload();
    const details = page.getByRole('group', { name: 'Details for Verified Mark Certificate' });
    if (detailsNow) {
      await fillDetails(page, details);
    } else {
      await page.getByLabel('Finish these details later').check();
      await expect(details).toHaveCount(0);
    }
    await page.screenshot({ path: `/tmp/e2e-checkout-details-${width}.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    const paymentPage = await acceptAndPay(page);
    await payWithCard(page, '4242 4242 4242 4242');

    // Success: confirmed by the bff, then (only then) the cart is empty.
    await expect(page).toHaveURL(/\/checkout\/success\?checkout=/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order confirmed');
    await expect(page.getByTestId('confirmed-order')).toHaveCount(2, { timeout: PAYMENT_CONFIRMED_MS });
    expect(await storedCartItems(page)).toEqual([]);
    await page.screenshot({ path: `/tmp/e2e-checkout-success-${width}.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // The certificate order is pending validation, or incomplete until its details are in.
    await page.goto(`/account/orders?status=${detailsNow ? 'pending' : 'incomplete'}`);
    await expectRemotePage(page, 'account', 'My orders');
    const row = page.getByTestId('order-row').filter({ hasText: 'Verified Mark Certificate' });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('order-status')).toHaveAttribute('data-status', detailsNow ? 'pending' : 'incomplete');
    await expect(page.getByTestId('order-row').filter({ hasText: 'DMARC Plus' })).toHaveCount(0);
    await page.screenshot({ path: `/tmp/e2e-orders-${width}.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    const number = await row.getAttribute('data-order');
    expect(number).toMatch(/^O-\d+$/);
    await page.getByTestId('orders-filter-active').click();
    await expect(page.getByTestId('order-row').filter({ hasText: 'DMARC Plus' })).toHaveCount(1);

    if (detailsNow) {
      // The operator validates by hand and records each step, then issuance: the order is active.
      for (const step of ['organization', 'domain-control', 'trademark', 'logo']) ordersCommand('step', number!, step, 'done');
      await page.getByTestId('orders-filter-pending').click();
      await row.getByRole('link', { name: /Verified Mark Certificate/ }).click();
      const steps = page.getByTestId('validation-step');
      await expect(steps).toHaveCount(5);
      await expect(steps.nth(3)).toHaveAttribute('data-state', 'done');
      await expect(steps.nth(4)).toHaveAttribute('data-state', 'waiting');
      ordersCommand('issue', number!);
      await page.reload();
      await expect(page.getByTestId('order-status').first()).toHaveAttribute('data-status', 'active');
      await expect(page.getByTestId('validation-step').nth(4)).toHaveAttribute('data-state', 'done');
      await page.screenshot({ path: `/tmp/e2e-order-${width}.png`, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
    } else {
      await page.getByTestId('orders-filter-incomplete').click();
      await row.getByRole('link', { name: /Verified Mark Certificate/ }).click();
      await expect(page).toHaveURL(/\/account\/orders\/[^/]+$/);
      await expect(page.getByTestId('order-needs-action')).toBeVisible();
      const form = page.getByRole('group', { name: /^Details for order / });
      await fillDetails(page, form);
      await page.getByRole('button', { name: 'Submit details' }).click();
      await expect(page.getByTestId('order-status').first()).toHaveAttribute('data-status', 'pending');
      // The cart's one payment paid both orders: said, so its amount is not read as this order's.
      await expect(page.getByTestId('shared-payment')).toContainText('One payment for 2 orders: ');
      await page.screenshot({ path: `/tmp/e2e-order-${width}.png`, fullPage: true });
      await page.goto('/account/orders?status=pending');
      await expect(page.getByTestId('order-row').filter({ hasText: 'Verified Mark Certificate' })).toHaveCount(1);
    }

    // The receipt of the payment opens as a PDF.
    await page.goto('/account/billing/transactions');
    await expectRemotePage(page, 'account', 'Transactions');
    await expect(page.getByTestId('transaction-row').first()).toBeVisible();
    const receipt = page.getByRole('link', { name: /Receipt PDF for/ }).first();
    const href = await receipt.getAttribute('href');
    expect(href).toBeTruthy();
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect((await pdf.body()).subarray(0, 4).toString()).toBe('%PDF');
    if (paymentPage === 'stripe') {
      // With Stripe the receipt is Stripe's invoice PDF (the bff redirects to it), beside its hosted invoice page.
      expect(new URL(pdf.url()).pathname).toMatch(/^\/invoices\/in_[0-9a-f]+\/pdf$/);
      const invoice = page.getByTestId('transaction-row').first().getByRole('link', { name: 'Invoice' });
      const hosted = await page.request.get((await invoice.getAttribute('href'))!);
      expect(hosted.status()).toBe(200);
      expect(hosted.headers()['content-type']).toContain('text/html');
      expect(await hosted.text()).toMatch(/Invoice DBL-\d+ paid/);
    }
    await page.screenshot({ path: `/tmp/e2e-transactions-${width}.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('a payment still being confirmed is told as news, with the way to the orders, and no page opens', async ({ page }) => {
  await seedCart(page);
  await signInByApi(page, await createVerifiedAccount(page));
  await page.goto('/checkout');
  await expect(page.getByTestId('checkout-signed-in')).toBeVisible();
  await page.getByLabel('Finish these details later').check();
  // The bff's answer while the buyer's last page is paid and not yet confirmed (bff/test/orders-lifecycle.test.ts makes it for real).
  const message = 'Your last payment went through and is being confirmed: your orders show as paid in a moment, so no new payment was started.';
  await page.route('**/api/account/checkout', (route) => route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ message, code: 'payment-being-confirmed' }) }));
  await page.getByLabel('I accept the terms of service').check();
  await page.getByLabel('I accept the refund policy').check();
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page.getByTestId('checkout-being-confirmed')).toContainText(message);
  await expect(page.getByTestId('checkout-failure')).toHaveCount(0);
  await expect(page).toHaveURL(/\/checkout$/);
  await page.getByRole('link', { name: 'View your orders' }).click();
  await expect(page).toHaveURL('/account/orders');
});

test('a declined card returns to checkout with the reason, and the cart is intact', async ({ page }) => {
  const paymentPage = await payTheSeededCartDeclined(page);

  // The test payment page sends the buyer back with the reason. Stripe Checkout shows the decline on
  // its own page and keeps the buyer there (no event tells the bff): its Cancel link goes back, where
  // the attempt is named as not completed.
  let reason = 'Your card was declined.';
  if (paymentPage === 'stripe') {
    await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
    await page.getByRole('link', { name: 'Cancel' }).click();
    reason = 'The payment was not completed.';
  }
  await expect(page).toHaveURL(/\/checkout\/cancel\?checkout=/);
  await expect(page.getByTestId('payment-outcome')).toContainText(reason);
  // A decline is not a cancel: the heading says the payment was not completed (Stripe's Cancel link is one).
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(paymentPage === 'stripe' ? 'Checkout cancelled' : 'Payment not completed');
  expect(await storedCartItems(page)).toHaveLength(2);
  await page.screenshot({ path: '/tmp/e2e-checkout-declined.png', fullPage: true });
  await page.getByRole('link', { name: 'Back to checkout' }).click();
  await expect(page).toHaveURL(/\/checkout\?checkout=/);
  await expect(page.getByTestId('payment-outcome')).toContainText(reason);
  await expect(page.getByTestId('checkout-line')).toHaveCount(2);
});

test('issue 30: a declined order is paid again from its own page for its own amount; the other is cancelled; a paid page says so', async ({ page }) => {
  const paymentPage = await payTheSeededCartDeclined(page);
  if (paymentPage === 'stripe') {
    // Stripe keeps a declined buyer on its page; going back leaves the orders awaiting payment.
    await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
    await page.getByRole('link', { name: 'Cancel' }).click();
  }
  await expect(page).toHaveURL(/\/checkout\/cancel\?checkout=/);
  expect(await storedCartItems(page)).toHaveLength(2);
  const failedState = paymentPage === 'stripe' ? 'awaiting-payment' : 'payment-failed';

  // Each try names its state (not "Incomplete" for all) and offers its one action.
  await page.goto('/account/orders');
  await expectRemotePage(page, 'account', 'My orders');
  const vmcRow = page.getByTestId('order-row').filter({ hasText: 'Verified Mark Certificate' });
  await expect(vmcRow.getByTestId('order-status')).toHaveAttribute('data-state', failedState);
  await expect(vmcRow.getByTestId('order-status')).toHaveText(paymentPage === 'stripe' ? 'Awaiting payment' : 'Payment failed');
  await vmcRow.getByRole('link', { name: /^Order O-/ }).click();
  await expect(page.getByTestId('order-pay')).toBeVisible();
  await expect(page.getByText('Renew automatically')).toHaveCount(0);
  const vmcAmount = /\$[\d,.]+/.exec((await page.getByTestId('order-amount').textContent()) ?? '')?.[0] ?? 'no amount';
  await expect(page.getByTestId('order-pay')).toContainText(vmcAmount);
  // Declined on its own page too: the way back is to the order, not to the cart.
  await page.getByTestId('order-pay').click();
  await expect(page).toHaveURL(/\/api\/payments\/test\/checkout\/|\/pay\/cs_test_/);
  await payWithCard(page, '4000 0000 0000 0002');
  if (paymentPage === 'stripe') {
    await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
    await page.getByRole('link', { name: 'Cancel' }).click();
  }
  await expect(page).toHaveURL(/\/checkout\/cancel\?checkout=.*order-payment=1/);
  await expect(page.getByTestId('payment-outcome')).toContainText('The order is kept: pay it again from its page.');
  await page.screenshot({ path: `/tmp/e2e-order-declined-${paymentPage}.png`, fullPage: true });
  await page.getByRole('link', { name: 'Back to your order' }).click();
  await expect(page).toHaveURL(/\/account\/orders\//);
  await page.getByTestId('order-pay').click();
  await expect(page).toHaveURL(/\/api\/payments\/test\/checkout\/|\/pay\/cs_test_/);
  // This order's amount alone: "Pay $8,249.04" on the test page, "Pay 8249.04 USD" on the Stripe double's.
  if (paymentPage === 'test') await expect(page.getByRole('button', { name: /^Pay/ })).toHaveText(`Pay ${vmcAmount}`);
  else await expect(page.locator('body')).toContainText(`Pay ${vmcAmount.replace(/[$,]/g, '')} USD`);
  const ownPage = page.url();
  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/checkout\/success\?checkout=/);
  await expect(page.getByTestId('confirmed-order')).toHaveCount(1, { timeout: PAYMENT_CONFIRMED_MS });
  // Paying one order already placed leaves the cart as it was.
  await expect(page).toHaveURL(/order-payment=1/);
  expect(await storedCartItems(page)).toHaveLength(2);

  if (paymentPage === 'test') {
    // Back to the paid page: it says it was paid and links to the order, once; no "try again".
    await page.goto(ownPage);
    await expect(page.getByText('This payment went through: your order is paid.')).toHaveCount(1);
    await expect(page.getByText(/try again/)).toHaveCount(0);
    await page.getByRole('link', { name: 'View your order' }).click();
    await expect(page.getByTestId('order-status')).toHaveAttribute('data-state', 'details-needed');
  }

  // The DMARC try is cancelled from its page: it can no longer be paid.
  await page.goto('/account/orders');
  const dmarcRow = page.getByTestId('order-row').filter({ hasText: 'DMARC Plus' });
  await dmarcRow.getByRole('link', { name: /^Order O-/ }).click();
  await page.getByTestId('order-cancel').click();
  await page.getByTestId('order-cancel-confirm').click();
  await expect(page.getByTestId('order-status')).toHaveAttribute('data-state', 'cancelled');
  await expect(page.getByTestId('order-status')).toHaveText('Cancelled');
  await expect(page.getByTestId('order-pay')).toHaveCount(0);
  await page.screenshot({ path: '/tmp/e2e-order-cancelled.png', fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
});

test('issue 30: buying the same certificate for the same domains again asks first, and buys it once confirmed', async ({ page }) => {
  test.setTimeout(180_000);
  // The cart holds the certificate alone (and again after the first purchase empties it).
  await page.addInitScript(
    ({ key, value }) => {
      if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, value);
    },
    { key: CART_KEY, value: JSON.stringify({ version: 2, items: VMC }) },
  );
  const user = await createVerifiedAccount(page);
  await signInByApi(page, user);
  await addContacts(page);
  await page.goto('/checkout');
  await expect(page.getByTestId('checkout-signed-in')).toBeVisible();
  const details = page.getByRole('group', { name: 'Details for Verified Mark Certificate' });
  await fillDetails(page, details);
  await acceptAndPay(page);
  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/checkout\/success\?checkout=/);
  await expect(page.getByTestId('confirmed-order')).toHaveCount(1, { timeout: PAYMENT_CONFIRMED_MS });

  // The same certificate for the same domains: the buyer reads why and confirms.
  await page.evaluate(({ key, value }) => window.localStorage.setItem(key, value), { key: CART_KEY, value: JSON.stringify({ version: 2, items: VMC }) });
  await page.goto('/checkout');
  await expect(page.getByTestId('checkout-line')).toHaveCount(1);
  await details.getByLabel('Organization', { exact: true }).selectOption({ index: 1 });
  for (const [index, domain] of ['acme.example', 'mail.acme.example', 'news.acme.example'].entries()) await details.getByLabel(`Domain ${index + 1}`).fill(domain);
  await details.locator('input[type=file]').setInputFiles({ name: 'acme.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(LOGO) });
  await expect(details.getByText('acme.svg: passes the SVG Tiny PS check.')).toBeVisible();
  for (const kind of ['Legal', 'Technical', 'Billing']) await details.getByLabel(`${kind} contact`).selectOption({ index: 1 });
  await page.getByLabel('I accept the terms of service').check();
  await page.getByLabel('I accept the refund policy').check();
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  const duplicate = page.getByTestId('checkout-duplicate');
  await expect(duplicate).toContainText('You already have this certificate for the same domains (order O-');
  await expect(page).toHaveURL(/\/checkout$/);
  await page.screenshot({ path: '/tmp/e2e-checkout-duplicate.png', fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByTestId('checkout-duplicate-confirm').click();
  await expect(page).toHaveURL(/\/api\/payments\/test\/checkout\/|\/pay\/cs_test_/);
});

test('turning renewal off asks first, then the plan shows under expiring', async ({ page }) => {
  await page.addInitScript(
    ({ key, value }) => {
      if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, value);
    },
    { key: CART_KEY, value: JSON.stringify({ version: 2, items: [DMARC] }) },
  );
  const user = await createVerifiedAccount(page);
  await signInByApi(page, user);
  await page.goto('/checkout');
  await acceptAndPay(page);
  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page.getByTestId('confirmed-order')).toHaveCount(1, { timeout: PAYMENT_CONFIRMED_MS });
  await page
    .getByTestId('confirmed-order')
    .getByRole('link', { name: /^Order / })
    .click();

  const renewal = page.getByRole('switch', { name: 'Renew automatically' });
  await expect(renewal).toBeChecked();
  await renewal.click();
  const dialog = page.getByRole('dialog', { name: 'Turn renewal off?' });
  await expect(dialog).toContainText(/Renewal off: your plan ends on /);
  await dialog.getByRole('button', { name: 'Turn renewal off' }).click();
  await expect(renewal).not.toBeChecked();
  await expect(page.getByTestId('renewal-state')).toContainText('Renewal off: ends on');
  await expect(page.getByTestId('order-status').first()).toHaveAttribute('data-status', 'expiring');

  await page.goto('/account/orders?status=expiring');
  await expect(page.getByTestId('order-row').filter({ hasText: 'DMARC Plus' })).toHaveCount(1);
  await expect(page.getByTestId('orders-filter-expiring')).toHaveText('Expiring (1)');
  await page.goto('/account/dashboard');
  await expect(page.getByTestId('dashboard-expiring').getByRole('link', { name: /DMARC Plus/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: '/tmp/e2e-dashboard.png', fullPage: true });
});

test('at 375px, payment methods: cards are added through the payment page, one is the default, one is removed after a confirm', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const user = await createVerifiedAccount(page);
  await signInByApi(page, user);
  await page.goto('/account/billing/payment-methods');
  await expectRemotePage(page, 'account', 'Payment methods');
  await expect(page.getByTestId('payment-methods-empty')).toBeVisible();

  for (const number of ['5555 5555 5555 4444', '4242 4242 4242 4242']) {
    await page.getByRole('button', { name: 'Add a card' }).click();
    // The test payments' add-a-card page, or Stripe Checkout in setup mode (the double's hosted page).
    await expect(page).toHaveURL(/\/api\/payments\/test\/setup\/|\/pay\/cs_test_/);
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Save card' }).click();
    await expect(page).toHaveURL('/account/billing/payment-methods');
  }
  const cards = page.getByTestId('payment-method');
  await expect(cards).toHaveCount(2);
  await expect(cards.filter({ hasText: 'Mastercard ending in 4444' })).toContainText('Expires 12/2034');
  await expect(page.getByText('Default', { exact: true })).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: '/tmp/e2e-payment-methods.png', fullPage: true });

  // The card that is not the default becomes it; the other is removed, after a confirm.
  const other = cards.filter({ has: page.getByRole('button', { name: /^Make .* the default$/ }) });
  const otherName = (await other.locator('p').first().textContent()) ?? '';
  await other.getByRole('button', { name: /^Make .* the default$/ }).click();
  await expect(cards.filter({ hasText: otherName }).getByText('Default', { exact: true })).toBeVisible();
  const formerDefault = cards.filter({ hasNotText: otherName });
  await formerDefault.getByRole('button', { name: /^Remove / }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove this card?' });
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await expect(cards).toHaveCount(2);
  await formerDefault.getByRole('button', { name: /^Remove / }).click();
  await dialog.getByRole('button', { name: 'Remove card' }).click();
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(otherName);
});

test("the account's own sign-up pages keep the way back to checkout: sign-in → create an account → check email → verify → sign in → /checkout", async ({ page }) => {
  await seedCart(page);
  await page.goto('/checkout');
  await page.getByRole('link', { name: 'Sign in to continue' }).click();
  await expect(page).toHaveURL('/auth/signin?callbackUrl=%2Fcheckout');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL('/auth/signup?callbackUrl=%2Fcheckout');

  const user = newUser();
  const form = page.getByRole('form', { name: 'Create your account' });
  await form.getByLabel('Name').fill(user.name);
  await form.getByLabel('Email').fill(user.email);
  await form.getByLabel('Password', { exact: true }).fill(user.password);
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/auth\/check-email\?.*callbackUrl=%2Fcheckout/);

  // The mailed link names no destination: the verify page finds it where sign-up left it, in this browser.
  const link = await linkFromMail(user.email, VERIFY_MAIL, /\/auth\/verify\?token=/);
  await page.goto(link.pathname + link.search);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/auth\/signin\?.*callbackUrl=%2Fcheckout/);
  await signInWithForm(page, user);
  await expect(page).toHaveURL('/checkout');
  await expect(page.getByTestId('checkout-signed-in')).toContainText(user.email);
  await expect(page.getByTestId('checkout-line')).toHaveCount(2);
});
