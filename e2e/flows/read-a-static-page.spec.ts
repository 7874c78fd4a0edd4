import type { Locator, Page } from '@playwright/test';
import { pageLoadsMui } from '../support/federation';
import { expect, expectRemotePage, test } from '../support/test';

/**
 * Issue 34: a static page the server rendered (its route says `static`) and the footer's links stay
 * the server's markup: the browser does not hydrate them and loads none of the page's remote for
 * them, yet their links go to other pages, of any remote, in the same document.
 */

const HOME_HEADING = 'Put your logo next to every email you send';

/** Whether React took the element over (hydrated or rendered it): it keeps its fiber on the node. */
const hydrated = (locator: Locator) => locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactFiber$')));

/** Marks the document, so a later check tells a client-side navigation from a new page load. */
const markDocument = (page: Page) => page.evaluate(() => ((window as unknown as { e2eDocument: boolean }).e2eDocument = true));
const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { e2eDocument?: boolean }).e2eDocument === true);

/** Every request for a remote's files the page made. */
function remoteRequests(page: Page, remote: string): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith(`/mfe/${remote}/`)) urls.push(request.url());
  });
  return urls;
}

test("the home page stays the server's markup, loads none of the storefront's code, and its links open other remotes' pages in the same document", async ({ page }) => {
  const storefront = remoteRequests(page, 'storefront');
  const loadsMui = pageLoadsMui(page);
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(HOME_HEADING);
  expect(await hydrated(heading), 'the page is not hydrated').toBe(false);
  const footerLink = page.getByTestId('footer-full').getByRole('link', { name: 'FAQ' });
  expect(await hydrated(footerLink), "the footer's links are not hydrated").toBe(false);
  // The header is: it has menus, the cart and the session's link.
  expect(await hydrated(page.getByTestId('cart-toggle')), 'the header is hydrated').toBe(true);
  expect(storefront, "no file of the storefront's").toEqual([]);
  // The frame (header, footer, cookie banner) draws without MUI: it loads with the first remote.
  expect(await loadsMui(), 'no MUI on the home page').toBe(false);

  await markDocument(page);
  // A link in the page's text, to the tools remote.
  await page.locator('main').getByRole('link', { name: 'BIMI checker', exact: true }).click();
  await expect(page).toHaveURL('/bimi-checker');
  await expectRemotePage(page, 'tools', 'BIMI checker');
  expect(await sameDocument(page), 'a client-side navigation').toBe(true);
  expect(await loadsMui(), 'MUI with the tools remote').toBe(true);
  // In the site's theme: the check's button is the brand's blue.
  await expect(page.locator('main').getByRole('button', { name: 'Check BIMI' })).toHaveCSS('background-color', 'rgb(23, 70, 199)');

  // Back home: the storefront renders the page now.
  await page.goBack();
  await expectRemotePage(page, 'storefront', 'BIMI mark certificates and DMARC enforcement');
  await expect(heading).toHaveText(HOME_HEADING);
  await expect.poll(() => storefront.length, "the storefront's code loads once the visitor moves").toBeGreaterThan(0);
  expect(await hydrated(heading)).toBe(true);

  // A link of the footer's kept markup, to another storefront page.
  await footerLink.click();
  await expect(page).toHaveURL('/faq');
  await expectRemotePage(page, 'storefront', 'Frequently asked questions');
  expect(await sameDocument(page), 'a client-side navigation').toBe(true);
});

test('a static page reads whole and its links work while its remote cannot be loaded in the browser', async ({ page }) => {
  await page.route('**/mfe/storefront/**', (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }));
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('About us');
  await expect(page.locator('[role=alert][data-remote-error]')).toHaveCount(0);
  await markDocument(page);
  await page.getByTestId('footer-full').getByRole('link', { name: 'DMARC inspector' }).click();
  await expect(page).toHaveURL('/dmarc-inspector');
  await expectRemotePage(page, 'tools', 'DMARC inspector');
  expect(await sameDocument(page), 'a client-side navigation').toBe(true);
  // A page of the storefront itself needs its code: the message, in place.
  await page.getByTestId('footer-full').getByRole('link', { name: 'Glossary' }).click();
  await expect(page.locator('[role=alert][data-remote-error=storefront]')).toBeVisible();
});
