import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../bff/test/free-port';
import { expect, expectRemotePage, navigateClientSide, recordBeacons, test, type ClientErrorReport } from '../support/test';

/**
 * Issue 16, "faults survived": a remote's files are removed from the server while a visitor
 * browses (a botched deploy, a disk cleaned up under the bff). The page already open keeps working,
 * and the area of the remote that is gone shows the in-place message with Retry, which brings it
 * back once the files are back. remote-failure.spec.ts covers a remote that fails as the page loads,
 * with the browser's requests intercepted; here the files really go, on a bff of the flow's own
 * (support/serve.mjs on a port of its own, its own copy of the build), since no other flow may see
 * a remote vanish under it.
 */

const WORKSPACE = resolve(__dirname, '..', '..');
const LOAD_FAILED = 'This part of the site could not be loaded';

let server: ChildProcess | undefined;
let runDir = '';
let site = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  runDir = mkdtempSync(join(tmpdir(), 'bimi-e2e-removed-'));
  const port = await freePort();
  site = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['e2e/support/serve.mjs'], { cwd: WORKSPACE, env: { ...process.env, E2E_RUN_DIR: runDir, E2E_PORT: String(port) }, stdio: 'ignore' });
  for (let tries = 0; ; tries += 1) {
    if (server.exitCode !== null) throw new Error(`support/serve.mjs stopped (${server.exitCode})`);
    const alive = await fetch(`${site}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (alive) break;
    if (tries > 300) throw new Error(`the flow's own bff did not answer on ${site} within 60 s`);
    await new Promise((done) => setTimeout(done, 200));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((done) => server?.once('exit', done));
    // SIGTERM: serve.mjs stops the bff and removes its copy of the build.
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(runDir, { recursive: true, force: true });
});

test("the tools remote's files removed while a visitor browses: its area shows Retry, the rest works, Retry brings it back", async ({ page }) => {
  const errors = recordBeacons<ClientErrorReport>(page, '/api/client-errors');
  const toolsBuild = join(readFileSync(join(runDir, 'root-dir'), 'utf8').trim(), 'mfe-tools', 'dist');
  const removed = `${toolsBuild}.removed`;

  // A page whose content links to no tool, so the tools remote is not loaded before it is needed.
  await page.goto(`${site}/terms`);
  await expectRemotePage(page, 'storefront', 'Terms of service');

  renameSync(toolsBuild, removed);
  try {
    expect(existsSync(toolsBuild)).toBe(false);
    await navigateClientSide(page, '/bimi-checker');
    const message = page.locator('[role=alert][data-remote-error=tools]');
    await expect(message).toContainText(LOAD_FAILED);
    await expect(message.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(page.locator('[data-remote=tools]')).toHaveCount(0);
    await expect.poll(() => errors.filter((report) => report.kind === 'remote-load' && report.remote === 'tools' && report.path === '/bimi-checker').length).toBeGreaterThan(0);

    // The frame and the other remotes keep working: the cart (checkout), another page (storefront).
    await expect(page.getByTestId('site-header')).toBeVisible();
    await expect(page.getByTestId('footer-full')).toBeVisible();
    await page.getByTestId('cart-toggle').click();
    await expect(page.getByTestId('cart-drawer')).toContainText('Your cart');
    await page.getByRole('button', { name: 'Close cart' }).click();
    await page.getByTestId('footer-full').getByRole('link', { name: 'About' }).click();
    await expectRemotePage(page, 'storefront', 'About us');

    // Still gone: back on the tools page, the message again, and Retry cannot help yet.
    await page.goBack();
    await expect(page).toHaveURL(`${site}/bimi-checker`);
    await expect(message).toContainText(LOAD_FAILED);
    const failures = () => errors.filter((report) => report.kind === 'remote-load' && report.remote === 'tools').length;
    const failedBefore = failures();
    await message.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(failures).toBeGreaterThan(failedBefore);
    await expect(message).toContainText(LOAD_FAILED);
  } finally {
    if (existsSync(removed)) renameSync(removed, toolsBuild);
  }

  // The files are back: Retry loads the remote in place, without a reload.
  await page.locator('[role=alert][data-remote-error=tools]').getByRole('button', { name: 'Retry' }).click();
  await expectRemotePage(page, 'tools', 'BIMI checker');
  await expect(page.locator('[role=alert][data-remote-error=tools]')).toHaveCount(0);
});
