import { expect, expectRemotePage, test } from '../support/test';

/**
 * The DMARC inspector shows where the original DMARC (RFC 7489) and RFC 9989 answer differently
 * for a domain, against the fixture DNS (bff/test/fixtures/tools/README.md).
 */
for (const width of [1280, 375]) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('pct=50: RFC 7489 applies quarantine to half the failing mail, RFC 9989 to all; a plain record: both agree', async ({ page }) => {
      await page.goto('/dmarc-inspector?domain=dmarc-quarantine-pct.example');
      await expectRemotePage(page, 'tools', 'DMARC inspector');
      const comparison = page.getByTestId('dmarc-rfc-comparison');
      await expect(comparison).toHaveAttribute('data-agree', 'false');
      const row = comparison.locator('[data-aspect="policy"]');
      await expect(row).toContainText('quarantine on 50% of failing mail');
      await expect(row.locator('td').nth(1)).toHaveText('quarantine');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      await page.goto('/dmarc-inspector?domain=good.example');
      await expect(comparison).toHaveAttribute('data-agree', 'true');
    });
  });
}
