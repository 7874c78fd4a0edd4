import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { frontendApps } from '../support/apps';
import { sharedKeys } from '../support/federation';
import { fetchRegistry } from '../support/registry';
import { CATALOG_NEXT, DEPLOYED_VERSION as NEW_VERSION, stagedStorefrontDir, stagedToolsDir } from '../support/staged-deploy';
import { expect, expectRemotePage, navigateClientSide, tempRoot, test } from '../support/test';

const run = promisify(execFile);
const WORKSPACE = resolve(__dirname, '..', '..');
const APPS = frontendApps();
/** The files a client asks for by a fixed name, which a deploy swaps and a rollback swaps back. */
const ENTRY_FILES = /^(?:server\/)?(?:remoteEntry\.js|mf-manifest\.json|mf-manifest-stats\.json|routes\.json|sharing\.json)(?:\.br|\.gz|\.map)*$/;
/** Webpack's content-hashed names (`<name>.<10 hex>.<ext>`), which a deploy must never replace. */
const CONTENT_HASHED = /\.[0-9a-f]{10}\./;

/** sha256 of every file under a folder, by path relative to it. */
function hashTree(folder: string, prefix = ''): Map<string, string> {
  const hashes = new Map<string, string>();
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) for (const [file, hash] of hashTree(path, name)) hashes.set(file, hash);
    else if (statSync(path).isFile()) hashes.set(name, createHash('sha256').update(readFileSync(path)).digest('hex'));
  }
  return hashes;
}

/** Runs scripts/deploy-remote.mjs with these arguments against the flow server's copy of the build. */
async function deployScript(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['scripts/deploy-remote.mjs', ...args, '--root', tempRoot()], { cwd: WORKSPACE, timeout: 30_000, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** Every app's files but the one deployed, byte for byte. */
function otherAppsFiles(deployed: string): Map<string, Map<string, string>> {
  return new Map(APPS.filter((app) => app !== deployed).map((app) => [app, hashTree(join(tempRoot(), app, 'dist'))]));
}

function expectUnchanged(before: Map<string, Map<string, string>>, when: string) {
  for (const [app, files] of before) {
    expect(files.size, `${app}/dist has files`).toBeGreaterThan(0);
    const now = hashTree(join(tempRoot(), app, 'dist'));
    expect([...now.keys()].sort(), `${app}/dist file list ${when}`).toEqual([...files.keys()].sort());
    const changed = [...files].filter(([file, hash]) => now.get(file) !== hash).map(([file]) => file);
    expect(changed, `${app}/dist changed files ${when}`).toEqual([]);
  }
}

function entryFiles(files: Map<string, string>): Array<[string, string]> {
  return [...files].filter(([file]) => ENTRY_FILES.test(file)).sort(([a], [b]) => a.localeCompare(b));
}

test('deploying the tools remote alone changes tools only, while the site keeps running; a rollback returns it', async ({ page, request }) => {
  const root = tempRoot();
  const toolsPackage = JSON.parse(readFileSync(join(WORKSPACE, 'mfe-tools', 'package.json'), 'utf8')) as { version: string };

  const before = (await fetchRegistry(request)).find((remote) => remote.name === 'tools');
  expect(before?.version, 'tools is published with its package version').toBe(toolsPackage.version);

  await page.goto('/bimi-checker');
  await expectRemotePage(page, 'tools', 'BIMI checker');
  await expect(page.locator('[data-remote=tools]')).toHaveAttribute('data-version', toolsPackage.version);

  const untouched = otherAppsFiles('mfe-tools');
  const oldTools = hashTree(join(root, 'mfe-tools', 'dist'));
  const oldToolsHashed = [...oldTools].filter(([file]) => CONTENT_HASHED.test(file));
  expect(oldToolsHashed.length).toBeGreaterThan(0);

  // The deploy (of the build staged before this flow: support/stage-deploy.setup.ts) runs while
  // the bff serves the page that is open.
  expect(await deployScript('tools', '--from', stagedToolsDir())).toContain(`deployed tools ${NEW_VERSION}`);

  // The page already open keeps working on the version it loaded, across remotes.
  await navigateClientSide(page, '/faq');
  await expectRemotePage(page, 'storefront', 'Frequently asked questions');
  await navigateClientSide(page, '/dmarc-inspector');
  await expectRemotePage(page, 'tools', 'DMARC inspector');
  await expect(page.locator('[data-remote=tools]')).toHaveAttribute('data-version', toolsPackage.version);

  // A reload gets the new version; the registry says so too.
  await page.reload();
  await expectRemotePage(page, 'tools', 'DMARC inspector');
  await expect(page.locator('[data-remote=tools]')).toHaveAttribute('data-version', NEW_VERSION);
  // The server renders the new version too (its server build came with the deploy), with no bff restart.
  const rendered = await (await request.get('/dmarc-inspector')).text();
  expect(rendered.includes(`data-remote="tools" data-version="${NEW_VERSION}"`), 'the server-rendered page is the new version').toBe(true);
  const after = (await fetchRegistry(request)).find((remote) => remote.name === 'tools');
  expect(after?.version).toBe(NEW_VERSION);
  expect(after?.routes.map((route) => route.path)).toEqual(before?.routes.map((route) => route.path));

  // The shell and the other remotes: byte for byte the same files, none added or removed.
  expectUnchanged(untouched, 'after the deploy');

  // The old tools chunks are still there, unchanged, for pages that loaded the old entry.
  const toolsNow = hashTree(join(root, 'mfe-tools', 'dist'));
  const lost = oldToolsHashed.filter(([file, hash]) => toolsNow.get(file) !== hash).map(([file]) => file);
  expect(lost, 'old tools hashed files missing or changed').toEqual([]);
  expect(toolsNow.get('remoteEntry.js'), 'the entry was swapped').not.toBe(oldTools.get('remoteEntry.js'));
  // No temporary files of the swap are left behind.
  expect([...toolsNow.keys()].filter((file) => file.endsWith('.tmp'))).toEqual([]);

  // The same version cannot be released twice (a release is immutable).
  await expect(deployScript('tools', '--from', stagedToolsDir())).rejects.toThrow(/released before: releases are immutable/);

  // One command returns to the version that was live before: the same entry files as before the
  // deploy, the registry and the pages on the old version, the other apps still untouched.
  expect(await deployScript('tools', '--rollback')).toContain(`rolled tools back from ${NEW_VERSION} to ${toolsPackage.version}`);
  expect(entryFiles(hashTree(join(root, 'mfe-tools', 'dist')))).toEqual(entryFiles(oldTools));
  expect((await fetchRegistry(request)).find((remote) => remote.name === 'tools')?.version).toBe(toolsPackage.version);
  await page.reload();
  await expectRemotePage(page, 'tools', 'DMARC inspector');
  await expect(page.locator('[data-remote=tools]')).toHaveAttribute('data-version', toolsPackage.version);
  expectUnchanged(untouched, 'after the rollback');

  // The history says what is live and what happened.
  const status = await deployScript('tools', '--status');
  expect(status).toContain(`tools: ${toolsPackage.version} is live`);
  expect(status).toMatch(new RegExp(`snapshot +${toolsPackage.version}[\\s\\S]*deploy +${NEW_VERSION}[\\s\\S]*rollback +${toolsPackage.version}`));
  await expect(deployScript('tools', '--rollback')).rejects.toThrow(/nothing to roll back to/);
});

test('a storefront built against catalog N+1 runs in the shell built with catalog N, on its own catalog and the one cart', async ({ page, request }) => {
  const storefrontPackage = JSON.parse(readFileSync(join(WORKSPACE, 'mfe-storefront', 'package.json'), 'utf8')) as { version: string };
  const shellCatalog = JSON.parse(readFileSync(join(WORKSPACE, 'packages', 'catalog', 'package.json'), 'utf8')) as { version: string };
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // The e2e servers configure no card price identifiers (built-in test payments need none), and the cart says so.
    if (message.type() === 'error' && !message.text().startsWith('[price-id]')) errors.push(message.text());
  });

  const untouched = otherAppsFiles('mfe-storefront');
  expect(await deployScript('storefront', '--from', stagedStorefrontDir())).toContain(`deployed storefront ${CATALOG_NEXT.storefrontVersion}`);

  // The storefront's pages show catalog N+1, in the browser and in the server's HTML.
  await page.goto('/products/easydmarc-enforcement');
  await expectRemotePage(page, 'storefront', 'DMARC enforcement plans');
  await expect(page.locator('[data-remote=storefront]')).toHaveAttribute('data-version', CATALOG_NEXT.storefrontVersion);
  await expect(page.getByTestId('dmarc-plan-dmarc-premium')).toContainText(CATALOG_NEXT.premiumHistory.after);
  const rendered = await (await request.get('/products/easydmarc-enforcement')).text();
  expect(rendered).toContain(CATALOG_NEXT.premiumHistory.after);

  // The runtime holds both catalogs: the shell's N (its prices module, which the shell's cart
  // button formats with) and the storefront's own N+1, which the storefront loaded.
  const catalog = new Map((await sharedKeys(page, '@bimi/catalog')).map(({ key, versions }) => [key, new Map(versions.map((entry) => [entry.version, entry]))]));
  expect(catalog.get('@bimi/catalog/prices')?.get(shellCatalog.version)?.from, 'catalog N comes from the shell').toBe('shell');
  for (const module of ['@bimi/catalog/prices', '@bimi/catalog/products']) {
    const next = catalog.get(module)?.get(CATALOG_NEXT.version);
    expect(next?.from, `${module} N+1 comes from the storefront`).toBe('storefront');
    expect(next?.loaded, `the storefront loaded its own ${module}`).toBe(true);
  }

  // Still one cart: what the storefront adds, the shell's cart button and the checkout remote see.
  await navigateClientSide(page, '/products/digicert-verified-mark-certificate');
  await expectRemotePage(page, 'storefront', 'Verified Mark Certificate (VMC)');
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('cart-toggle')).toHaveAttribute('data-count', '1');
  await navigateClientSide(page, '/checkout');
  await expectRemotePage(page, 'checkout', 'Checkout');
  await expect(page.getByText('Verified Mark Certificate').first()).toBeVisible();
  const cartKeys = await sharedKeys(page, '@bimi/cart');
  expect(cartKeys.length, 'the cart is in the share scope').toBeGreaterThan(0);
  for (const { key, versions } of cartKeys) {
    expect(versions, `${key}: one cart package in the page`).toHaveLength(1);
    expect(versions[0]?.from, `${key} comes from the shell`).toBe('shell');
  }
  // The rest of the site too.
  await navigateClientSide(page, '/bimi-checker');
  await expectRemotePage(page, 'tools', 'BIMI checker');
  expect(errors, 'no errors in the page').toEqual([]);
  expectUnchanged(untouched, 'after the storefront deploy');

  // Rolled back in one step: the shell's catalog again.
  expect(await deployScript('storefront', '--rollback')).toContain(`rolled storefront back from ${CATALOG_NEXT.storefrontVersion} to ${storefrontPackage.version}`);
  await page.goto('/products/easydmarc-enforcement');
  await expectRemotePage(page, 'storefront', 'DMARC enforcement plans');
  await expect(page.getByTestId('dmarc-plan-dmarc-premium')).toContainText(CATALOG_NEXT.premiumHistory.before);
  expectUnchanged(untouched, 'after the rollback');
});
