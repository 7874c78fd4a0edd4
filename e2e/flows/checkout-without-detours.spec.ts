import type { Page } from '@playwright/test';
import { certificateCartItems } from '@bimi/catalog/cart-items';
import { formatUsd } from '@bimi/catalog/prices';
import { MAX_CHARGE_CENTS } from '@bimi/catalog/quote';
import { createVerifiedAccount, signInByApi } from '../support/account';
import { expect, expectRemotePage, PAYMENT_CONFIRMED_MS, test } from '../support/test';

/**
 * Issue 30, findings 7 and 8, as a buyer: a cart above the payment provider's one-charge limit is
 * offered a talk with sales (the cart written into the contact form) instead of a Pay button; the
 * certificate details make a contact for all three roles in place (no trip to Settings in a new
 * tab); an organization name is used once per account, and the form says so; the success page and
 * the transactions name each certificate's domains, logo and order.
 */

const quiet = { error: () => {} };
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 64 64"><title>Acme</title><rect width="64" height="64" fill="#1a5fb4"/></svg>`;

async function seedCart(page: Page, items: unknown[]): Promise<void> {
  await page.goto('/faq');
  await page.evaluate((cart) => window.localStorage.setItem('bimi.cart', cart), JSON.stringify({ version: 2, items }));
}

for (const width of [1280, 375]) {
  test.describe(`at ${width}px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 800 });
    });

    test("a cart above the provider's one-charge limit: Talk to sales with the cart prefilled, no Pay", async ({ page }) => {
      await signInByApi(page, await createVerifiedAccount(page));
      // 3 logos of a 3-year VMC, 99 copies of each: $1,182,000.60. (The reviewer's 250 domains × 10 logos is refused the
      // same way by the bff, bff/test/checkout-ceiling.test.ts; here it would only make the page draw 2,500 domain fields.)
      const huge = certificateCartItems({ productId: 'verified-mark-certificate', domains: 1, years: 3, logos: 3, sourcePageType: 'product' }, { settings: {}, logger: quiet }).map(
        (item) => ({
          ...item,
          quantity: 99,
        }),
      );
      await seedCart(page, huge);
      await page.goto('/checkout');
      await expectRemotePage(page, 'checkout', 'Checkout');
      const sales = page.getByTestId('talk-to-sales');
      await expect(sales).toContainText(`This cart comes to $1,182,000.60, more than the ${formatUsd(MAX_CHARGE_CENTS)} our payment provider can take in one payment.`);
      await page.getByLabel('I accept the terms of service').check();
      await page.getByLabel('I accept the refund policy').check();
      await expect(page.getByRole('button', { name: /^Pay/ })).toBeDisabled();
      await expect(page.getByTestId('checkout-over-limit')).toBeVisible();
      await page.screenshot({ path: `/tmp/e2e-detours-over-limit-${width}.png`, fullPage: true });

      await sales.getByRole('link', { name: 'Talk to sales' }).click();
      await expect(page).toHaveURL(/\/contact\?topic=sales&message=/);
      const message = page.getByRole('textbox', { name: 'Message' });
      await expect(message).toHaveValue(/^We would like a quote for this cart \(total \$1,182,000\.60\):\n- 99 × Verified Mark Certificate \(1 domain · 3 years · Logo 1 of 3\)/);
      await expect(message).toHaveValue(/Logo 3 of 3\)$/);
      // Nothing was stored: the account has no order.
      const orders = (await (await page.request.get('/api/account/orders')).json()) as { orders: unknown[] };
      expect(orders.orders).toEqual([]);
    });

    test('contacts made in place for all three roles, one organization name once, each logo named after paying', async ({ page }) => {
      await signInByApi(page, await createVerifiedAccount(page));
      await seedCart(page, certificateCartItems({ productId: 'verified-mark-certificate', domains: 1, years: 1, logos: 2, sourcePageType: 'product' }, { settings: {}, logger: quiet }));
      await page.goto('/checkout');
      await expectRemotePage(page, 'checkout', 'Checkout');
      const first = page.getByRole('group', { name: 'Details for Verified Mark Certificate, logo 1 of 2' });
      const second = page.getByRole('group', { name: 'Details for Verified Mark Certificate, logo 2 of 2' });
      await expect(first).toBeVisible();
      // No way out to Settings in a new tab.
      await expect(page.getByRole('link', { name: 'Add a contact' })).toHaveCount(0);

      await first.getByLabel('New organization name').fill('Acme Corp');
      await first.getByRole('button', { name: 'Create organization' }).click();
      await expect(first.getByLabel('Organization', { exact: true })).not.toHaveValue('');
      // The same name again (other case, other spacing), from the second logo's form: refused, and said.
      await second.getByLabel('New organization name').fill('acme  CORP');
      await second.getByRole('button', { name: 'Create organization' }).click();
      await expect(second.getByRole('alert').filter({ hasText: 'You already have an organization named “acme  CORP”' })).toBeVisible();
      await expect(second.getByLabel('Organization', { exact: true }).locator('option')).toHaveCount(2);

      await first.getByLabel('Domain 1').fill('acme.example');
      await first.locator('input[type=file]').setInputFiles({ name: 'acme.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(LOGO) });
      await expect(first.getByText('acme.svg: passes the SVG Tiny PS check.')).toBeVisible();
      await first.getByRole('button', { name: 'New contact' }).click();
      const contact = first.getByTestId('new-contact');
      await contact.getByRole('button', { name: 'Save contact' }).click();
      await expect(contact.locator('.MuiFormHelperText-root.Mui-error').first()).toBeVisible();
      await contact.getByLabel('Full name').fill('Pat Jones');
      await contact.getByLabel('Email').fill('pat@acme.example');
      await page.screenshot({ path: `/tmp/e2e-detours-new-contact-${width}.png`, fullPage: true });
      await contact.getByRole('button', { name: 'Save contact' }).click();
      await expect(contact).toHaveCount(0);
      for (const role of ['Legal', 'Technical', 'Billing']) {
        await expect(first.getByLabel(`${role} contact`).locator('option:checked')).toHaveText('Pat Jones (pat@acme.example)');
      }
      // Kept in the account: the second logo's form offers it too.
      await expect(second.getByLabel('Legal contact').locator('option', { hasText: 'Pat Jones' })).toHaveCount(1);
      await page.getByLabel('Finish these details later').nth(1).check();

      await page.getByLabel('I accept the terms of service').check();
      await page.getByLabel('I accept the refund policy').check();
      await page.getByRole('button', { name: /^Pay \$/ }).click();
      await expect(page).toHaveURL(/\/api\/payments\/test\/checkout\//);
      await page.getByLabel('Card number').fill('4242 4242 4242 4242');
      await page.getByLabel('Expiry (MM/YY)').fill('12/34');
      await page.getByLabel('Security code').fill('123');
      await page.getByRole('button', { name: /^Pay/ }).click();

      await expect(page).toHaveURL(/\/checkout\/success\?checkout=/);
      const confirmed = page.getByTestId('confirmed-order');
      await expect(confirmed).toHaveCount(2, { timeout: PAYMENT_CONFIRMED_MS });
      await expect(confirmed.nth(0).getByTestId('confirmed-order-description')).toHaveText('1 domain · 1 year · Logo 1 of 2');
      await expect(confirmed.nth(0).getByTestId('confirmed-order-domains')).toHaveText('For acme.example');
      await expect(confirmed.nth(1).getByTestId('confirmed-order-description')).toHaveText('1 domain · 1 year · Logo 2 of 2');
      // Issue 30, finding 9: on arrival, in a window as short as a small laptop's or phone's, the
      // Dashboard dock covers neither next step.
      await page.setViewportSize({ width, height: 640 });
      await page.evaluate(() => window.scrollTo(0, 0));
      const dock = (await page.getByTestId('dashboard-dock').boundingBox())!;
      for (const name of ['View my orders', 'Receipts']) {
        const button = (await page.getByRole('link', { name, exact: true }).boundingBox())!;
        expect(button.y, name).toBeGreaterThanOrEqual(0);
        expect(button.y + button.height, `${name} ends above the dock`).toBeLessThanOrEqual(dock.y);
      }
      await page.screenshot({ path: `/tmp/e2e-detours-success-${width}.png` });
      const numbers = await confirmed.getByRole('link', { name: /^Order O-\d+$/ }).allTextContents();

      await page.goto('/account/billing/transactions');
      await expectRemotePage(page, 'account', 'Transactions');
      const row = page.getByTestId('transaction-row').first();
      await expect(row.getByTestId('transaction-order')).toHaveText(numbers.map((text) => text.replace('Order ', '')));
      await expect(row.getByTestId('transaction-order-label')).toHaveText([
        /Verified Mark Certificate for acme\.example · 1 domain · 1 year · Logo 1 of 2$/,
        /Verified Mark Certificate · 1 domain · 1 year · Logo 2 of 2$/,
      ]);
      await expect(row).not.toContainText('—');
      await page.screenshot({ path: `/tmp/e2e-detours-transactions-${width}.png`, fullPage: true });

      // The organizations page says it too.
      await page.goto('/account/settings/organizations');
      await expectRemotePage(page, 'account', 'Organizations');
      const create = page.getByRole('form', { name: 'Create' });
      await create.getByLabel('Organization name').fill('ACME corp');
      await create.getByRole('button', { name: 'Create' }).click();
      await expect(page.getByText('You already have an organization named “ACME corp”')).toBeVisible();
    });
  });
}
