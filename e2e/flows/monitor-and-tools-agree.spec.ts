import type { Locator, Page } from '@playwright/test';
import { signedInOnDashboard } from '../support/account';
import { expect, test } from '../support/test';

/**
 * Issue 32, at 1280 and 375 px: the cnn.com monitor, its BIMI checker answer and its assistant tell
 * the same truth. cnn.com is a fixture zone (bff/test/fixtures/tools/zones.ts): DMARC p=reject whose
 * reports go to a service that has not authorized them (hygiene), and a BIMI record whose l= and a=
 * are on a host whose DNS fails (we could not reach it: never "missing or not valid").
 */

/** Each check row as [id, status] (the monitor's rows and the checker's carry the same attributes). */
async function rows(scope: Locator): Promise<[string, string][]> {
  return scope
    .locator('[data-check-id]')
    .evaluateAll((elements) => elements.map((element) => [element.getAttribute('data-check-id') ?? '', element.getAttribute('data-status') ?? ''] as [string, string]));
}

async function openGroup(page: Page, group: string): Promise<Locator> {
  const accordion = page.getByTestId(`group-${group}`);
  const summary = accordion.locator('.MuiAccordionSummary-root');
  if ((await summary.getAttribute('aria-expanded')) !== 'true') await summary.click();
  await expect(summary).toHaveAttribute('aria-expanded', 'true');
  return accordion;
}

for (const width of [1280, 375]) {
  test.describe(`at ${width}px`, () => {
    test.use(width === 375 ? { viewport: { width, height: 740 }, isMobile: true, hasTouch: true } : { viewport: { width, height: 900 } });

    test('the cnn.com monitor, its BIMI checker and its assistant agree', async ({ page }) => {
      await signedInOnDashboard(page);
      await page.goto('/account/dashboard?addMonitor=cnn.com');
      const modal = page.getByRole('dialog', { name: 'Add Monitor' });
      await expect(modal.getByLabel('Domain')).toHaveValue('cnn.com');
      await modal.getByRole('button', { name: 'Add Monitor' }).click();
      await expect(page).toHaveURL('/account/monitors/cnn.com');
      await expect(page.getByRole('heading', { level: 1, name: 'cnn.com' })).toBeVisible();

      // The score ranks protection: p=reject with BIMI and a certificate is in the top band (80–100),
      // the host we could not reach moving it within the band only.
      const score = Number(await page.getByTestId('health-score').getAttribute('data-score'));
      expect(score).toBeGreaterThanOrEqual(80);
      expect(score).toBeLessThanOrEqual(100);

      // The certificate group holds the checker's own a= check; nothing says "no mark certificate".
      const certificate = await openGroup(page, 'certificate');
      await expect(certificate.locator('[data-check-id="bimi.a.valid"]')).toHaveAttribute('data-status', 'pass');
      await expect(certificate.locator('[data-check-id="bimi.a.valid"]')).toContainText('Certificate location');
      await expect(page.getByTestId('monitor-page')).not.toContainText('names no mark certificate');
      // The logo host could not be reached: said so, never "missing or not valid".
      const logo = await openGroup(page, 'logo');
      await expect(logo.locator('[data-check-id="bimi.logo.fetch"]')).toHaveAttribute('data-status', 'unreachable');
      await expect(page.getByTestId('monitor-page')).not.toContainText('missing or not valid');
      await expect(page.getByTestId('inbox-verdict').first()).toContainText('could not reach');
      // Nothing real to fix among what could be checked, and what could not is named; the reporting hygiene under its own heading, never red.
      await expect(page.getByText('Nothing to fix among what we could check. Not checked this time: Logo (SVG Tiny PS) and Mark certificate; we try again on the next check.')).toBeVisible();
      await expect(page.getByTestId('hygiene-issues')).toContainText('External report address not authorized');
      const dmarc = await openGroup(page, 'dmarc');
      await expect(dmarc.locator('[data-status="fail"]')).toHaveCount(0);
      // The group says what the DMARC inspector says: protected (hygiene apart).
      await expect(dmarc.locator('.MuiAccordionSummary-root')).toContainText('Pass');
      const monitorRows = [...(await rows(await openGroup(page, 'bimi'))), ...(await rows(certificate)), ...(await rows(logo))];
      await page.screenshot({ path: test.info().outputPath(`cnn-monitor-${width}.png`), fullPage: true });

      // The assistant, from the same verdicts: p=reject is kept (no weaker record), the unreachable host said as such.
      const panel = page.getByTestId('assistant-panel');
      await panel.getByRole('button', { name: 'Why is my logo not showing?' }).click();
      const answer = panel.getByTestId('assistant-answer').last();
      await expect(answer).not.toHaveAttribute('data-streaming');
      await expect(answer).toContainText('Your DMARC record is at p=reject, which BIMI accepts: keep it as it is.');
      await expect(answer).toContainText('could not reach');
      await expect(answer).not.toContainText('p=quarantine');
      await expect(answer).not.toContainText('missing or not valid');
      await page.screenshot({ path: test.info().outputPath(`cnn-assistant-${width}.png`), fullPage: true });

      // The BIMI checker: the same checks, ids and statuses, as the monitor.
      await page.goto('/bimi-checker?domain=cnn.com');
      const verdict = page.getByTestId('verdict');
      await expect(verdict).toHaveAttribute('data-status', 'unreachable');
      await expect(page.getByTestId('verdict-headline')).toHaveText('Cannot tell yet: we could not reach the logo or certificate host. Try again');
      const checker = page.getByTestId('tool-answer');
      await expect(checker.locator('[data-check-id="bimi.a.valid"]')).toHaveAttribute('data-status', 'pass');
      const checkerRows = await rows(checker);
      const byId = new Map(checkerRows.map(([id, status]) => [id, status]));
      // Every check of the checker's is the monitor's own; the monitor's own findings (monitor.*: the certificate's host down, said in its words) beside them.
      for (const [id, status] of monitorRows.filter(([id]) => !id.startsWith('monitor.'))) expect({ id, status: byId.get(id) }).toEqual({ id, status });
      expect(monitorRows).toContainEqual(['monitor.certificate.fetch', 'unreachable']);
      expect(monitorRows.length).toBeGreaterThan(3);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: test.info().outputPath(`cnn-bimi-checker-${width}.png`), fullPage: true });
    });
  });
}
