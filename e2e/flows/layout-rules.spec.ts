import type { Page, Route } from '@playwright/test';
import { CART_STORAGE_KEY, ONE_VMC_CART, ONE_VMC_TOTAL } from '../fixtures/cart';
import { backgroundRgba, expect, expectRemotePage, test } from '../support/test';
import { signedInOnDashboard } from '../support/account';

/** Spec §2 layout rules: which header and footer each kind of page gets. */
const FRAMES = [
  { path: '/', remote: 'storefront', title: 'BIMI mark certificates and DMARC enforcement', header: true, footer: 'footer-full' },
  { path: '/faq', remote: 'storefront', title: 'Frequently asked questions', header: true, footer: 'footer-full' },
  { path: '/bimi-checker', remote: 'tools', title: 'BIMI checker', header: true, footer: 'footer-full' },
  { path: '/auth/signin', remote: 'account', title: 'Sign in', header: false, footer: 'footer-small' },
  { path: '/terms', remote: 'storefront', title: 'Terms of service', header: false, footer: 'footer-small' },
  { path: '/checkout', remote: 'checkout', title: 'Checkout', header: false, footer: 'footer-minimal' },
  { path: '/landing/verified-mark-certificate', remote: 'storefront', title: 'Get a Verified Mark Certificate', header: false, footer: 'footer-minimal' },
  { path: '/digicert-enrollment', remote: 'storefront', title: 'DigiCert mark certificate enrollment', header: true, footer: 'footer-small' },
] as const;
const FOOTERS = ['footer-full', 'footer-small', 'footer-minimal'] as const;

async function seedCart(page: Page) {
  await page.addInitScript(({ key, value }) => window.localStorage.setItem(key, value), { key: CART_STORAGE_KEY, value: JSON.stringify(ONE_VMC_CART) });
}

/** Adds height to the page's main area so it can scroll (the account pages are short). */
async function makePageTall(page: Page) {
  await page.locator('main').evaluate((main) => {
    const filler = document.createElement('div');
    filler.setAttribute('data-e2e-filler', '');
    filler.style.height = '3000px';
    main.appendChild(filler);
  });
}

/** The rules that hold at every width. */
function layoutRulesAtEveryWidth() {
  test('each kind of page gets its header and footer (spec §2)', async ({ page }) => {
    for (const frame of FRAMES) {
      await page.goto(frame.path);
      await expectRemotePage(page, frame.remote, frame.title);
      await expect(page.getByTestId('site-header'), `header on ${frame.path}`).toHaveCount(frame.header ? 1 : 0);
      for (const footer of FOOTERS) {
        await expect(page.getByTestId(footer), `${footer} on ${frame.path}`).toHaveCount(footer === frame.footer ? 1 : 0);
      }
      await expect(page.getByTestId(frame.footer)).toBeVisible();
      // The newsletter sign-up sits in the public (full) footer only.
      await expect(page.getByRole('form', { name: 'Newsletter sign-up' })).toHaveCount(frame.footer === 'footer-full' ? 1 : 0);
    }
  });

  test('the header is white from the top on /about, and fades in over the first 20px of scroll on /', async ({ page }) => {
    await page.goto('/about');
    await expectRemotePage(page, 'storefront', 'About us');
    await expect(page.locator('[data-testid=site-header][data-header-variant=white]')).toBeVisible();
    expect(await backgroundRgba(page, '[data-testid=site-header]')).toEqual([255, 255, 255, 1]);

    await page.goto('/');
    await expectRemotePage(page, 'storefront', 'BIMI mark certificates and DMARC enforcement');
    await expect(page.locator('[data-testid=site-header][data-header-variant=fade]')).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect((await backgroundRgba(page, '[data-testid=site-header]'))[3], 'transparent at the top').toBe(0);

    await page.evaluate(() => window.scrollTo(0, 10));
    await expect.poll(async () => (await backgroundRgba(page, '[data-testid=site-header]'))[3], { message: 'half way at 10px' }).toBeCloseTo(0.5, 1);

    await page.evaluate(() => window.scrollTo(0, 20));
    await expect.poll(() => backgroundRgba(page, '[data-testid=site-header]'), { message: 'opaque white at 20px' }).toEqual([255, 255, 255, 1]);
    await page.evaluate(() => window.scrollTo(0, 400));
    await expect.poll(() => backgroundRgba(page, '[data-testid=site-header]')).toEqual([255, 255, 255, 1]);

    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(async () => (await backgroundRgba(page, '[data-testid=site-header]'))[3], { message: 'transparent again at the top' }).toBe(0);
  });

  test('the cart toggle shows a dot only when the cart has items, and opens the checkout drawer with the total', async ({ page }) => {
    await page.goto('/about');
    await expectRemotePage(page, 'storefront', 'About us');
    const dot = page.getByTestId('cart-dot');
    await expect(dot).toHaveAttribute('data-visible', 'false');
    await expect(dot.getByTestId('cart-dot-mark')).toBeHidden();
    await expect(page.getByTestId('cart-toggle')).toHaveAccessibleName('Open cart, empty');
    await page.getByTestId('cart-toggle').click();
    await expect(page.getByTestId('cart-drawer')).toBeVisible();
    await expect(page.getByText('Your cart is empty.')).toBeVisible();
    await expect(page.getByTestId('cart-total')).toHaveText('$0.00');
    await page.getByRole('button', { name: 'Close cart' }).click();
    await expect(page.getByTestId('cart-drawer')).toBeHidden();

    await seedCart(page);
    await page.reload();
    await expectRemotePage(page, 'storefront', 'About us');
    await expect(dot).toHaveAttribute('data-visible', 'true');
    await expect(dot.getByTestId('cart-dot-mark')).toBeVisible();
    await expect(page.getByTestId('cart-toggle')).toHaveAccessibleName(`Open cart, 1 item, ${ONE_VMC_TOTAL}`);

    await page.getByTestId('cart-toggle').click();
    const drawer = page.locator('.MuiDrawer-paper').filter({ has: page.getByTestId('cart-drawer') });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByTestId('cart-line')).toHaveCount(1);
    await expect(drawer.getByTestId('cart-line')).toContainText('Verified Mark Certificate');
    await expect(drawer.getByTestId('cart-line')).toContainText(ONE_VMC_TOTAL);
    await expect(drawer.getByTestId('cart-total')).toHaveText(ONE_VMC_TOTAL);
    await page.screenshot({ path: `/tmp/e2e-cart-drawer-${page.viewportSize()?.width ?? 0}.png` });

    // The drawer's checkout button reaches the checkout page, which reads the same cart.
    await drawer.getByRole('link', { name: 'Go to checkout' }).click();
    await expectRemotePage(page, 'checkout', 'Checkout');
    await expect(page.getByTestId('checkout-total')).toHaveText(`1 item, total ${ONE_VMC_TOTAL}`);
  });
}

test.describe('at 1280px', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  layoutRulesAtEveryWidth();

  test('the desktop navigation shows from 992px; below, a menu button takes its place', async ({ page }) => {
    await page.goto('/faq');
    await expectRemotePage(page, 'storefront', 'Frequently asked questions');
    const header = page.getByTestId('site-header');
    const mainNav = header.getByRole('navigation', { name: 'Main' });
    await expect(mainNav).toBeVisible();
    await expect(mainNav.getByRole('button', { name: 'Products' })).toBeVisible();
    await expect(mainNav.getByRole('button', { name: 'Resources' })).toBeVisible();
    await expect(header.getByRole('button', { name: 'Open menu' })).toBeHidden();

    await page.setViewportSize({ width: 992, height: 720 });
    await expect(mainNav).toBeVisible();
    await expect(header.getByRole('button', { name: 'Open menu' })).toBeHidden();
    await page.setViewportSize({ width: 991, height: 720 });
    await expect(mainNav).toBeHidden();
    await expect(header.getByRole('button', { name: 'Open menu' })).toBeVisible();
  });

  test('the Resources dropdown lists Support and Tools, and closes on Escape', async ({ page }) => {
    await page.goto('/faq');
    await expectRemotePage(page, 'storefront', 'Frequently asked questions');
    const header = page.getByTestId('site-header');
    const resources = header.getByRole('button', { name: 'Resources' });
    await resources.focus();
    await page.keyboard.press('Enter');
    await expect(resources).toHaveAttribute('aria-expanded', 'true');
    await expect(header.getByRole('navigation', { name: 'Support' }).getByRole('link', { name: 'Help center' })).toBeVisible();
    await expect(header.getByRole('navigation', { name: 'Tools' }).getByRole('link', { name: 'DMARC inspector' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(header.getByRole('navigation', { name: 'Tools' })).toHaveCount(0);
  });

  test('a mouse click on Products opens the dropdown and keeps it open (hover first, then click)', async ({ page }) => {
    await page.goto('/faq');
    await expectRemotePage(page, 'storefront', 'Frequently asked questions');
    const header = page.getByTestId('site-header');
    const products = header.getByRole('button', { name: 'Products' });
    await products.click();
    await expect(header.getByRole('navigation', { name: 'Products' })).toBeVisible();
    // Pinned by the click: leaving the button does not close it; a second click does.
    await page.mouse.move(5, 600);
    await expect(header.getByRole('navigation', { name: 'Products' })).toBeVisible();
    await products.click();
    await expect(header.getByRole('navigation', { name: 'Products' })).toHaveCount(0);
  });

  test('account pages: the sidebar with its groups, no public header or footer; collapsing is remembered', async ({ page }) => {
    // Account pages need a session (spec §6).
    await signedInOnDashboard(page);
    await expectRemotePage(page, 'account', 'Dashboard');
    await expect(page.getByTestId('account-layout')).toHaveAttribute('data-variant', 'desktop');
    const sidebar = page.getByTestId('account-sidebar');
    await expect(sidebar).toBeVisible();
    await expect(sidebar).toHaveAttribute('data-collapsed', 'false');
    // Spec §2's groups, with Monitors (issue 13: the dashboard's monitors list) after Dashboard.
    await expect(sidebar.getByRole('navigation', { name: 'Account' }).locator(':scope > *')).toHaveText(['Dashboard', 'Monitors', 'Tools', 'My Orders', 'Settings', 'Support', 'Buy Now']);
    await expect(page.getByTestId('site-header')).toHaveCount(0);
    await expect(page.locator('footer')).toHaveCount(0);
    await expect(page.getByTestId('mobile-tabs')).toHaveCount(0);

    // Support holds the external help links.
    await sidebar.getByRole('button', { name: 'Support' }).click();
    await expect(sidebar.getByRole('link', { name: 'Validation guide' })).toHaveAttribute('href', '/docs/Mark-Certificate-Validation-Guide.pdf');

    // The open sidebar shows no tooltips: their code (MUI's Tooltip and Popper) is not downloaded.
    const manifest = (await (await page.request.get('/mfe/shell/mf-manifest.json')).json()) as { shared: { name: string; assets: { js: { sync: string[] } } }[] };
    const tooltipFiles = manifest.shared.find((shared) => shared.name === '@mui/material/Tooltip')?.assets.js.sync ?? [];
    expect(tooltipFiles.length, "the shell's manifest lists the Tooltip's files").toBeGreaterThan(0);
    const loadedFiles = () => page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name.split('/').pop() ?? ''));
    expect((await loadedFiles()).filter((file) => tooltipFiles.includes(file))).toEqual([]);

    await sidebar.getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect(sidebar).toHaveAttribute('data-collapsed', 'true');
    expect(await page.evaluate(() => window.localStorage.getItem('bimi.sidebar.collapsed'))).toBe('true');
    // 272px open, 76px collapsed (after a .2s transition).
    await expect.poll(async () => (await sidebar.boundingBox())?.width ?? 0).toBeLessThan(120);
    // Collapsed, an item's name shows beside it on hover.
    await sidebar.getByRole('link', { name: 'Monitors' }).hover();
    await expect(page.getByRole('tooltip')).toHaveText('Monitors');

    // The server draws it collapsed too (its cookie): no sidebar opening and closing on each load.
    expect((await (await page.request.get('/account/dashboard')).text()).includes('data-collapsed="true"'), 'collapsed in the first HTML').toBe(true);
    await page.reload();
    await expectRemotePage(page, 'account', 'Dashboard');
    await expect(page.getByTestId('account-sidebar')).toHaveAttribute('data-collapsed', 'true');
    await page.getByTestId('account-sidebar').getByRole('button', { name: 'Expand sidebar' }).click();
    await expect(page.getByTestId('account-sidebar')).toHaveAttribute('data-collapsed', 'false');
    expect(await page.evaluate(() => window.localStorage.getItem('bimi.sidebar.collapsed'))).toBe('false');
  });

  test("a collapsed sidebar whose tooltips' code will not load still shows and leads everywhere, without tooltips", async ({ page }) => {
    await signedInOnDashboard(page);
    const manifest = (await (await page.request.get('/mfe/shell/mf-manifest.json')).json()) as { shared: { name: string; assets: { js: { sync: string[] } } }[] };
    const tooltipFiles = manifest.shared.find((shared) => shared.name === '@mui/material/Tooltip')?.assets.js.sync ?? [];
    expect(tooltipFiles.length).toBeGreaterThan(0);
    await page.route(/\/mfe\/shell\/[^/]+\.js$/, (route: Route) => (tooltipFiles.some((file) => route.request().url().endsWith(`/${file}`)) ? route.abort() : route.fallback()));
    await page.getByTestId('account-sidebar').getByRole('button', { name: 'Collapse sidebar' }).click();
    const sidebar = page.getByTestId('account-sidebar');
    await expect(sidebar).toHaveAttribute('data-collapsed', 'true');
    await sidebar.getByRole('link', { name: 'Monitors' }).hover();
    await sidebar.getByRole('link', { name: 'Monitors' }).click();
    await expect(page).toHaveURL(/\/account\/dashboard#monitors$/);
    await expect(sidebar.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('tooltip')).toHaveCount(0);
  });

  test.describe('newsletter sign-up in the footer', () => {
    const subscribeUrl = '**/api/newsletter/subscribe?*';

    async function openFooterForm(page: Page) {
      await page.goto('/faq');
      await expectRemotePage(page, 'storefront', 'Frequently asked questions');
      const form = page.getByRole('form', { name: 'Newsletter sign-up' });
      await form.scrollIntoViewIfNeeded();
      return {
        form,
        email: form.getByRole('textbox', { name: 'Email address' }),
        subscribe: form.getByRole('button', { name: 'Subscribe' }),
        status: form.getByTestId('newsletter-status'),
      };
    }

    function recordSubscribeCalls(page: Page): URL[] {
      const calls: URL[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname === '/api/newsletter/subscribe') calls.push(url);
      });
      return calls;
    }

    test('an invalid email shows the validation message and sends nothing', async ({ page }) => {
      const calls = recordSubscribeCalls(page);
      const { email, subscribe, status } = await openFooterForm(page);
      await email.fill('not-an-email');
      await subscribe.click();
      await expect(status).toHaveText('Enter a valid email address');
      await email.fill('');
      await subscribe.click();
      await expect(status).toHaveText('Email is required');
      expect(await page.locator('script[src*="/api/newsletter/"]').count()).toBe(0);
      expect(calls).toEqual([]);
    });

    test('a valid email subscribes, thanks the visitor and clears the field', async ({ page }) => {
      const calls = recordSubscribeCalls(page);
      const { email, subscribe, status } = await openFooterForm(page);
      const address = `visitor-${Date.now()}@example.com`;
      await email.fill(address);
      await subscribe.click();
      await expect(status).toHaveText('Thanks for joining our newsletter!');
      await expect(email).toHaveValue('');
      expect(calls).toHaveLength(1);
      expect(calls[0]?.searchParams.get('email')).toBe(address);
      expect(calls[0]?.searchParams.get('c')).toMatch(/^[A-Za-z_$][A-Za-z0-9_$]*$/);
    });

    test('a provider answer other than success shows the error message', async ({ page }) => {
      await page.route(subscribeUrl, (route: Route) => {
        const callback = new URL(route.request().url()).searchParams.get('c') ?? 'missing';
        return route.fulfill({ status: 200, contentType: 'application/javascript', body: `${callback}({"result":"error","msg":"x"})` });
      });
      const { email, subscribe, status } = await openFooterForm(page);
      await email.fill('someone@example.com');
      await subscribe.click();
      await expect(status).toHaveText('Oops! Something went wrong.');
      await expect(email).toHaveValue('someone@example.com');
    });

    test('a provider that cannot be reached shows the error message', async ({ page }) => {
      await page.route(subscribeUrl, (route) => route.abort('connectionrefused'));
      const { email, subscribe, status } = await openFooterForm(page);
      await email.fill('someone@example.com');
      await subscribe.click();
      await expect(status).toHaveText('Oops! Something went wrong.');
    });
  });
});

test.describe('at 375px', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: false });

  layoutRulesAtEveryWidth();

  test('a menu button replaces the desktop navigation; its links navigate and close it', async ({ page }) => {
    await page.goto('/faq');
    await expectRemotePage(page, 'storefront', 'Frequently asked questions');
    const header = page.getByTestId('site-header');
    await expect(header.getByRole('navigation', { name: 'Main' })).toBeHidden();
    const menuButton = header.getByRole('button', { name: 'Open menu' });
    await expect(menuButton).toBeVisible();

    await menuButton.click();
    const menu = page.locator('.MuiDrawer-paper');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('navigation', { name: 'Products' }).getByRole('link', { name: 'Government Mark Certificate' })).toBeVisible();
    await expect(menu.getByRole('navigation', { name: 'Support' }).getByRole('link', { name: 'Help center' })).toBeVisible();
    await expect(menu.getByRole('navigation', { name: 'Tools' }).getByRole('link', { name: 'VMC validator' })).toBeVisible();
    await page.screenshot({ path: '/tmp/e2e-mobile-menu.png' });

    await menu.getByRole('link', { name: 'Government Mark Certificate' }).click();
    await expect(page).toHaveURL('/products/digicert-government-mark-certificate');
    await expectRemotePage(page, 'storefront', 'Government Mark Certificate (GMC)');
    await expect(menu).toHaveCount(0);
  });

  test('account pages: a top bar that hides on scroll down past 60px, bottom tabs, and the More sheet', async ({ page }) => {
    // Account pages need a session (spec §6).
    await signedInOnDashboard(page);
    await expectRemotePage(page, 'account', 'Dashboard');
    await expect(page.getByTestId('account-layout')).toHaveAttribute('data-variant', 'phone');
    await expect(page.getByTestId('account-sidebar')).toHaveCount(0);
    await expect(page.getByTestId('site-header')).toHaveCount(0);
    await expect(page.locator('footer')).toHaveCount(0);

    const topBar = page.getByTestId('mobile-top-bar');
    await expect(topBar).toHaveAttribute('data-hidden', 'false');
    await expect(topBar).toBeInViewport();

    await makePageTall(page);
    await page.mouse.move(180, 400);
    // Down, but not past 60px: the bar stays.
    await page.evaluate(() => window.scrollTo(0, 50));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(50);
    await expect(topBar).toHaveAttribute('data-hidden', 'false');
    // Down past 60px: it hides.
    await page.mouse.wheel(0, 300);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(60);
    await expect(topBar).toHaveAttribute('data-hidden', 'true');
    await expect(topBar).not.toBeInViewport();
    // Up: it shows again.
    await page.mouse.wheel(0, -100);
    await expect(topBar).toHaveAttribute('data-hidden', 'false');
    await expect(topBar).toBeInViewport();

    const tabs = page.getByTestId('mobile-tabs');
    await expect(tabs).toBeInViewport();
    await expect(tabs.locator(':scope > *')).toHaveText(['Dashboard', 'Tools', 'Orders', 'Buy Now', 'More']);
    await expect(tabs.getByRole('link', { name: 'Dashboard' })).toHaveClass(/active/);

    await tabs.getByRole('button', { name: 'More' }).click();
    const sheet = page.getByTestId('more-sheet');
    await expect(sheet).toBeVisible();
    await expect(sheet.getByRole('link', { name: 'Profile' })).toBeVisible();
    await expect(sheet.getByRole('link', { name: 'Validation guide' })).toBeVisible();
    await expect(sheet.getByRole('button', { name: 'Sign Out' })).toBeVisible();
    await page.screenshot({ path: '/tmp/e2e-more-sheet.png' });

    // Spec §9: dragging the sheet down less than 20% of the screen height leaves it open...
    const viewportHeight = page.viewportSize()?.height ?? 812;
    const handle = page.getByTestId('more-sheet-handle');
    const drag = async (distance: number) => {
      const box = await handle.boundingBox();
      if (!box) throw new Error('the sheet handle has no box');
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x, y + distance, { steps: 8 });
      await page.mouse.up();
    };
    await drag(Math.round(viewportHeight * 0.12));
    await expect(sheet).toBeVisible();
    await expect(sheet).toHaveCSS('transform', 'matrix(1, 0, 0, 1, 0, 0)');
    // ...and more than 20% closes it.
    await drag(Math.round(viewportHeight * 0.3));
    await expect(sheet).toHaveCount(0);
  });

  test('the bottom tabs navigate between account pages of different remotes', async ({ page }) => {
    // Account pages need a session (spec §6).
    await signedInOnDashboard(page);
    await expectRemotePage(page, 'account', 'Dashboard');
    const tabs = page.getByTestId('mobile-tabs');
    await tabs.getByRole('link', { name: 'Tools' }).click();
    await expectRemotePage(page, 'tools', 'Tools');
    await expect(tabs.getByRole('link', { name: 'Tools' })).toHaveClass(/active/);
    await tabs.getByRole('link', { name: 'Orders' }).click();
    await expectRemotePage(page, 'account', 'My orders');
  });
});
