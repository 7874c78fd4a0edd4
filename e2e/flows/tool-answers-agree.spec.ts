import type { Cookie, Page } from '@playwright/test';
import { createFixturePki } from '../../bff/test/fixtures/tools/pki';
import { signedInAccountCookies } from '../support/account';
import { expect, expectRemotePage, test as base } from '../support/test';

/**
 * Issue 17, one voice in the tools' answers, at 1280 and 375 px against the fixture zones
 * (bff/test/fixtures/tools/README.md): the headline answers the tool's question and the score is in
 * its band (pass 90–100, warn 50–89, fail or absent 0–49, none when unreachable or nonexistent);
 * every answer ends with next steps; the forms forgive a pasted URL or address; the checks come
 * before the inbox previews on a phone.
 */
const test = base.extend<object, { signedInCookies: Cookie[]; selfSignedPem: string }>({
  signedInCookies: [async ({ browser }, use, workerInfo) => use(await signedInAccountCookies(browser, workerInfo.project.use.baseURL)), { scope: 'worker' }],
  // A self-signed certificate: the test PKI's root, made for signing, not for BIMI.
  selfSignedPem: [async ({}, use) => use((await createFixturePki(['self-signed.example'])).markRootPem), { scope: 'worker' }],
});

const verdict = (page: Page) => page.getByTestId('verdict');
const headline = (page: Page) => page.getByTestId('verdict-headline');
const score = (page: Page) => page.getByTestId('score');
const nextStep = (page: Page, id: string) => page.getByTestId('next-steps').locator(`[data-step="${id}"] a`);

async function expectAnswer(page: Page, status: string, words: string, points?: number) {
  await expect(verdict(page)).toHaveAttribute('data-status', status);
  await expect(headline(page)).toHaveText(words);
  if (points === undefined) await expect(score(page)).toHaveCount(0);
  else await expect(score(page)).toContainText(`${points} / 100`);
}

async function shot(page: Page, name: string, width: number) {
  await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
}

for (const width of [1280, 375]) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: 900 } });
    test.beforeEach(async ({ context, signedInCookies }) => {
      await context.addCookies(signedInCookies);
    });

    test('DKIM with no key at any selector: absent at 0, with the DKIM generator as the next step', async ({ page }) => {
      await page.goto('/account/tools/dkim-lookup?domain=dkim-missing.example');
      await expectRemotePage(page, 'tools', 'DKIM lookup');
      await expectAnswer(page, 'absent', 'No DKIM key found at any selector we tried', 0);
      await expect(page.getByTestId('verdict-question')).toHaveText('Can receivers verify my DKIM signatures?');
      await expect(nextStep(page, 'dkim-generator')).toHaveAttribute('href', '/account/tools/dkim-generator?domain=dkim-missing.example');
      await shot(page, 'dkim-missing', width);
    });

    test('DMARC p=reject with reports to an unauthorized domain, and with reports going nowhere: protected, 95, hygiene apart', async ({ page }) => {
      await page.goto('/dmarc-inspector?domain=dmarc-external-rua.example');
      await expectAnswer(page, 'pass', 'Protected, and ready for BIMI', 95);
      await expect(page.getByTestId('verdict-hygiene')).toContainText('Hygiene: 1 finding');
      await expect(page.getByTestId('hygiene-section')).toContainText('External report address not authorized');
      await expect(page.getByTestId('checks-section')).not.toContainText('External report address not authorized');
      // Ready for BIMI: the BIMI generator, a certificate, a monitor and the guide.
      await expect(nextStep(page, 'bimi-generator')).toHaveAttribute('href', '/account/tools/bimi-generator?domain=dmarc-external-rua.example');
      await expect(nextStep(page, 'certificates')).toHaveAttribute('href', '/products/digicert-mark-certificates');
      await expect(nextStep(page, 'add-monitor')).toHaveAttribute('href', '/account/dashboard?addMonitor=dmarc-external-rua.example');
      await expect(nextStep(page, 'validation-guide')).toHaveAttribute('href', '/docs/Mark-Certificate-Validation-Guide.pdf');
      await shot(page, 'dmarc-external-rua', width);

      await page.goto('/dmarc-inspector?domain=dmarc-no-rua.example');
      await expectAnswer(page, 'pass', 'Protected, and ready for BIMI', 95);
      await expect(page.getByTestId('hygiene-section')).toBeVisible();

      await page.goto('/dmarc-inspector?domain=good.example');
      await expectAnswer(page, 'pass', 'Protected, and ready for BIMI', 100);
    });

    test('a domain without DMARC is offered the generator prefilled at p=none, and the generator reads it', async ({ page }) => {
      await page.goto('/dmarc-inspector?domain=dmarc-missing.example');
      await expectAnswer(page, 'absent', 'Not protected: there is no DMARC record, so not ready for BIMI', 0);
      await nextStep(page, 'dmarc-generator').click();
      await expect(page).toHaveURL(/\/account\/tools\/dmarc-generator\?domain=dmarc-missing\.example&p=none&rua=/);
      await expectRemotePage(page, 'tools', 'DMARC record generator');
      await expect(page.getByTestId('generated-name')).toHaveText('_dmarc.dmarc-missing.example');
      await expect(page.getByTestId('generated-value')).toHaveText('v=DMARC1; p=none; rua=mailto:dmarc-reports@dmarc-missing.example');
      await expect(page.getByTestId('enforcement-path')).toContainText('Step 1 of 3');

      await page.goto('/bimi-checker?domain=bimi-missing.example');
      await expectAnswer(page, 'absent', 'No: there is no BIMI record', 0);
      await nextStep(page, 'bimi-generator').click();
      await expect(page).toHaveURL('/account/tools/bimi-generator?domain=bimi-missing.example');
      await expect(page.getByTestId('generated-name')).toHaveText('default._bimi.bimi-missing.example');
    });

    test('the VMC validator on a self-signed certificate says "Not a mark certificate" and shows no certificate type', async ({ page, selfSignedPem }) => {
      await page.goto('/vmc-validator');
      await page.getByRole('tab', { name: 'Upload a file' }).click();
      const upload = page.getByRole('form', { name: 'Upload a certificate' });
      await upload.getByLabel('Certificate file (PEM)').setInputFiles({ name: 'self-signed.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(selfSignedPem) });
      await expect(page.getByTestId('tool-answer')).toBeVisible();
      await expect(verdict(page)).toHaveAttribute('data-status', 'fail');
      await expect(headline(page)).toHaveText('No: not a valid mark certificate for this logo');
      await expect(page.locator('[data-check-id="vmc.key-purpose"]')).toContainText('Not a mark certificate');
      await expect(page.getByTestId('tool-answer')).not.toContainText('Verified Mark Certificate (VMC)');
      await expect(page.getByTestId('tool-answer')).not.toContainText('Certificate type');
      await expect(nextStep(page, 'certificates')).toBeVisible();
      await shot(page, 'vmc-self-signed', width);
    });

    test('a logo host that cannot be reached is one "could not check", without a score; NXDOMAIN is a nonexistent domain', async ({ page }) => {
      await page.goto('/bimi-checker?domain=bimi-unreachable-host.example');
      await expectAnswer(page, 'unreachable', 'Cannot tell yet: we could not reach the logo or certificate host. Try again');
      await expect(page.locator('[data-check-id][data-status="unreachable"]')).toHaveCount(1);
      await expect(page.locator('[data-check-id][data-status="fail"]')).toHaveCount(0);
      await shot(page, 'bimi-unreachable', width);

      await page.goto('/bimi-checker?domain=no-such-domain.example');
      await expectAnswer(page, 'nonexistent', 'no-such-domain.example does not exist: DNS has no such domain. Check the spelling');
      await expect(page.getByTestId('next-steps')).toContainText('Check the spelling');
      // It takes the visitor back to the field, with what they typed kept to correct.
      await page.getByTestId('next-steps').getByRole('button', { name: 'Check the spelling and try again' }).click();
      await expect(page.getByLabel('Domain')).toBeFocused();
      await expect(page.getByLabel('Domain')).toHaveValue('no-such-domain.example');
      await expect(nextStep(page, 'bimi-generator')).toHaveCount(0);
      await shot(page, 'bimi-nxdomain', width);
    });

    test('forgiving input: a pasted URL or e-mail address is checked as its domain and the field shows what was kept; an IP address is refused', async ({ page }) => {
      await page.goto('/dmarc-inspector');
      const form = page.getByRole('form', { name: 'DMARC inspector' });
      const domain = form.getByLabel('Domain');
      await domain.fill('someone@good.example');
      await form.getByRole('button', { name: 'Inspect DMARC' }).click();
      await expect(page).toHaveURL('/dmarc-inspector?domain=good.example');
      await expect(domain).toHaveValue('good.example');
      await expect(form).toContainText('Checking good.example, the domain of what you entered');
      await expectAnswer(page, 'pass', 'Protected, and ready for BIMI', 100);

      await domain.fill('https://dmarc-none.example/page');
      await domain.blur();
      await expect(domain).toHaveValue('dmarc-none.example');
      await form.getByRole('button', { name: 'Inspect DMARC' }).click();
      await expect(page).toHaveURL('/dmarc-inspector?domain=dmarc-none.example');
      await expectAnswer(page, 'warn', 'Not protected yet: p=none only reports, so not ready for BIMI', 50);
      await expect(nextStep(page, 'dmarc-generator')).toHaveText('Move to enforcement: p=quarantine');

      await domain.fill('192.0.2.1');
      await form.getByRole('button', { name: 'Inspect DMARC' }).click();
      await expect(form).toContainText('Please enter a domain name, not an IP address');
      await expect(page).toHaveURL('/dmarc-inspector?domain=dmarc-none.example');
    });

    test('BIMI checker: the checks come before the inbox previews on a phone', async ({ page }) => {
      await page.goto('/bimi-checker?domain=bimi-no-certificate.example');
      await expect(verdict(page)).toHaveAttribute('data-status', 'warn');
      await expect(headline(page)).toHaveText('In some mailboxes: without a mark certificate, Gmail and Apple Mail will not show it');
      const checks = await page.getByTestId('checks-section').boundingBox();
      const inbox = await page.getByTestId('inbox-section').boundingBox();
      expect(checks && inbox).toBeTruthy();
      if (width < 600) expect(checks!.y).toBeLessThan(inbox!.y);
      await expect(nextStep(page, 'certificates')).toBeVisible();
      await shot(page, 'bimi-no-certificate', width);
    });
  });
}
