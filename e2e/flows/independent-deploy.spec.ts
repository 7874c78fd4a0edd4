import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { fetchRegistry } from '../support/registry';
import { DEPLOYED_VERSION as NEW_VERSION, stagedToolsDir } from '../support/staged-deploy';
import { expect, expectRemotePage, navigateClientSide, tempRoot, test } from '../support/test';

const run = promisify(execFile);
const WORKSPACE = resolve(__dirname, '..', '..');
const UNTOUCHED_APPS = ['shell', 'mfe-storefront', 'mfe-checkout', 'mfe-account'];
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

test('deploying the tools remote alone changes tools only, while the site keeps running', async ({ page, request }) => {
  const root = tempRoot();
  const toolsPackage = JSON.parse(readFileSync(join(WORKSPACE, 'mfe-tools', 'package.json'), 'utf8')) as { version: string };

  const before = (await fetchRegistry(request)).find((remote) => remote.name === 'tools');
  expect(before?.version, 'tools is published with its package version').toBe(toolsPackage.version);

  await page.goto('/bimi-checker');
  await expectRemotePage(page, 'tools', 'BIMI checker');
  await expect(page.locator('[data-remote=tools]')).toHaveAttribute('data-version', toolsPackage.version);

  const untouched = new Map(UNTOUCHED_APPS.map((app) => [app, hashTree(join(root, app, 'dist'))]));
  for (const [app, files] of untouched) expect(files.size, `${app}/dist has files`).toBeGreaterThan(0);
  const oldTools = hashTree(join(root, 'mfe-tools', 'dist'));
  const oldToolsHashed = [...oldTools].filter(([file]) => CONTENT_HASHED.test(file));
  expect(oldToolsHashed.length).toBeGreaterThan(0);

  // The deploy (of the build staged before this flow: support/stage-deploy.setup.ts) runs while
  // the bff serves the page that is open.
  const { stdout } = await run(process.execPath, ['scripts/deploy-remote.mjs', 'tools', '--from', stagedToolsDir(), '--root', root], {
    cwd: WORKSPACE,
    timeout: 30_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(stdout).toContain(`deployed tools ${NEW_VERSION}`);

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
  for (const [app, files] of untouched) {
    const now = hashTree(join(root, app, 'dist'));
    expect([...now.keys()].sort(), `${app}/dist file list`).toEqual([...files.keys()].sort());
    const changed = [...files].filter(([file, hash]) => now.get(file) !== hash).map(([file]) => file);
    expect(changed, `${app}/dist changed files`).toEqual([]);
  }

  // The old tools chunks are still there, unchanged, for pages that loaded the old entry.
  const toolsNow = hashTree(join(root, 'mfe-tools', 'dist'));
  const lost = oldToolsHashed.filter(([file, hash]) => toolsNow.get(file) !== hash).map(([file]) => file);
  expect(lost, 'old tools hashed files missing or changed').toEqual([]);
  expect(toolsNow.get('remoteEntry.js'), 'the entry was swapped').not.toBe(oldTools.get('remoteEntry.js'));
  // No temporary files of the swap are left behind.
  expect([...toolsNow.keys()].filter((file) => file.endsWith('.tmp'))).toEqual([]);
});
