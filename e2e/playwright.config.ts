import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { frontendApps } from './support/apps';

/**
 * QA's cross-remote flows, against the production build served by the bff.
 *
 * The web server (support/serve.mjs) copies shell/dist and mfe-*\/dist into a fresh temporary
 * ROOT_DIR and starts the bff on it, so the deploy flow never touches the working tree. The
 * folder is chosen here, once, in the runner process: workers inherit E2E_RUN_DIR.
 */
const WORKSPACE = resolve(__dirname, '..');
const APPS = frontendApps();

const missing = [
  ...APPS.flatMap((app) => (app === 'shell' ? ['index.html', 'mf-manifest.json'] : ['remoteEntry.js', 'mf-manifest.json', 'routes.json']).map((file) => join(WORKSPACE, app, 'dist', file))),
  join(WORKSPACE, 'bff', 'dist', 'server.js'),
].filter((file) => !existsSync(file));
if (missing.length > 0) {
  const names = missing.map((file) => file.slice(WORKSPACE.length + 1));
  const listed = names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
  throw new Error(
    `The e2e flows run against the production build, which is missing (${listed}).\n` + `Build it first, from ${WORKSPACE}:  node scripts/build.mjs && node scripts/build-bff.mjs`,
  );
}

process.env.E2E_RUN_DIR ??= mkdtempSync(join(tmpdir(), 'bimi-e2e-'));
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
// The production-settings project's TLS proxy (serve.mjs --production): 1000 above E2E_PORT unless set.
const productionPort = Number(process.env.E2E_PRODUCTION_PORT ?? port + 1000);
const productionURL = `https://localhost:${productionPort}`;
const PRODUCTION_FLOWS = /production-settings\.spec\.ts$/;
// The controlled-clock project's server (serve.mjs --clock, DEV_CLOCK=true): 2000 above E2E_PORT.
const clockPort = port + 2000;
const clockURL = `http://127.0.0.1:${clockPort}`;
const CLOCK_FLOWS = /controlled-clock\.spec\.ts$/;
// The stripe-double project's server (serve.mjs with E2E_PAYMENTS=stripe-double: the real Stripe SDK
// against the local Stripe API double) on E2E_PORT+3000, its root, data and mail under
// $E2E_RUN_DIR/stripe-double. Only the order flows run there (CI time).
const stripePort = port + 3000;
const stripeURL = `http://127.0.0.1:${stripePort}`;
const STRIPE_FLOWS = /buy-and-manage-an-order\.spec\.ts$/;
const ssrPort = port + 4000;
const ssrURL = `http://127.0.0.1:${ssrPort}`;
const SERVER_RENDERING_FLOWS = /server-rendering\.spec\.ts$/;
// The deploy flows' server (E2E_PORT+5000): its own copy of the build, which they redeploy and
// roll back, so no other flow sees a remote change under it.
const deploysPort = port + 5000;
const deploysURL = `http://127.0.0.1:${deploysPort}`;
const DEPLOY_FLOWS = /independent-deploy\.spec\.ts$/;

/** One server of support/serve.mjs for a project: its own port, and its own run folder when asked. */
function serve(options: { url: string; port: number; flag?: string; runDir?: string; env?: Record<string, string>; ignoreHTTPSErrors?: boolean }) {
  return {
    command: `node e2e/support/serve.mjs${options.flag ? ` ${options.flag}` : ''}`,
    cwd: WORKSPACE,
    url: `${options.url}/api/health`,
    ignoreHTTPSErrors: options.ignoreHTTPSErrors,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { E2E_RUN_DIR: options.runDir ?? (process.env.E2E_RUN_DIR as string), E2E_PORT: String(options.port), ...options.env },
    // SIGTERM lets serve.mjs stop the bff and remove the temporary copy.
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 },
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
  };
}

export default defineConfig({
  testDir: './flows',
  outputDir: './test-results',
  // Every test opens its own context; the deploy flows have a server of their own.
  fullyParallel: true,
  forbidOnly: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  // Some flows are whole journeys (sign up → verify by mail → sign in → profile → sign out: about
  // fifteen page loads). On two cores shared by six servers and two browsers one took 66 s, so a
  // flow may take two minutes; a hang still fails, and speed is the benchmarks' business.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  globalTeardown: './support/global-teardown.ts',
  use: {
    baseURL,
    browserName: 'chromium',
    viewport: { width: 1280, height: 720 },
    locale: 'en-US',
    serviceWorkers: 'block',
    // A failed flow keeps its trace (actions, DOM snapshots, network, console) and a screenshot of
    // the moment it failed; the trace's film strip is left out: recording it for every flow cost
    // about a seventh of the run's CPU (Chromium and Playwright), for the few flows that fail.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [
    // Every flow but the production and clock ones, against the bff with NODE_ENV=test on plain http.
    // Each project whose server is its own says where that server keeps its mail and data
    // (metadata.runDir, read by support/test.ts's runDir()).
    { name: 'test-settings', testIgnore: [PRODUCTION_FLOWS, CLOCK_FLOWS, SERVER_RENDERING_FLOWS, DEPLOY_FLOWS] },
    // The deploy flows publish builds staged beforehand, one after the other (they change the same
    // site), on a server of their own.
    { name: 'stage-deploy', testDir: './support', testMatch: /stage-deploy\.setup\.ts$/ },
    {
      name: 'independent-deploy',
      testMatch: DEPLOY_FLOWS,
      dependencies: ['stage-deploy'],
      fullyParallel: false,
      use: { baseURL: deploysURL },
      metadata: { runDir: 'deploys' },
    },
    // Flows that move the store's clock forward (renewals, expiry), on a server of their own.
    { name: 'controlled-clock', testMatch: CLOCK_FLOWS, use: { baseURL: clockURL }, metadata: { runDir: 'clock' } },
    // A few flows against the bff as production runs it: NODE_ENV=production behind a TLS proxy,
    // Secure __Host- cookies, TRUST_PROXY (docs/security.md).
    { name: 'production-settings', testMatch: PRODUCTION_FLOWS, use: { baseURL: productionURL, ignoreHTTPSErrors: true }, metadata: { runDir: 'production' } },
    // The order flows again, paid through the real `stripe` SDK against the Stripe API double
    // (bff/test/fixtures/stripe) instead of the built-in test payments.
    { name: 'stripe-double', testMatch: STRIPE_FLOWS, use: { baseURL: stripeURL }, metadata: { runDir: 'stripe-double' } },
    // Its last flow breaks a remote's server build: a server of its own.
    { name: 'server-rendering', testMatch: SERVER_RENDERING_FLOWS, use: { baseURL: ssrURL }, metadata: { runDir: 'server-rendering' } },
  ],
  webServer: [
    serve({ url: baseURL, port }),
    // The proxy's certificate is a test certificate made at start.
    serve({ url: productionURL, port: productionPort, flag: '--production', ignoreHTTPSErrors: true }),
    serve({ url: clockURL, port: clockPort, flag: '--clock' }),
    serve({ url: stripeURL, port: stripePort, runDir: join(process.env.E2E_RUN_DIR, 'stripe-double'), env: { E2E_PAYMENTS: 'stripe-double' } }),
    serve({ url: ssrURL, port: ssrPort, runDir: join(process.env.E2E_RUN_DIR, 'server-rendering') }),
    serve({ url: deploysURL, port: deploysPort, runDir: join(process.env.E2E_RUN_DIR, 'deploys') }),
  ],
});
