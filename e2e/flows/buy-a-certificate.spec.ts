import type { APIRequestContext, Page } from '@playwright/test';
import { certificatePlanCents, dmarcOptionFor, formatUsd } from '@bimi/catalog/prices';
import { CERTIFICATE_IDS, PLAN_YEARS } from '@bimi/catalog/products';
import type { CartQuoteLine } from '@bimi/contracts/cart-quote';
import { expect, expectRemotePage, test } from '../support/test';

/** What the bff's POST /api/cart/quote answers for a configuration. */
async function quote(request: APIRequestContext, items: CartQuoteLine[]) {
  const response = await request.post('/api/cart/quote', { data: { items } });
  expect(response.status()).toBe(200);
  return (await response.json()) as { total: number; items: { unitAmount: number; amount: number; quantity: number }[] };
}

async function centsOf(page: Page, testId: string): Promise<number> {
  return Number(await page.getByTestId(testId).first().getAttribute('data-cents'));
}

function drawer(page: Page) {
  return page.locator('.MuiDrawer-paper').filter({ has: page.getByTestId('cart-drawer') });
}

for (const width of [1280, 375]) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a verified mark certificate for 3 domains, 2 years and 2 logos becomes two items priced from the 2-year plan', async ({ page, request }) => {
      await page.goto('/products/digicert-verified-mark-certificate');
      await expectRemotePage(page, 'storefront', 'Verified Mark Certificate (VMC)');
      const configurator = page.getByTestId('certificate-configurator');

      // Spec §9 plan table for one domain.
      await expect(page.getByTestId('plan-1')).toContainText('$1,447.20');
      await expect(page.getByTestId('plan-2')).toContainText('$2,749.68');
      await expect(page.getByTestId('plan-3')).toContainText('$3,979.80');

      await configurator.getByLabel('Domains').fill('3');
      await configurator.getByLabel('Logos').fill('2');
      await page.getByTestId('plan-2').click();
      await expect(page.getByTestId('plan-2')).toHaveAttribute('aria-checked', 'true');
      await expect(page.getByTestId('plan-2')).toContainText('$8,249.04');
      await expect(page.getByTestId('plan-2')).toContainText('Save $1,398.96');
      await expect(page.getByTestId('configured-total')).toHaveText('$16,498.08');

      // The figure shown is the one the server quotes for the same configuration.
      const quoted = await quote(request, [{ productId: 'verified-mark-certificate', domains: 3, years: 2, logos: 2 }]);
      expect(quoted.items[0]).toMatchObject({ unitAmount: 824904, quantity: 2, amount: 1649808 });
      expect(await centsOf(page, 'configured-total')).toBe(quoted.total);
      expect(await centsOf(page, 'plan-2')).toBe(quoted.items[0]?.unitAmount);

      await page.getByTestId('add-to-cart').click();
      await expect(page.getByText('2 Verified Mark Certificates added to cart')).toBeVisible();
      await expect(page.getByTestId('in-cart')).toHaveAttribute('data-count', '2');
      await expect(page.getByTestId('cart-toggle')).toHaveAccessibleName('Open cart, 2 items, $16,498.08');

      await page.getByTestId('cart-toggle').click();
      const lines = drawer(page).getByTestId('cart-line');
      await expect(lines).toHaveCount(2);
      for (const [index, line] of [lines.nth(0), lines.nth(1)].entries()) {
        await expect(line.getByTestId('cart-line-amount')).toHaveText('$8,249.04');
        await expect(line.getByTestId('cart-line-options')).toHaveText(`3 domains · 2 years · Logo ${index + 1} of 2 · Trademark registered`);
      }
      await expect(drawer(page).getByTestId('cart-total')).toHaveText('$16,498.08');
      await page.screenshot({ path: `/tmp/e2e-buy-certificate-drawer-${width}.png` });
    });

    test('the configurator refuses a domain count outside 1 to 250 and adds nothing', async ({ page }) => {
      await page.goto('/products/digicert-verified-mark-certificate');
      await expectRemotePage(page, 'storefront', 'Verified Mark Certificate (VMC)');
      const domains = page.getByTestId('certificate-configurator').getByLabel('Domains');
      await domains.fill('251');
      await expect(page.getByText('Domains must be a whole number from 1 to 250')).toBeVisible();
      // Past 250 the configurator offers a talk with sales instead of prices and a cart button (one-voice-facts covers the link).
      await expect(page.getByTestId('talk-to-sales')).toBeVisible();
      await expect(page.getByTestId('add-to-cart')).toHaveCount(0);
      await domains.fill('250');
      await expect(page.getByTestId('plan-1')).toContainText(formatUsd(144720 * 250));
      await expect(page.getByTestId('add-to-cart')).toBeEnabled();
    });
  });
}

test('DMARC plans are priced by email volume, monthly or annually, as the server quotes them', async ({ page, request }) => {
  await page.goto('/products/easydmarc-enforcement');
  await expectRemotePage(page, 'storefront', 'DMARC enforcement plans');
  const plus = page.getByTestId('dmarc-plan-dmarc-plus');
  const premium = page.getByTestId('dmarc-plan-dmarc-premium');

  const choose = async (label: string) => {
    await page.getByLabel('Emails sent per month').click();
    await page.getByRole('option', { name: label }).click();
  };

  for (const [label, volume] of [
    ['Up to 100,000 emails', 100_000],
    ['Up to 500,000 emails', 500_000],
    ['Up to 1,000,000 emails', 1_000_000],
  ] as const) {
    await choose(label);
    await page.getByRole('button', { name: 'Monthly' }).click();
    await expect(plus.getByTestId('dmarc-price')).toContainText(formatUsd(dmarcOptionFor('dmarc-plus', volume).price));
    await expect(premium.getByTestId('dmarc-price')).toContainText(formatUsd(dmarcOptionFor('dmarc-premium', volume).price));
    const monthly = await quote(request, [
      { productId: 'dmarc-plus', emailVolume: volume, billingPeriod: 'monthly' },
      { productId: 'dmarc-premium', emailVolume: volume, billingPeriod: 'monthly' },
    ]);
    expect(Number(await plus.getByTestId('dmarc-price').getAttribute('data-cents'))).toBe(monthly.items[0]?.unitAmount);
    expect(Number(await premium.getByTestId('dmarc-price').getAttribute('data-cents'))).toBe(monthly.items[1]?.unitAmount);

    await page.getByRole('button', { name: 'Annual' }).click();
    await expect(plus.getByTestId('dmarc-price')).toContainText(`${formatUsd(dmarcOptionFor('dmarc-plus', volume).annualPrice)} /year`);
    const annual = await quote(request, [{ productId: 'dmarc-premium', emailVolume: volume, billingPeriod: 'annual' }]);
    expect(Number(await premium.getByTestId('dmarc-price').getAttribute('data-cents'))).toBe(annual.items[0]?.unitAmount);
  }
  // Spec §9 figures, written out once.
  await expect(plus.getByTestId('dmarc-price')).toContainText('$1,343.88');
  await expect(premium.getByTestId('dmarc-price')).toContainText('$2,303.88');

  // DMARC Plus has no 5M option: the page says so (spec §8) and the server refuses it too.
  await choose('Up to 5,000,000 emails');
  await expect(plus.getByTestId('dmarc-price-missing')).toHaveText('No pricing option found for email volume');
  await expect(plus.getByRole('button', { name: 'Add DMARC Plus to cart' })).toBeDisabled();
  await expect(premium.getByTestId('dmarc-price')).toContainText('$3,599.88 /year');
  const refused = await request.post('/api/cart/quote', { data: { items: [{ productId: 'dmarc-plus', emailVolume: 5_000_000 }] } });
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toEqual({ message: 'items[0]: No pricing option found for email volume' });

  await premium.getByRole('button', { name: 'Add DMARC Premium to cart' }).click();
  await expect(page.getByText('DMARC Premium added to cart')).toBeVisible();
  await page.getByTestId('cart-toggle').click();
  const line = drawer(page).getByTestId('cart-line');
  await expect(line).toHaveCount(1);
  await expect(line.getByTestId('cart-line-options')).toHaveText('5,000,000 emails a month · Billed annually');
  await expect(line.getByTestId('cart-line-amount')).toHaveText('$3,599.88');
});

test('the common mark page sells the modified registered mark, and a government mark defaults to a Federal agency', async ({ page }) => {
  await page.goto('/products/digicert-common-mark-certificate');
  await expectRemotePage(page, 'storefront', 'Common Mark Certificate (CMC)');
  await expect(page.getByTestId('plan-3')).toContainText('$2,940.30');
  await page.getByLabel(/^Modified registered mark/).check();
  await expect(page.getByText('Trademark status', { exact: true })).toBeVisible();
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByText('Modified Registered Mark Certificate added to cart')).toBeVisible();

  await page.goto('/products/digicert-government-mark-certificate');
  await expectRemotePage(page, 'storefront', 'Government Mark Certificate (GMC)');
  await expect(page.getByLabel('Agency level')).toHaveText('Federal');
  await page.getByTestId('plan-3').click();
  await page.getByTestId('add-to-cart').click();

  await page.getByTestId('cart-toggle').click();
  const lines = drawer(page).getByTestId('cart-line');
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0).getByTestId('cart-line-options')).toHaveText('1 domain · 1 year · Modified Registered Mark · Trademark registered');
  await expect(lines.nth(0).getByTestId('cart-line-amount')).toHaveText('$1,069.20');
  await expect(lines.nth(1).getByTestId('cart-line-options')).toHaveText('1 domain · 3 years · Federal agency');
  await expect(lines.nth(1).getByTestId('cart-line-amount')).toHaveText('$3,979.80');
});

test('the overview compares the four certificates with every plan price of §9', async ({ page }) => {
  await page.goto('/products/digicert-mark-certificates');
  await expectRemotePage(page, 'storefront', 'Mark certificates for BIMI');
  const expected: Record<string, string[]> = {
    'verified-mark-certificate': ['$1,447.20', '$2,749.68', '$3,979.80'],
    'government-mark-certificate': ['$1,447.20', '$2,749.68', '$3,979.80'],
    'common-mark-certificate': ['$1,069.20', '$2,031.48', '$2,940.30'],
    'modified-registered-mark': ['$1,069.20', '$2,031.48', '$2,940.30'],
  };
  for (const id of CERTIFICATE_IDS) {
    for (const years of PLAN_YEARS) {
      await expect(page.getByTestId(`compare-${id}-${years}`)).toHaveText(expected[id]?.[years - 1] ?? '');
      expect(formatUsd(certificatePlanCents(id, years))).toBe(expected[id]?.[years - 1]);
    }
  }
  await page.getByRole('link', { name: 'Choose modified mark' }).click();
  await expect(page).toHaveURL('/products/digicert-common-mark-certificate?mark=modified');
  await expect(page.getByLabel(/^Modified registered mark/)).toBeChecked();
});
