import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { remoteLoadsZod } from '../support/federation';
import { expect, expectRemotePage, test } from '../support/test';

/**
 * The public checkers of the tools remote against the fixture DNS and HTTPS servers the e2e server
 * starts (bff/test/fixtures/tools/README.md lists the domains): what a user sees for a good
 * and a broken setup, shareable URLs, and every way a check can fail to run.
 */
const CERTS = join(__dirname, '..', '..', 'bff', 'test', 'fixtures', 'tools', 'certs');

async function expectNoHorizontalScroll(page: Page) {
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'nothing wider than the screen').toBeLessThanOrEqual(width);
}

/** Counts the calls the page makes to one tool endpoint. */
function countToolCalls(page: Page, tool: string): { count: number } {
  const calls = { count: 0 };
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === `/api/tools/${tool}`) calls.count += 1;
  });
  return calls;
}

const verdict = (page: Page) => page.getByTestId('verdict');
const check = (page: Page, id: string) => page.locator(`[data-check-id="${id}"]`).first();

for (const width of [1280, 375]) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('DMARC inspector: a passing and a failing domain, the shareable URL reruns on reload, Back shows the earlier answer', async ({ page }) => {
      const calls = countToolCalls(page, 'dmarc');
      await page.goto('/dmarc-inspector');
      await expectRemotePage(page, 'tools', 'DMARC inspector');
      const form = page.getByRole('form', { name: 'DMARC inspector' });

      await form.getByLabel('Domain').fill('https://Good.Example/');
      await form.getByRole('button', { name: 'Inspect DMARC' }).click();
      // The query goes into the address bar, normalized as it is sent.
      await expect(page).toHaveURL('/dmarc-inspector?domain=good.example');
      await expect(verdict(page)).toHaveAttribute('data-status', 'pass');
      await expect(verdict(page)).toContainText('Protected, and ready for BIMI');
      await expect(page.getByTestId('score')).toContainText('100');
      await expect(check(page, 'dmarc.policy.reject')).toHaveAttribute('data-status', 'pass');
      await expect(page.getByTestId('record-tags')).toContainText('p=reject');
      await expect(page.getByRole('region', { name: 'Records found' })).toContainText('v=DMARC1; p=reject');

      await form.getByLabel('Domain').fill('dmarc-missing.example');
      await form.getByRole('button', { name: 'Inspect DMARC' }).click();
      await expect(page).toHaveURL('/dmarc-inspector?domain=dmarc-missing.example');
      // No record is `absent` (issue 17): not protected, said in the headline.
      await expect(verdict(page)).toHaveAttribute('data-status', 'absent');
      await expect(verdict(page)).toContainText('Not protected: there is no DMARC record');
      await expect(check(page, 'dmarc.record.missing')).toHaveAttribute('data-status', 'absent');
      await expect(check(page, 'dmarc.record.missing')).toContainText('How to fix:');
      await expect(page.getByTestId('score')).toContainText('0');
      expect(calls.count).toBe(2);

      // A shared link (here: reload) runs the check again.
      await page.reload();
      await expect(verdict(page)).toHaveAttribute('data-status', 'absent');
      await expect(form.getByLabel('Domain')).toHaveValue('dmarc-missing.example');
      expect(calls.count).toBe(3);

      await page.goBack();
      await expect(page).toHaveURL('/dmarc-inspector?domain=good.example');
      await expect(form.getByLabel('Domain')).toHaveValue('good.example');
      await expect(verdict(page)).toHaveAttribute('data-status', 'pass');

      // A warning: p=none works but protects nothing and rules BIMI out.
      await page.goto('/dmarc-inspector?domain=dmarc-none.example');
      await expect(verdict(page)).toHaveAttribute('data-status', 'warn');
      await expect(check(page, 'dmarc.policy.none')).toHaveAttribute('data-status', 'warn');
      // Fails and warnings come before passes.
      await expect(page.locator('[data-check-id]').first()).toHaveAttribute('data-status', 'warn');
      await expectNoHorizontalScroll(page);
    });

    test('the domain is checked in the browser first (spec §5 messages), with the words the server uses', async ({ page }) => {
      const calls = countToolCalls(page, 'dmarc');
      await page.goto('/dmarc-inspector');
      await expectRemotePage(page, 'tools', 'DMARC inspector');
      const form = page.getByRole('form', { name: 'DMARC inspector' });
      const domain = form.getByLabel('Domain');

      await form.getByRole('button', { name: 'Inspect DMARC' }).click();
      await expect(form).toContainText('Please enter a domain name');
      await domain.fill('not a domain!');
      await domain.blur();
      await expect(form).toContainText('Please enter a valid domain name (e.g., example.com)');
      await domain.fill(`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`);
      await form.getByRole('button', { name: 'Inspect DMARC' }).click();
      await expect(form).toContainText('Domain name is too long');
      await expect(domain).toHaveAttribute('aria-invalid', 'true');
      expect(calls.count, 'nothing was sent for invalid input').toBe(0);

      // A link with a bad query is validated the same way, and not sent.
      await page.goto('/dmarc-inspector?domain=-bad-.example');
      await expect(form).toContainText('Please enter a valid domain name (e.g., example.com)');
      await expect(page.getByTestId('tool-answer')).toHaveCount(0);
      expect(calls.count).toBe(0);

      // An IP address: the browser and the bff read domains by one rule, so both say the same words.
      await domain.fill('192.0.2.1');
      await form.getByRole('button', { name: 'Inspect DMARC' }).click();
      await expect(form).toContainText('Please enter a domain name, not an IP address');
      expect(calls.count).toBe(0);
      const refused = await page.request.get('/api/tools/dmarc?domain=192.0.2.1');
      expect(refused.status()).toBe(400);
      expect((await refused.json()).message).toBe('domain: Please enter a domain name, not an IP address');
      await expectNoHorizontalScroll(page);
    });

    test('a network failure and a rate limit are shown with Retry, which runs the check again', async ({ page }) => {
      let answer: 'offline' | 'limited' | 'through' = 'offline';
      await page.route('**/api/tools/dmarc?*', (route) => {
        if (answer === 'offline') return route.abort('internetdisconnected');
        if (answer === 'limited') return route.fulfill({ status: 429, headers: { 'retry-after': '30' }, json: { message: 'Too many attempts. Try again in 1 minute.' } });
        return route.continue();
      });
      await page.goto('/dmarc-inspector?domain=good.example');
      await expectRemotePage(page, 'tools', 'DMARC inspector');
      const error = page.getByTestId('tool-error');
      await expect(error).toContainText('Could not reach the server. Check your connection and try again.');
      answer = 'limited';
      await error.getByRole('button', { name: 'Retry' }).click();
      await expect(error).toContainText('Too many checks from your network. Please try again in 30 seconds.');
      await expect(error).toHaveAttribute('data-error-kind', 'rate-limited');
      answer = 'through';
      await error.getByRole('button', { name: 'Retry' }).click();
      await expect(verdict(page)).toHaveAttribute('data-status', 'pass');
      await expect(error).toHaveCount(0);
    });

    test('BIMI checker: the logo in a light and a dark inbox, round and square, from a data: URL; the certificate; a broken logo stays inert', async ({ page }) => {
      await page.goto('/bimi-checker?domain=good.example');
      await expectRemotePage(page, 'tools', 'BIMI checker');
      await expect(verdict(page)).toHaveAttribute('data-status', 'pass');
      const preview = page.getByTestId('inbox-preview');
      await expect(preview.locator('[data-scheme]')).toHaveCount(2);
      for (const scheme of ['light', 'dark']) {
        const pane = preview.locator(`[data-scheme=${scheme}]`);
        await expect(pane.getByRole('img', { name: 'Good Example Inc logo, round crop' })).toBeVisible();
        await expect(pane.getByRole('img', { name: 'Good Example Inc logo, square crop' })).toBeVisible();
      }
      const logo = preview.getByRole('img', { name: 'Good Example Inc logo, round crop' }).first();
      expect(await logo.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
      // The SVG really rendered (an <img> that failed to decode has no natural size).
      expect(await logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
      expect(await logo.evaluate((image) => getComputedStyle(image).borderRadius)).toBe('50%');
      expect(
        await preview
          .getByRole('img', { name: 'Good Example Inc logo, square crop' })
          .first()
          .evaluate((image) => getComputedStyle(image).borderRadius),
      ).toBe('8px');
      expect(
        await page
          .locator('[data-scheme=dark] > div')
          .nth(1)
          .evaluate((row) => getComputedStyle(row).backgroundColor),
      ).toBe('rgb(31, 31, 31)');

      const certificate = page.getByTestId('certificate-details');
      await expect(certificate).toContainText('Verified Mark Certificate (VMC)');
      await expect(certificate).toContainText('Registered Mark');
      await expect(certificate).toContainText('Good Example Inc');
      await expect(certificate).toContainText('good.example');
      await expectNoHorizontalScroll(page);

      // A logo with a script: the checks say so, and the image is shown without ever running it.
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const form = page.getByRole('form', { name: 'BIMI checker' });
      await form.getByLabel('Domain').fill('bimi-bad-svg.example');
      await form.getByRole('button', { name: 'Check BIMI' }).click();
      await expect(page).toHaveURL('/bimi-checker?domain=bimi-bad-svg.example');
      await expect(verdict(page)).toHaveAttribute('data-status', 'fail');
      await expect(check(page, 'svg.script')).toHaveAttribute('data-status', 'fail');
      await expect(check(page, 'svg.profile')).toHaveAttribute('data-status', 'fail');
      expect(await page.locator('svg script, script:not([src])').evaluateAll((scripts) => scripts.filter((script) => script.textContent?.includes('alert(1)')).length)).toBe(0);
      expect(dialogs).toEqual([]);

      // The selector is optional and shareable too.
      await page.goto('/bimi-checker?domain=bimi-selector.example&selector=brand');
      await expect(page.getByRole('form', { name: 'BIMI checker' }).getByLabel('Selector (optional)')).toHaveValue('brand');
      await expect(check(page, 'bimi.record.found')).toHaveAttribute('data-status', 'pass');
    });

    test('VMC validator: by domain, by the certificate address, and an uploaded PEM file', async ({ page, request }) => {
      await page.goto('/vmc-validator?domain=bimi-expired-cert.example');
      await expectRemotePage(page, 'tools', 'VMC validator');
      await expect(verdict(page)).toHaveAttribute('data-status', 'fail');
      await expect(check(page, 'vmc.validity')).toHaveAttribute('data-status', 'fail');
      await expect(page.getByTestId('certificate-details')).toContainText('Valid');

      // The certificate's own address, as the BIMI record's a= publishes it.
      const good = (await (await request.get('/api/tools/vmc?domain=good.example')).json()) as { details: { certificateUrl: string } };
      await page.getByRole('tab', { name: 'By address' }).click();
      const byAddress = page.getByRole('form', { name: 'VMC validator: by certificate address' });
      await byAddress.getByLabel('Certificate address').fill('http://example.com/vmc.pem');
      await byAddress.getByRole('button', { name: 'Validate certificate' }).click();
      await expect(byAddress).toContainText('BIMI files must be served over https://');
      await byAddress.getByLabel('Certificate address').fill(good.details.certificateUrl);
      await byAddress.getByRole('button', { name: 'Validate certificate' }).click();
      await expect(page).toHaveURL(`/vmc-validator?url=${encodeURIComponent(good.details.certificateUrl)}`);
      await expect(verdict(page)).toHaveAttribute('data-status', 'pass');
      await expect(page.getByTestId('certificate-details')).toContainText('Good Example Inc');
      await expect(page.getByTestId('inbox-preview').getByRole('img').first()).toHaveAttribute('src', /^data:image\/svg\+xml/);
      // Reloading the shared address opens the same tab and reruns it.
      await page.reload();
      await expect(page.getByRole('tab', { name: 'By address' })).toHaveAttribute('aria-selected', 'true');
      await expect(verdict(page)).toHaveAttribute('data-status', 'pass');

      // Upload: a real (expired) VMC bundle, and a file that is not PEM, refused in the browser.
      await page.getByRole('tab', { name: 'Upload a file' }).click();
      const upload = page.getByRole('form', { name: 'Upload a certificate' });
      await upload.getByLabel('Certificate file (PEM)').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('not a certificate') });
      await expect(upload.getByRole('alert')).toContainText('logo.png is not a PEM certificate');
      await upload.getByLabel('Certificate file (PEM)').setInputFiles({ name: 'cnn.pem', mimeType: 'application/x-pem-file', buffer: readFileSync(join(CERTS, 'cnn.pem')) });
      await expect(page.getByTestId('tool-answer')).toBeVisible();
      await expect(check(page, 'vmc.pem')).toHaveAttribute('data-status', 'pass');
      await expect(page.getByTestId('certificate-details')).toContainText('Cable News Network');
      await expectNoHorizontalScroll(page);
    });
  });
}

test("a checker's form comes without the answer's schemas; they load with the first check", async ({ page }) => {
  // Zod and the tools' contract are needed to read an answer, not to show the form.
  const loadsZod = remoteLoadsZod(page, 'tools');
  await page.goto('/bimi-checker');
  await expectRemotePage(page, 'tools', 'BIMI checker');
  await page.waitForLoadState('networkidle');
  expect(await loadsZod(), 'no Zod before a check').toBe(false);

  const form = page.getByRole('form', { name: 'BIMI checker' });
  await form.getByLabel('Domain').fill('good.example');
  await form.getByRole('button', { name: 'Check BIMI' }).click();
  await expect(verdict(page)).toHaveAttribute('data-status', 'pass');
  expect(await loadsZod(), 'the answer was read with the schemas').toBe(true);
});
