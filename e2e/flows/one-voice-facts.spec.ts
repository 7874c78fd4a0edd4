import type { Page } from '@playwright/test';
import { PDFParse } from 'pdf-parse';
import { CERTIFICATES, DOMAINS_PER_CERTIFICATE, PENDING_TRADEMARK_RULE, PENDING_TRADEMARK_START, VALIDATION_TIME, dmarcPlanSummary, dmarcVolumeFact } from '@bimi/catalog/facts';
import { DMARC_EMAIL_VOLUMES, formatEmailVolume, MAX_DOMAINS } from '@bimi/catalog/prices';
import { DMARC_PRODUCT_IDS, dmarcLimitPhrases } from '@bimi/catalog/products';
import { AUTH_PATHS, CSRF_HEADER } from '@bimi/contracts/auth';
import { PHONE_MESSAGE } from '@bimi/contracts/phone';
import { createVerifiedAccount, newUser, signInByApi } from '../support/account';
import { publishedDocuments, publishedRoutes } from '../support/apps';
import { concretePath } from '../support/registry';
import { expect, expectRemotePage, SITE_NAME, test } from '../support/test';

/**
 * Issue 17, "one voice": the facts several pages state are stated once (@bimi/catalog/facts) and
 * read the same everywhere; the DMARC cards follow the chosen volume; past 250 domains the
 * configurator offers a talk with sales; a cart line is edited in the configurator; the comparison
 * table keeps its names in view at phone width; the Dashboard button covers nothing.
 */

const PAGES = publishedRoutes('mfe-storefront').routes.map((route) => ({ title: route.title, url: concretePath(route.path) }));
/** The validation guide, as the storefront's build publishes it. */
const [VALIDATION_GUIDE_PATH = '/docs/missing-validation-guide.pdf'] = publishedDocuments('mfe-storefront');

function drawer(page: Page) {
  return page.locator('.MuiDrawer-paper').filter({ has: page.getByTestId('cart-drawer') });
}

/** The whole text of the storefront's part of the page, collapsed FAQ answers included, spaces collapsed. */
async function pageText(page: Page): Promise<string> {
  const text = await page.locator('[data-remote=storefront]').evaluate((element) => element.textContent ?? '');
  return text.replace(/\s+/g, ' ');
}

/**
 * "one to two weeks", "1-3 weeks", "two to three business weeks": a validation time in other words
 * (not a lead time such as "four to five weeks before expiry").
 */
const ANY_WEEKS = /\b(one|two|three|four|\d+)\s*(to|-|–|or)\s*(two|three|four|five|six|\d+)\s+(business\s+)?weeks(?!\s+before)/i;
/** A sentence that ties a pending trademark to when validation starts. */
const PENDING_AND_VALIDATION = /pending[^.]{0,200}validation|validation[^.]{0,200}pending/i;

test.describe('the shared facts read the same on every page that states them', () => {
  test('every storefront page: one validation time, one pending-trademark rule', async ({ page }) => {
    test.setTimeout(240_000);
    const stating: Record<'validation' | 'pending', string[]> = { validation: [], pending: [] };
    for (const { url, title } of PAGES) {
      const response = await page.goto(url);
      expect(response?.status(), `GET ${url}`).toBe(200);
      await expect(page).toHaveTitle(`${title} | ${SITE_NAME}`);
      await expect(page.locator('[data-remote=storefront] h1')).toBeVisible();
      const text = await pageText(page);
      if (text.includes(VALIDATION_TIME)) stating.validation.push(url);
      if (text.includes(PENDING_TRADEMARK_START)) stating.pending.push(url);
      const rest = text.replaceAll(VALIDATION_TIME, '').replaceAll(PENDING_TRADEMARK_RULE, '').replaceAll(PENDING_TRADEMARK_START, '');
      expect({ url, otherValidationTime: ANY_WEEKS.exec(rest)?.[0] ?? null }).toEqual({ url, otherValidationTime: null });
      expect({ url, otherPendingRule: PENDING_AND_VALIDATION.exec(rest)?.[0] ?? null }).toEqual({ url, otherPendingRule: null });
      expect({ url, startsAtOnce: /starts at once/i.test(text) }).toEqual({ url, startsAtOnce: false });
    }
    // The pages that issue 17 found disagreeing state the facts, in the one wording.
    expect(stating.validation).toEqual(
      expect.arrayContaining([
        '/faq',
        '/help-center',
        '/how-it-works',
        '/products/digicert-mark-certificates',
        '/products/digicert-verified-mark-certificate',
        '/digicert-enrollment/verified-mark-certificate',
      ]),
    );
    expect(stating.pending).toEqual(expect.arrayContaining(['/faq', '/help-center', '/products/digicert-verified-mark-certificate', '/digicert-enrollment/verified-mark-certificate']));
  });

  test('the validation guide PDF says the same', async ({ request }) => {
    const response = await request.get(VALIDATION_GUIDE_PATH);
    expect(response.status()).toBe(200);
    const pdf = new PDFParse({ data: new Uint8Array(await response.body()) });
    try {
      const text = (await pdf.getText()).text.replace(/\s+/g, ' ');
      expect(text).toContain(VALIDATION_TIME);
      expect(text).toContain(PENDING_TRADEMARK_RULE);
      expect(ANY_WEEKS.exec(text.replaceAll(VALIDATION_TIME, ''))?.[0] ?? null).toBeNull();
    } finally {
      await pdf.destroy();
    }
  });

  test('the home page and the comparison page show the same four certificates, and the same plan limits', async ({ page }) => {
    await page.goto('/');
    await expectRemotePage(page, 'storefront', 'BIMI mark certificates and DMARC enforcement');
    const lineup = page.getByTestId('certificate-lineup').locator('li h3');
    await expect(lineup).toHaveText(CERTIFICATES.map((certificate) => certificate.name));
    await expect(page.getByText(DOMAINS_PER_CERTIFICATE)).toBeVisible();
    await expect(page.getByTestId('home-dmarc-plus-limits')).toHaveText(dmarcPlanSummary('dmarc-plus'));
    await expect(page.getByTestId('home-dmarc-premium-limits')).toHaveText(dmarcPlanSummary('dmarc-premium'));
    const home = await page
      .getByTestId('certificate-lineup')
      .locator('li a')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));

    await page.goto('/products/digicert-mark-certificates');
    await expectRemotePage(page, 'storefront', 'Mark certificates for BIMI');
    const compared = await page.locator('[data-testid^=compare-head-]').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-testid')?.replace('compare-head-', '')));
    expect(compared).toEqual(CERTIFICATES.map((certificate) => certificate.id));
    const cards = [];
    for (const certificate of CERTIFICATES) cards.push(await page.getByTestId(`compare-${certificate.id}`).getByRole('link').getAttribute('href'));
    expect(cards).toEqual(home);

    await page.goto('/products/easydmarc-enforcement');
    for (const productId of DMARC_PRODUCT_IDS) {
      for (const phrase of dmarcLimitPhrases(productId)) await expect(page.getByTestId(`dmarc-plan-${productId}`)).toContainText(phrase);
    }
  });
});

test("a contact's phone is checked as a phone number in the page and by the bff, stored in E.164 and shown formatted", async ({ page }) => {
  const user = await createVerifiedAccount(page, newUser());
  await signInByApi(page, user);
  await page.goto('/account/settings/contacts');
  await expectRemotePage(page, 'account', 'Contacts');
  const form = page.getByRole('form', { name: 'Add a contact' });
  await form.getByLabel('Name').fill('Tess Tech');
  await form.getByLabel('Email').fill('tess@acme.example');
  await form.getByLabel('Phone (optional)').fill('not a phone');
  await form.getByRole('button', { name: 'Add contact' }).click();
  await expect(form.getByText(PHONE_MESSAGE)).toBeVisible();
  // The bff refuses it alike (the page never sent it).
  const { csrfToken } = (await (await page.request.get(AUTH_PATHS.csrf)).json()) as { csrfToken: string };
  const refused = await page.request.post('/api/account/contacts', {
    data: { kind: 'technical', name: 'Tess', email: 'tess@acme.example', phone: 'not a phone' },
    headers: { [CSRF_HEADER]: csrfToken },
  });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { message: string }).message).toContain(`phone: ${PHONE_MESSAGE}`);
  const listed = await page.request.get('/api/account/contacts');
  expect(((await listed.json()) as { contacts: unknown[] }).contacts).toEqual([]);

  await form.getByLabel('Phone (optional)').fill('(202) 555-0143');
  await form.getByRole('button', { name: 'Add contact' }).click();
  await expect(page.getByTestId('contacts-technical')).toContainText('tess@acme.example · +1 202 555 0143');
  const stored = (await (await page.request.get('/api/account/contacts')).json()) as { contacts: { phone: string }[] };
  expect(stored.contacts.map((contact) => contact.phone)).toEqual(['+12025550143']);
});

for (const width of [1280, 375]) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('the DMARC plan cards follow the selected volume; Plus says it is not offered at 5,000,000', async ({ page }) => {
      await page.goto('/products/easydmarc-enforcement');
      await expectRemotePage(page, 'storefront', 'DMARC enforcement plans');
      for (const volume of DMARC_EMAIL_VOLUMES) {
        await page.getByRole('combobox', { name: 'Emails sent per month' }).click();
        await page.getByRole('option', { name: `Up to ${formatEmailVolume(volume)}` }).click();
        for (const productId of DMARC_PRODUCT_IDS) {
          const card = page.getByTestId(`dmarc-plan-${productId}`);
          await expect(card.getByTestId('dmarc-volume')).toHaveText(dmarcVolumeFact(productId, volume));
          // No card names a volume other than the chosen one (or, when not offered, its own ceiling).
          const others = DMARC_EMAIL_VOLUMES.filter((other) => other !== volume && !(volume === 5_000_000 && productId === 'dmarc-plus' && other === 1_000_000));
          const text = (await card.textContent()) ?? '';
          for (const other of others) expect({ productId, volume, names: text.includes(new Intl.NumberFormat('en-US').format(other)) }).toEqual({ productId, volume, names: false });
        }
      }
      const plus = page.getByTestId('dmarc-plan-dmarc-plus');
      await expect(plus.getByTestId('dmarc-volume')).toHaveText('Not offered above 1,000,000 emails a month');
      await expect(plus.getByTestId('dmarc-not-offered')).toHaveText('DMARC Plus is sold up to 1,000,000 emails a month: for more, choose DMARC Premium.');
      await expect(plus.getByRole('button', { name: 'Add DMARC Plus to cart' })).toBeDisabled();
      await plus.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/e2e-facts-dmarc-5m-${width}.png` });
    });

    test(`past ${MAX_DOMAINS} domains the configurator offers Talk to sales, with the configuration in the contact form`, async ({ page }) => {
      await page.goto('/products/digicert-verified-mark-certificate');
      await expectRemotePage(page, 'storefront', 'Verified Mark Certificate (VMC)');
      const configurator = page.getByTestId('certificate-configurator');
      await page.getByTestId('plan-2').click();
      await configurator.getByLabel('Domains').fill('400');
      await expect(page.getByTestId('talk-to-sales')).toContainText(`More than ${MAX_DOMAINS} domains?`);
      // No blank prices: the plans and the total give way to the offer.
      await expect(page.getByTestId('plan-1')).toHaveCount(0);
      await expect(page.getByTestId('configured-total')).toHaveCount(0);
      await page.getByTestId('talk-to-sales').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/e2e-facts-talk-to-sales-${width}.png` });
      await page.getByRole('link', { name: 'Talk to sales' }).click();
      await expect(page).toHaveURL(/\/contact\?topic=sales&message=/);
      await expectRemotePage(page, 'storefront', 'Contact us');
      await expect(page.locator('#contact-topic')).toHaveValue('sales');
      await expect(page.locator('#contact-message')).toHaveValue('We would like a quote for a Verified Mark Certificate covering 400 domains, on a 2-year plan, for 1 logo.');
      // Back to 250: prices again.
      await page.goBack();
      await configurator.getByLabel('Domains').fill(String(MAX_DOMAINS));
      await expect(page.getByTestId('plan-1')).toBeVisible();
      await expect(page.getByTestId('talk-to-sales')).toHaveCount(0);
    });

    test('a certificate line has Edit instead of quantity buttons; Update cart replaces the line', async ({ page }) => {
      await page.goto('/products/digicert-common-mark-certificate?mark=modified');
      await expectRemotePage(page, 'storefront', 'Common Mark Certificate (CMC)');
      const configurator = page.getByTestId('certificate-configurator');
      await expect(configurator).toHaveAttribute('data-product', 'modified-registered-mark');
      await configurator.getByLabel('Domains').fill('3');
      await page.getByTestId('plan-2').click();
      await configurator.getByRole('radio', { name: 'Pending' }).check();
      await page.getByTestId('add-to-cart').click();
      await expect(page.getByText('Modified Registered Mark Certificate added to cart')).toBeVisible();
      // Changed but not added: Edit, followed from this same page, starts again from the line's options.
      await configurator.getByLabel('Domains').fill('7');

      await page.getByTestId('cart-toggle').click();
      const line = drawer(page).getByTestId('cart-line');
      await expect(line).toHaveCount(1);
      await expect(line.getByTestId('cart-line-options')).toHaveText('3 domains · 2 years · Modified Registered Mark · Trademark pending');
      await expect(line.getByRole('button', { name: /quantity/ })).toHaveCount(0);
      await page.screenshot({ path: `/tmp/e2e-facts-cart-edit-${width}.png` });
      const uniqueId = await page.evaluate(() => (JSON.parse(localStorage.getItem('bimi.cart') ?? '{}') as { items: { uniqueId: string }[] }).items[0]?.uniqueId);

      await line.getByRole('link', { name: 'Edit Modified Registered Mark Certificate' }).click();
      await expect(page).toHaveURL(`/products/digicert-common-mark-certificate?mark=modified&domains=3&years=2&logos=1&trademark=Pending&edit=${uniqueId}#configure`);
      await expect(configurator).toHaveAttribute('data-product', 'modified-registered-mark');
      await expect(configurator.getByLabel('Domains')).toHaveValue('3');
      await expect(page.getByTestId('plan-2')).toHaveAttribute('aria-checked', 'true');
      await expect(configurator.getByRole('radio', { name: 'Pending' })).toBeChecked();
      await configurator.getByLabel('Domains').fill('5');
      await configurator.getByLabel('Logos').fill('2');
      await expect(page.getByTestId('add-to-cart')).toHaveText('Update cart');
      await page.getByTestId('add-to-cart').click();
      await expect(page.getByText('Modified Registered Mark Certificate updated in cart')).toBeVisible();

      // The one line became the two logos configured; nothing else was added.
      await expect(drawer(page).getByTestId('cart-line')).toHaveCount(2);
      for (const [index, each] of (await drawer(page).getByTestId('cart-line').all()).entries()) {
        await expect(each.getByTestId('cart-line-options')).toHaveText(`5 domains · 2 years · Logo ${index + 1} of 2 · Modified Registered Mark · Trademark pending`);
      }
      await expect(page).not.toHaveURL(/edit=/);

      // Issue 30, finding 5: Edit on "Logo 2 of 2" opens with Logos = 2, and 3 logos replace both: 3 certificates, not 4.
      await drawer(page).getByTestId('cart-line').nth(1).getByRole('link', { name: 'Edit Modified Registered Mark Certificate' }).click();
      await expect(page).toHaveURL(/[?&]logos=2&/);
      await expect(configurator.getByLabel('Logos')).toHaveValue('2');
      await expect(configurator.getByLabel('Domains')).toHaveValue('5');
      await configurator.getByLabel('Logos').fill('3');
      await page.getByTestId('add-to-cart').click();
      await expect(drawer(page).getByTestId('cart-line')).toHaveCount(3);
      for (const [index, each] of (await drawer(page).getByTestId('cart-line').all()).entries()) {
        await expect(each.getByTestId('cart-line-options')).toHaveText(`5 domains · 2 years · Logo ${index + 1} of 3 · Modified Registered Mark · Trademark pending`);
      }
      await drawer(page).getByRole('button', { name: 'Close cart' }).click();
      await expect(page.getByTestId('add-to-cart')).toHaveText('Add to cart');
    });

    test('the comparison table keeps its header row and first column in view while it scrolls', async ({ page }) => {
      await page.goto('/products/digicert-mark-certificates');
      await expectRemotePage(page, 'storefront', 'Mark certificates for BIMI');
      const table = page.getByTestId('compare-table');
      await table.scrollIntoViewIfNeeded();
      const header = page.getByTestId('compare-head-government-mark-certificate');
      const firstColumn = page.getByRole('rowheader', { name: 'Domains per certificate' });
      const box = (await table.boundingBox())!;
      const sizes = await table.evaluate((element) => ({
        scrollWidth: element.scrollWidth,
        clientWidth: element.clientWidth,
        scrollHeight: element.scrollHeight,
        clientHeight: element.clientHeight,
      }));
      if (width === 375) {
        expect(sizes.scrollWidth).toBeGreaterThan(sizes.clientWidth);
        expect(sizes.scrollHeight).toBeGreaterThan(sizes.clientHeight);
      }
      // Scrolled to the far right and the bottom: the last column's name is still at the top and the last row's name at the left.
      await table.evaluate((element) => element.scrollTo({ left: element.scrollWidth, top: element.scrollHeight }));
      await expect(header).toBeInViewport();
      await expect(firstColumn).toBeInViewport();
      const head = (await header.boundingBox())!;
      const first = (await firstColumn.boundingBox())!;
      expect(Math.abs(head.y - box.y)).toBeLessThan(3);
      expect(Math.abs(first.x - box.x)).toBeLessThan(3);
      // The figure in the last row, last column is beside its names, not under them.
      const figure = (await page
        .getByRole('row', { name: /Domains per certificate/ })
        .getByRole('cell')
        .last()
        .boundingBox())!;
      expect(figure.x).toBeGreaterThanOrEqual(first.x + first.width - 1);
      expect(figure.y).toBeGreaterThanOrEqual(head.y + head.height - 1);
      await page.screenshot({ path: `/tmp/e2e-facts-compare-table-${width}.png` });
    });

    test('the Dashboard button covers no text, at the end of a long page or anywhere on it', async ({ page }) => {
      const user = await createVerifiedAccount(page, newUser());
      await signInByApi(page, user);
      await page.goto('/how-it-works');
      await expectRemotePage(page, 'storefront', 'How BIMI and mark certificates work');
      const dock = page.getByTestId('dashboard-dock');
      await expect(page.getByTestId('floating-dashboard')).toBeVisible();
      /** Elements with text of their own that the dock's box overlaps, and whether the dock is opaque over them. */
      const covered = () =>
        dock.evaluate((element) => {
          const dockBox = element.getBoundingClientRect();
          const hits: string[] = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const parent = node.parentElement;
            if (!parent || element.contains(parent) || !node.textContent?.trim()) continue;
            const style = getComputedStyle(parent);
            if (style.visibility === 'hidden' || style.display === 'none') continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            for (const rect of range.getClientRects()) {
              if (rect.width > 0 && rect.bottom > dockBox.top + 1 && rect.top < dockBox.bottom && rect.right > dockBox.left && rect.left < dockBox.right)
                hits.push(node.textContent.trim().slice(0, 40));
            }
          }
          return { hits, background: getComputedStyle(element).backgroundColor };
        });
      // At the end of the page every line sits above the dock.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.waitForTimeout(300);
      expect((await covered()).hits).toEqual([]);
      await page.screenshot({ path: `/tmp/e2e-facts-dashboard-end-${width}.png` });
      // Mid-page text passes behind the dock as it does behind the header: the dock is opaque, never a pill over words.
      await page.evaluate(() => window.scrollTo(0, 600));
      await page.waitForTimeout(300);
      expect((await covered()).background).toMatch(/rgba?\(255, 255, 255(, 0\.9\d+)?\)/);
      await page.screenshot({ path: `/tmp/e2e-facts-dashboard-mid-${width}.png` });
    });
  });
}
