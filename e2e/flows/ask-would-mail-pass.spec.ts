import type { Cookie, Page } from '@playwright/test';
import { signedInAccountCookies } from '../support/account';
import { expect, expectRemotePage, test as base } from '../support/test';

/**
 * "Would mail from 192.0.2.10 pass for this domain?" on the SPF lookup page, against the fixture
 * DNS (bff/test/fixtures/tools/README.md): the optional IP and sender fields, the verdict card
 * with the matched term and lookup count, and the shareable URL that carries the question.
 */
const test = base.extend<object, { signedInCookies: Cookie[] }>({
  signedInCookies: [async ({ browser }, use, workerInfo) => use(await signedInAccountCookies(browser, workerInfo.project.use.baseURL)), { scope: 'worker' }],
});

test.beforeEach(async ({ context, signedInCookies }) => {
  await context.addCookies(signedInCookies);
});

async function expectNoHorizontalScroll(page: Page) {
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'nothing wider than the screen').toBeLessThanOrEqual(width);
}

for (const width of [1280, 375]) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('asks whether mail from an address would pass: pass by ip4, fail with the explanation, temperror, and the question in the URL', async ({ page }, testInfo) => {
      await page.goto('/account/tools/spf-lookup');
      await expectRemotePage(page, 'tools', 'SPF lookup');
      const form = page.getByRole('form', { name: 'SPF lookup' });

      // A sender alone is not a question SPF can answer: the browser says so and sends nothing.
      await form.getByLabel('Domain').fill('good.example');
      await form.getByLabel('Sender (optional)').fill('bounce@good.example');
      await form.getByRole('button', { name: 'Look up SPF' }).click();
      await expect(form).toContainText('Give the IP address of the sending server to evaluate a sender.');
      await form.getByLabel('Sending IP (optional)').fill('192.0.2.1O');
      await form.getByLabel('Sending IP (optional)').blur();
      await expect(form).toContainText('Please enter an IPv4 or IPv6 address, e.g., 192.0.2.10');

      await form.getByLabel('Sending IP (optional)').fill('192.0.2.10');
      await form.getByRole('button', { name: 'Look up SPF' }).click();
      await expect(page).toHaveURL(/\/account\/tools\/spf-lookup\?domain=good\.example&ip=192\.0\.2\.10&sender=bounce%40good\.example$/);
      const card = page.getByTestId('spf-evaluation');
      await expect(card).toHaveAttribute('data-result', 'pass');
      await expect(page.getByTestId('spf-evaluation-result')).toHaveText('SPF pass');
      await expect(page.getByTestId('spf-evaluation-term')).toHaveText('ip4:192.0.2.0/24 in the record of good.example');
      await expect(page.getByTestId('spf-evaluation-lookups')).toHaveText('1 of 10');
      await expect(card).toContainText('with sender bounce@good.example');
      // The record inspection is still shown beside the verdict.
      await expect(page.getByTestId('spf-tree')).toBeVisible();
      await expectNoHorizontalScroll(page);
      await page.screenshot({ path: testInfo.outputPath(`spf-verdict-${width}.png`), fullPage: true });
      await form.screenshot({ path: testInfo.outputPath(`spf-form-${width}.png`) });
      await card.screenshot({ path: testInfo.outputPath(`spf-card-${width}.png`) });

      // A shared link asks the same question: a fail, with the domain's own explanation (macros expanded).
      await page.goto('/account/tools/spf-lookup?domain=spf-eval.example&ip=203.0.113.5&sender=bob@spf-eval.example');
      await expect(card).toHaveAttribute('data-result', 'fail');
      await expect(page.getByTestId('spf-evaluation-term')).toHaveText('-all in the record of spf-eval.example');
      await expect(page.getByTestId('spf-evaluation-explanation')).toHaveText('203.0.113.5 is not allowed to send mail as bob@spf-eval.example');
      await card.getByText(/^Each step/).click();
      await expect(card).toContainText('exists:%{l}.senders.spf-eval.example in spf-eval.example → bob.senders.spf-eval.example: no match');

      // A name server that fails is a temporary error, said as such.
      await page.goto('/account/tools/spf-lookup?domain=spf-temperror.example&ip=192.0.2.10');
      await expect(card).toHaveAttribute('data-result', 'temperror');
      await expect(page.getByTestId('spf-evaluation-result')).toHaveText('SPF temporary error (temperror)');
      await expect(card).toContainText('down.spf-temperror-ns.example');
      await expectNoHorizontalScroll(page);
    });

    test('a record over the lookup limit: what each include costs and the flattened record, with its risks', async ({ page }, testInfo) => {
      await page.goto('/account/tools/spf-lookup?domain=spf-flatten.example');
      await expectRemotePage(page, 'tools', 'SPF lookup');
      const advice = page.getByTestId('spf-flattening');
      await expect(advice).toContainText('The record takes 12 DNS lookups; receivers stop at 10.');
      await expect(advice.locator('[data-include="include:hosts.spf-flatten.example"]')).toContainText('10 lookups');
      await expect(advice.locator('[data-include="include:p1.spf-flatten.example"]')).toContainText('can be flattened');
      await expect(page.getByTestId('spf-flattened-lookups')).toContainText('Flattened: 10 of 10 lookups');
      await expect(page.getByTestId('spf-flattened-record')).toHaveText('v=spf1 ip4:198.51.100.0/24 ip6:2001:db8:1::/48 include:hosts.spf-flatten.example -all');
      await expect(page.getByTestId('spf-flattening-risks')).toContainText('update the record');
      await expectNoHorizontalScroll(page);
      await advice.screenshot({ path: testInfo.outputPath(`spf-flattening-${width}.png`) });
    });
  });
}
