#!/usr/bin/env node
// Playwright's webServer: copies the production build into a fresh temporary ROOT_DIR (so
// the deploy flow never touches the working tree) and starts the bff on it.
//
//   E2E_RUN_DIR  where to put root/ and data/ (the config sets it; a temp folder otherwise)
//   E2E_PORT     where the bff listens (3100)
//
// With --production (the production-settings project): the bff runs as in production,
// NODE_ENV=production with a SESSION_SECRET, TRUST_PROXY and an https PUBLIC_URL, behind a
// TLS-terminating proxy (bff/test/fixtures/tls-proxy.ts, a test certificate made at start) that
// listens on https://localhost:E2E_PORT and forwards to the bff on a free loopback port. It keeps
// its data and mail under $E2E_RUN_DIR/production and serves the build from the working tree
// (no flow there redeploys a remote). The tools get the fixture DNS server only: production
// refuses TOOLS_ALLOW_LOOPBACK, so only DNS-only tools work there.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { FRONTEND_APPS } from '../../scripts/apps.mjs';
import { startSmtpSink } from './smtp-sink.mjs';

// E2E_PAYMENTS=stripe-double: the real Stripe SDK against the local API double (stripe-double.mjs).
if (process.env.E2E_PAYMENTS === 'stripe-double') await import('./stripe-double.mjs');

const WORKSPACE = path.resolve(import.meta.dirname, '..', '..');
const APPS = FRONTEND_APPS;

const production = process.argv.includes('--production');
// --clock (the controlled-clock project): test settings plus DEV_CLOCK, a store clock the flows move
// forward with POST /dev/clock; its own data and mail under $E2E_RUN_DIR/clock, the build served
// from the working tree. A server of its own, so moving its clock disturbs no other flow.
const clock = process.argv.includes('--clock');
const baseRunDir = process.env.E2E_RUN_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'bimi-e2e-'));
const runDir = production ? path.join(baseRunDir, 'production') : clock ? path.join(baseRunDir, 'clock') : baseRunDir;
const rootDir = production || clock ? WORKSPACE : path.join(runDir, 'root');
const dataDir = path.join(runDir, 'data');
const port = process.env.E2E_PORT ?? '3100';

for (const app of APPS) {
  const marker = path.join(WORKSPACE, app, 'dist', app === 'shell' ? 'index.html' : 'remoteEntry.js');
  if (!existsSync(marker)) {
    console.error(`e2e: ${marker} is missing. Build the site first: node scripts/build.mjs`);
    process.exit(1);
  }
}

if (!production && !clock) rmSync(rootDir, { recursive: true, force: true });
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
if (!production && !clock) {
  for (const app of APPS) {
    cpSync(path.join(WORKSPACE, app, 'dist'), path.join(rootDir, app, 'dist'), { recursive: true });
  }
  writeFileSync(path.join(runDir, 'root-dir'), rootDir);
  console.log(`e2e: serving a copy of the build from ${rootDir} on http://127.0.0.1:${port}`);
}

/** A port nothing listens on right now, for the bff behind the proxy. */
async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: free } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return String(free);
}
const bffPort = production ? await freePort() : port;
const publicUrl = `https://localhost:${port}`;

// The e-mail tools' fixture DNS and HTTPS servers (bff/test/fixtures/tools/README.md lists the
// domains): they print the bff settings that point the tools at them, then serve until stdin closes.
const toolFixtures = spawn(process.execPath, ['--import', 'tsx', path.join('test', 'fixtures', 'tools', 'serve.ts')], {
  cwd: path.join(WORKSPACE, 'bff'),
  stdio: ['pipe', 'pipe', 'inherit'],
});
const toolFixtureSettings = await new Promise((resolve, reject) => {
  let output = '';
  toolFixtures.stdout.on('data', (chunk) => {
    output += chunk;
    if (output.includes('\n')) resolve(JSON.parse(output.slice(0, output.indexOf('\n'))));
  });
  toolFixtures.once('exit', (code) => reject(new Error(`e2e: the tool fixtures stopped (${code})`)));
});

// Mail goes over real SMTP to a loopback server that files each message under runDir/mail.
const smtpSink = await startSmtpSink(path.join(runDir, 'mail'));

// The settings that make a production run: only the fixture DNS server of the tool fixtures.
const productionSettings = {
  NODE_ENV: 'production',
  SESSION_SECRET: randomBytes(32).toString('hex'),
  // The proxy reaches the bff from 127.0.0.1.
  TRUST_PROXY: 'loopback',
  PUBLIC_URL: publicUrl,
  DNS_SERVERS: toolFixtureSettings.env.DNS_SERVERS,
};

// The compiled server build (scripts/build-bff.mjs), run by plain node as `npm start` runs it.
const bff = spawn(process.execPath, ['--enable-source-maps', path.join('dist', 'server.js')], {
  cwd: path.join(WORKSPACE, 'bff'),
  stdio: 'inherit',
  env: {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: bffPort,
    ROOT_DIR: rootDir,
    DATA_DIR: dataDir,
    TAG_MANAGER_ID: 'GTM-E2ETEST',
    NEWSLETTER_URL: '',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'error',
    NODE_ENV: 'test',
    SMTP_URL: smtpSink.smtpUrl,
    ...(production ? productionSettings : toolFixtureSettings.env),
    ...(clock ? { DEV_CLOCK: 'true' } : {}),
    // Playwright flows run every tool many times from one address.
    TOOLS_RATE_LIMIT_PER_MINUTE: '600',
    // …and sign up a user per account flow and worker.
    SIGNUP_RATE_LIMIT_PER_HOUR: '1000',
  },
});

// In production mode, the TLS-terminating proxy in front of the bff, on the port the flows use.
const tlsProxy = production
  ? spawn(process.execPath, ['--import', 'tsx', path.join('test', 'fixtures', 'tls-proxy-serve.ts')], {
      cwd: path.join(WORKSPACE, 'bff'),
      stdio: ['pipe', 'inherit', 'inherit'],
      env: { ...process.env, TLS_PROXY_PORT: port, TLS_PROXY_TARGET: `http://127.0.0.1:${bffPort}` },
    })
  : undefined;
if (production) console.log(`e2e: the bff with NODE_ENV=production behind a TLS proxy on ${publicUrl}`);

let stopping = false;
function cleanUp() {
  void smtpSink.stop();
  toolFixtures.stdin.end();
  tlsProxy?.stdin.end();
  if (!process.env.E2E_KEEP_RUN_DIR) rmSync(runDir, { recursive: true, force: true });
}
function stop(signal) {
  if (stopping) return;
  stopping = true;
  if (bff.exitCode === null) bff.kill(signal);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal));
bff.on('exit', (code, signal) => {
  cleanUp();
  if (!stopping) console.error(`e2e: the bff stopped unexpectedly (${signal ?? code})`);
  process.exit(stopping ? 0 : (code ?? 1));
});
