import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { PDFParse } from 'pdf-parse';
import { publishedDocuments, publishedRoutes } from '../support/apps';
import { concretePath } from '../support/registry';
import { expect, runDir, SITE_NAME, test } from '../support/test';

/** Every page the storefront publishes, as a visitor would open it (a final * becomes a sample path). */
const PAGES = publishedRoutes('mfe-storefront').routes.map((route) => ({ ...route, url: concretePath(route.path) }));

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function openPage(page: Page, url: string, title: string) {
  const response = await page.goto(url);
  expect(response?.status(), `GET ${url}`).toBe(200);
  await expect(page).toHaveTitle(`${title} | ${SITE_NAME}`);
  await expect(page.locator('[data-remote=storefront] h1')).toBeVisible();
}

/** Serious and critical axe findings, one line each, so a failure names the rule and the elements. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Heading levels in document order; a page has one h1, first, and never skips a level going down. */
async function headingProblems(page: Page): Promise<string[]> {
  const levels = await page.locator('h1, h2, h3, h4, h5, h6').evaluateAll((headings) => headings.map((heading) => Number(heading.tagName[1])));
  const problems: string[] = [];
  if (levels.filter((level) => level === 1).length !== 1) problems.push(`${levels.filter((level) => level === 1).length} h1 elements`);
  if (levels[0] !== 1) problems.push(`the first heading is h${levels[0]}`);
  levels.forEach((level, index) => {
    const previous = levels[index - 1];
    if (previous !== undefined && level > previous + 1) problems.push(`h${previous} followed by h${level}`);
  });
  return problems;
}

/** The pages in groups: one browser page opens a group's routes one after another (the site's files come from its cache). */
const GROUP_SIZE = 6;
const GROUPS = Array.from({ length: Math.ceil(PAGES.length / GROUP_SIZE) }, (_, index) => PAGES.slice(index * GROUP_SIZE, (index + 1) * GROUP_SIZE));

for (const width of [1280, 375]) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 740 : 800 } });

    for (const group of GROUPS) {
      test(`${group.map((route) => route.url).join(', ')}: each has its title, one h1, ordered headings, fits the screen and has no serious accessibility violation`, async ({ page }) => {
        for (const route of group) {
          await test.step(route.url, async () => {
            await openPage(page, route.url, route.title);
            expect(await page.locator('head meta[name=description]').getAttribute('content'), `${route.url}: description`).toBe(route.description);
            expect(await headingProblems(page), `${route.url}: headings`).toEqual([]);
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
            expect(overflow, `${route.url}: no sideways scrolling`).toBeLessThanOrEqual(0);
            expect(await seriousViolations(page), `${route.url}: serious accessibility violations`).toEqual([]);
          });
        }
      });
    }
  });
}

test('every internal link on the storefront pages leads to a page or file that exists', async ({ page, request }) => {
  test.setTimeout(180_000);
  const targets = new Map<string, string>();
  for (const route of PAGES) {
    await openPage(page, route.url, route.title);
    const hrefs = await page.locator('a[href^="/"]').evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
    for (const href of hrefs) if (!targets.has(href)) targets.set(href, route.url);
  }
  // Header dropdown links are not in the page until opened; the rest are.
  expect(targets.size).toBeGreaterThan(25);
  const broken: string[] = [];
  for (const [href, foundOn] of targets) {
    const response = await request.get(href.split('#')[0]!);
    if (response.status() !== 200) broken.push(`${href} (on ${foundOn}): ${response.status()}`);
  }
  expect(broken).toEqual([]);
});

interface StoredContactMessage {
  name: string;
  email: string;
  company: string | null;
  topic: string;
  message: string;
}

/** The bff's own SQLite database in this run (support/serve.mjs), read with the bff's driver. */
function storedContactMessages(email: string): StoredContactMessage[] {
  const requireFromBff = createRequire(resolve(__dirname, '../../bff/package.json'));
  const Database = requireFromBff('better-sqlite3') as new (
    file: string,
    options: { readonly: boolean },
  ) => {
    prepare(sql: string): { all(...values: unknown[]): StoredContactMessage[] };
    close(): void;
  };
  const db = new Database(join(runDir(), 'data', 'store.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT name, email, company, topic, message FROM contact_messages WHERE email = ?').all(email);
  } finally {
    db.close();
  }
}

test('a visitor sees what is wrong with the contact form, then sends a message that is stored', async ({ page }) => {
  await openPage(page, '/contact', 'Contact us');
  const form = page.getByRole('form', { name: 'Contact form' });
  const send = form.getByRole('button', { name: 'Send message' });

  /** The message MUI shows under a field (its helper text, which the field's aria-describedby names). */
  const problem = (field: string) => form.locator(`#contact-${field}-helper-text`);

  await send.click();
  await expect(problem('name')).toHaveText('Name is required');
  await expect(problem('email')).toHaveText('Email is required');
  await expect(problem('topic')).toHaveText('Choose a topic');
  await expect(problem('message')).toHaveText('Message must be at least 10 characters');
  await expect(form.getByLabel('Name')).toBeFocused();
  await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');

  const email = `e2e-${Date.now()}@example.com`;
  await form.getByLabel('Name').fill('Ada Lovelace');
  await form.getByLabel('Email').fill('ada@');
  await form.getByLabel('Email').blur();
  await expect(problem('email')).toHaveText('Enter a valid email address');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Company').fill('Analytical Engines Ltd');
  await form.getByLabel('Topic').selectOption({ label: 'Validation and documents' });
  await form.getByLabel('Message').fill('Our trademark is registered with the UK IPO. Which documents do you need for a VMC?');
  await expect(problem('email')).toHaveCount(0);
  await expect(problem('name')).toHaveCount(0);
  expect(storedContactMessages(email), 'nothing stored before sending').toEqual([]);

  await send.click();
  await expect(form.getByRole('alert')).toContainText(/Thanks, Ada Lovelace\. We have your message \(reference C-\d{6}\)/);
  await expect(form.getByLabel('Name')).toHaveValue('');
  expect(storedContactMessages(email)).toEqual([
    {
      name: 'Ada Lovelace',
      email,
      company: 'Analytical Engines Ltd',
      topic: 'validation',
      message: 'Our trademark is registered with the UK IPO. Which documents do you need for a VMC?',
    },
  ]);
});

test('the contact form opens on the topic a link asks for, and the API refuses what the form would', async ({ page, request }) => {
  await openPage(page, '/contact?topic=call', 'Contact us');
  await expect(page.getByLabel('Topic')).toHaveValue('call');

  const refused = await request.post('/api/contact', { data: { name: 'Ada', email: 'ada@example.com', topic: 'lottery', message: 'short' } });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).message).toContain('topic: Choose a topic');
  expect(storedContactMessages('ada@example.com')).toEqual([]);
});

test('the validation guide linked from the help center downloads as a PDF holding the guide', async ({ page, request }) => {
  await openPage(page, '/help-center', 'Help center');
  const link = page.getByRole('link', { name: 'Mark Certificate Validation Guide (PDF)' });
  // The document the storefront's build publishes (its headings match the guide's source: the storefront's own test).
  const [guidePath] = publishedDocuments('mfe-storefront');
  expect(guidePath).toMatch(/\.pdf$/);
  await expect(link).toHaveAttribute('href', guidePath as string);

  const response = await request.get(guidePath as string);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  const bytes = await response.body();
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  const pdf = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    const info = await pdf.getInfo();
    expect(info.info).toMatchObject({ Title: 'Mark Certificate Validation Guide', Author: SITE_NAME });
    const text = (await pdf.getText()).text.replace(/\s+/g, ' ');
    expect(text).toContain('Mark Certificate Validation Guide');
    expect(info.total, 'several pages').toBeGreaterThan(2);
  } finally {
    await pdf.destroy();
  }
});
