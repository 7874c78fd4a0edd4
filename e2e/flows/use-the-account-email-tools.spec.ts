import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Cookie, Page } from '@playwright/test';
import { BAD_LOGO, GOOD_LOGO } from '../../bff/test/fixtures/tools/logos';
import { signedInAccountCookies } from '../support/account';
import { expect, expectRemotePage, test as base } from '../support/test';

/**
 * The tools only signed-in users get (/account/tools/*), against the fixture DNS: the index,
 * the SPF, DKIM, TXT, CNAME and domain-records checkers, and the four generators: records
 * rebuilt as the user types (by the @bimi/email-auth builders), copied with one click, and the
 * DKIM key pair made in the browser.
 */
const test = base.extend<object, { signedInCookies: Cookie[] }>({
  signedInCookies: [async ({ browser }, use, workerInfo) => use(await signedInAccountCookies(browser, workerInfo.project.use.baseURL)), { scope: 'worker' }],
});

test.beforeEach(async ({ context, baseURL, signedInCookies }) => {
  await context.addCookies(signedInCookies);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL ?? 'http://127.0.0.1:3100' });
});

const generated = (page: Page) => page.getByTestId('generated-record');

async function clipboardText(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

const verdict = (page: Page) => page.getByTestId('verdict');
const check = (page: Page, id: string) => page.locator(`[data-check-id="${id}"]`).first();

async function expectNoHorizontalScroll(page: Page) {
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'nothing wider than the screen').toBeLessThanOrEqual(width);
}

for (const width of [1280, 375]) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('signed in: the tools index, SPF tree, DKIM keys with and without a selector, TXT, CNAME and domain records', async ({ page }) => {
      await page.goto('/account/tools');
      await expectRemotePage(page, 'tools', 'Tools');
      const checkers = page.getByRole('region', { name: 'Checkers' });
      const generators = page.getByRole('region', { name: 'Generators' });
      await expect(checkers.getByRole('link')).toHaveCount(8);
      await expect(generators.getByRole('link')).toHaveCount(4);
      await checkers.getByRole('link', { name: /SPF lookup/ }).click();
      await expect(page).toHaveURL('/account/tools/spf-lookup');
      await expectRemotePage(page, 'tools', 'SPF lookup');

      const spf = page.getByRole('form', { name: 'SPF lookup' });
      await spf.getByLabel('Domain').fill('spf-too-many-lookups.example');
      await spf.getByRole('button', { name: 'Look up SPF' }).click();
      await expect(verdict(page)).toHaveAttribute('data-status', 'fail');
      await expect(check(page, 'spf.lookups.limit')).toHaveAttribute('data-status', 'fail');
      await expect(page.getByTestId('spf-lookup-count')).toContainText('of 10 DNS lookups used: over the limit');
      const tree = page.getByTestId('spf-tree');
      await expect(tree.locator('[data-spf-domain="spf-too-many-lookups.example"]')).toHaveCount(1);
      expect(await tree.locator('[data-spf-domain]').count(), 'the includes are in the tree').toBeGreaterThan(2);
      await expectNoHorizontalScroll(page);

      await page.goto('/account/tools/dkim-lookup?domain=good.example');
      await expectRemotePage(page, 'tools', 'DKIM lookup');
      await expect(verdict(page)).toHaveAttribute('data-status', 'pass');
      const keys = page.getByTestId('dkim-keys');
      await expect(keys.locator('[data-selector=default]')).toContainText('RSA · 2048-bit');
      await expect(keys.locator('[data-selector=selector1]')).toContainText('RSA · 2048-bit');
      await expect(keys).toContainText('Common selectors tried: default, dkim');

      const dkim = page.getByRole('form', { name: 'DKIM lookup' });
      await dkim.getByLabel('Domain').fill('dkim-1024.example');
      await dkim.getByLabel('Selector (optional)').fill('Default');
      await dkim.getByRole('button', { name: 'Look up DKIM' }).click();
      await expect(page).toHaveURL('/account/tools/dkim-lookup?domain=dkim-1024.example&selector=default');
      await expect(verdict(page)).toHaveAttribute('data-status', 'warn');
      await expect(keys.locator('[data-selector=default]')).toContainText('RSA · 1024-bit');
      await expect(check(page, 'dkim.key.size')).toHaveAttribute('data-status', 'warn');

      await page.goto('/account/tools/txt-checker?name=_dmarc.good.example');
      await expectRemotePage(page, 'tools', 'TXT record checker');
      await expect(page.getByRole('region', { name: 'TXT records' })).toContainText('v=DMARC1; p=reject');

      await page.goto('/account/tools/cname-checker?name=alias.good.example');
      await expectRemotePage(page, 'tools', 'CNAME checker');
      await expect(check(page, 'cname.lookup')).toHaveAttribute('data-status', 'pass');
      await expect(page.getByRole('region', { name: 'CNAME chain' })).toContainText('www.good.example');

      await page.goto('/account/tools/domain-records?domain=good.example');
      await expectRemotePage(page, 'tools', 'Domain records');
      await expect(check(page, 'records.mx')).toHaveAttribute('data-status', 'pass');
      await expect(page.locator('[data-record-type=MX]').first()).toBeVisible();
      await expectNoHorizontalScroll(page);
    });

    test('DMARC generator: validates as you type, says whether the policy is ready for BIMI, copies with one click', async ({ page }) => {
      await page.goto('/account/tools/dmarc-generator');
      await expectRemotePage(page, 'tools', 'DMARC record generator');
      const form = page.getByRole('form', { name: 'DMARC record generator' });
      await form.getByRole('textbox', { name: 'Domain' }).fill('example.com');
      await form.getByLabel('Aggregate reports to (rua)').fill('dmarc@example.com');
      await expect(page.getByTestId('generated-name')).toHaveText('_dmarc.example.com');
      // Issue 17: the generator starts at p=none, as its advice says, with the path to enforcement shown.
      await expect(page.getByTestId('generated-value')).toHaveText('v=DMARC1; p=none; rua=mailto:dmarc@example.com');
      await expect(page.getByTestId('enforcement-path')).toContainText('Step 1 of 3: monitor');
      await expect(page.getByRole('region', { name: 'Not ready for BIMI yet' })).toContainText('DMARC policy is not enforced');

      await choose(page, 'Policy (p)', 'quarantine: failing mail goes to spam');
      await expect(page.getByTestId('generated-value')).toHaveText('v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com');
      await expect(page.getByRole('region', { name: 'Ready for BIMI' })).toBeVisible();
      await expect(page.getByTestId('enforcement-path')).toContainText('Step 2 of 3');

      await choose(page, 'Policy (p)', 'none: monitor only, deliver everything');
      await expect(page.getByTestId('generated-value')).toHaveText('v=DMARC1; p=none; rua=mailto:dmarc@example.com');

      // A typo is caught while typing; nothing to copy until it is fixed.
      await form.getByLabel('Aggregate reports to (rua)').fill('dmarc-at-example.com');
      await expect(generated(page)).toHaveAttribute('data-valid', 'false');
      await expect(generated(page).getByRole('alert')).toContainText('is not a valid e-mail address for rua');
      await expect(generated(page).getByRole('button', { name: /Copy record/ })).toHaveCount(0);

      await form.getByLabel('Aggregate reports to (rua)').fill('dmarc@example.com');
      await choose(page, 'Policy (p)', 'reject: failing mail is refused');
      await form.getByLabel('Percentage (pct)').fill('100');
      const copy = generated(page).getByRole('button', { name: 'Copy record DMARC record' });
      await copy.click();
      await expect(copy).toHaveText('Copied');
      expect(await clipboardText(page)).toBe('v=DMARC1; p=reject; rua=mailto:dmarc@example.com');
      await generated(page).getByRole('button', { name: 'Copy name record name' }).click();
      expect(await clipboardText(page)).toBe('_dmarc.example.com');
      await expectNoHorizontalScroll(page);
    });

    test('DKIM generator: an RSA 2048 key pair made in the browser, the DNS record and the private key download; the key is never sent', async ({ page }) => {
      const sent: string[] = [];
      page.on('request', (request) => sent.push(`${request.url()}\n${request.postData() ?? ''}`));
      await page.goto('/account/tools/dkim-generator');
      await expectRemotePage(page, 'tools', 'DKIM key generator');
      await expect(page.getByTestId('key-stays-local')).toContainText('never leaves this page');
      const form = page.getByRole('form', { name: 'DKIM key generator' });
      await form.getByRole('textbox', { name: 'Domain' }).fill('example.com');
      await form.getByLabel('Selector').fill('2026a');
      await form.getByRole('button', { name: 'Generate key pair' }).click();

      await expect(page.getByTestId('generated-name')).toHaveText('2026a._domainkey.example.com');
      const record = (await page.getByTestId('generated-value').textContent()) ?? '';
      expect(record).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
      const publicKey = record.slice(record.indexOf('p=') + 2);

      const download = page.waitForEvent('download');
      await page.getByTestId('download-private-key').click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('2026a.example.com.private.pem');
      const pem = readFileSync(await file.path(), 'utf8');
      expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      const privateKey = createPrivateKey(pem);
      expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
      // The published p= is the public half of the downloaded private key.
      expect(createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64')).toBe(publicKey);

      // The selector changes the record's name, not the key.
      await form.getByLabel('Selector').fill('s1');
      await expect(page.getByTestId('generated-name')).toHaveText('s1._domainkey.example.com');
      await expect(page.getByTestId('generated-value')).toHaveText(record);

      const copy = generated(page).getByRole('button', { name: 'Copy record DKIM record' });
      await copy.click();
      await expect(copy).toHaveText('Copied');
      expect(await clipboardText(page)).toBe(record);
      await generated(page)
        .getByRole('button', { name: /quoted strings/ })
        .click();
      expect((await clipboardText(page)).replace(/" "/g, '').replace(/^"|"$/g, '')).toBe(record);

      const keyBody = pem.split('\n').slice(1, 3).join('');
      expect(
        sent.filter((entry) => entry.includes(publicKey.slice(40, 100)) || entry.includes(keyBody.slice(0, 60))),
        'requests carrying the key',
      ).toEqual([]);
      await expectNoHorizontalScroll(page);
    });

    test('SPF generator: providers, own servers and addresses make one record; a bad address is named', async ({ page }) => {
      await page.goto('/account/tools/spf-generator');
      await expectRemotePage(page, 'tools', 'SPF record generator');
      const form = page.getByRole('form', { name: 'SPF record generator' });
      await form.getByRole('textbox', { name: 'Domain' }).fill('example.com');
      await form.getByLabel('Google Workspace').check();
      await form.getByLabel('IPv4 addresses (ip4)').fill('192.0.2.10, 198.51.100.0/24');
      await choose(page, 'Everyone else', '-all: fail everyone else (recommended once complete)');
      await expect(page.getByTestId('generated-name')).toHaveText('example.com');
      await expect(page.getByTestId('generated-value')).toHaveText('v=spf1 mx ip4:192.0.2.10 ip4:198.51.100.0/24 include:_spf.google.com -all');
      await expect(page.getByTestId('spf-generator-lookups')).toContainText('makes 2 of the 10 allowed DNS lookups');

      await form.getByLabel('IPv4 addresses (ip4)').fill('192.0.2.300');
      await expect(generated(page).getByRole('alert')).toContainText('"192.0.2.300" is not a valid IPv4 address or range.');
      await form.getByLabel('IPv4 addresses (ip4)').fill('');
      const copy = generated(page).getByRole('button', { name: 'Copy record SPF record' });
      await copy.click();
      await expect(copy).toHaveText('Copied');
      expect(await clipboardText(page)).toBe('v=spf1 mx include:_spf.google.com -all');
      await expectNoHorizontalScroll(page);
    });

    test('BIMI generator: the record from the two addresses, and the logo file checked and previewed in the browser', async ({ page }) => {
      await page.goto('/account/tools/bimi-generator');
      await expectRemotePage(page, 'tools', 'BIMI record generator');
      const form = page.getByRole('form', { name: 'BIMI record generator' });
      await form.getByRole('textbox', { name: 'Domain' }).fill('example.com');
      await form.getByLabel('Logo address (l=)').fill('http://example.com/logo.svg');
      await expect(generated(page).getByRole('alert')).toContainText('The logo address must be a full https:// address.');
      await form.getByLabel('Logo address (l=)').fill('https://example.com/bimi/logo.svg');
      await form.getByLabel('Certificate address (a=)').fill('https://example.com/bimi/vmc.pem');
      await expect(page.getByTestId('generated-name')).toHaveText('default._bimi.example.com');
      await expect(page.getByTestId('generated-value')).toHaveText('v=BIMI1; l=https://example.com/bimi/logo.svg; a=https://example.com/bimi/vmc.pem;');
      const copy = generated(page).getByRole('button', { name: 'Copy record BIMI record' });
      await copy.click();
      await expect(copy).toHaveText('Copied');
      expect(await clipboardText(page)).toBe('v=BIMI1; l=https://example.com/bimi/logo.svg; a=https://example.com/bimi/vmc.pem;');

      const logoFile = page.getByLabel('Logo file (SVG)');
      await logoFile.setInputFiles({ name: 'bad.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(BAD_LOGO) });
      const report = page.getByTestId('logo-check');
      await expect(report.getByTestId('verdict')).toHaveAttribute('data-status', 'fail');
      await expect(report.locator('[data-check-id="svg.script"]')).toHaveAttribute('data-status', 'fail');

      await logoFile.setInputFiles({ name: 'good.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(GOOD_LOGO) });
      await expect(report.getByTestId('verdict')).toHaveAttribute('data-status', 'pass');
      const logo = report.getByRole('img', { name: 'example.com logo, round crop' }).first();
      await expect(logo).toHaveAttribute('src', /^data:image\/svg\+xml/);
      expect(await logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
      await expectNoHorizontalScroll(page);
    });
  });
}
