#!/usr/bin/env node
// `pnpm bench:bff [--long]`: what one request of each class costs the bff against bare Fastify
// (issue 16). Starts the compiled bff (scripts/build-bff.mjs) on the embedded defaults, the tools'
// fixture DNS server, and a bare Fastify 5 "hello" server, then loads each endpoint with autocannon
// in turn (50 connections for 8 s) and prints req/s, p99 and the ratio to bare Fastify measured in
// the same run, against issue 16's goal of 60 %. With --long: 200 connections for 60 s each, and the
// p99 and errors of that. Figures, never a pass or fail: speed is this script's business, not a test's.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from './bench/bff.mjs';
import { startDnsFixtures } from './bench/dns-fixtures.mjs';
import { buildBff } from './build-bff.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const BFF = path.join(ROOT, 'bff');
const GOAL = 0.6;
const long = process.argv.includes('--long');
const load = long ? { connections: 200, duration: 60 } : { connections: 50, duration: 8 };

const CART = JSON.stringify({
  items: [
    { productId: 'verified-mark-certificate', domains: 3, years: 2, logos: 2 },
    { productId: 'dmarc-plus', emailVolume: 100_000, billingPeriod: 'monthly' },
  ],
});

/** The endpoint classes of issue 16, each as autocannon requests it. */
const ENDPOINTS = [
  { label: 'GET /api/health', path: '/api/health' },
  { label: 'GET /api/auth/session (no cookie)', path: '/api/auth/session' },
  { label: 'GET /api/public-config', path: '/api/public-config' },
  { label: 'POST /api/cart/quote', path: '/api/cart/quote', method: 'POST', headers: { 'content-type': 'application/json' }, body: CART },
  { label: 'GET /api/tools/dmarc (cached answer)', path: '/api/tools/dmarc?domain=good.example' },
  { label: 'GET / (anonymous page, cached HTML)', path: '/', headers: { 'accept-encoding': 'br' } },
  { label: 'GET /bimi-checker (anonymous page, cached HTML)', path: '/bimi-checker', headers: { 'accept-encoding': 'br' } },
];

/** Waits until the server answers; one that stops or never answers is killed and reported. */
async function untilAnswers(url, child) {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`${url}: the server stopped (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`${url} did not answer`);
}

/** Bare Fastify 5 (the bff's own copy) answering "hello" as JSON: the floor every endpoint is compared with. */
async function startBareFastify(port) {
  const fastify = createRequire(path.join(BFF, 'package.json')).resolve('fastify');
  const source = `const app = require(${JSON.stringify(fastify)})(); app.get('/', async () => ({ hello: 'world' })); app.listen({ host: '127.0.0.1', port: ${port} });`;
  const child = spawn(process.execPath, ['-e', source], { stdio: 'inherit' });
  await untilAnswers(`http://127.0.0.1:${port}/`, child);
  return child;
}

async function startBff(port, dataDir, env) {
  const child = spawn(process.execPath, [path.join(BFF, 'dist', 'server.js')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', TOOLS_RATE_LIMIT_PER_MINUTE: '1000000' },
  });
  await untilAnswers(`http://127.0.0.1:${port}/api/health`, child);
  return child;
}

/** One autocannon run; non-2xx answers count as errors. */
async function measure(url, endpoint) {
  const result = await autocannon({ url: `${url}${endpoint.path}`, method: endpoint.method ?? 'GET', headers: endpoint.headers, body: endpoint.body, ...load });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-bff-'));
const children = [];
try {
  const built = await buildBff();
  console.log(`compiled bff: ${Math.round(built.serverBytes / 1024)} KB with its source map`);
  const fixtures = await startDnsFixtures();
  children.push(fixtures.child);
  const [barePort, bffPort] = await Promise.all([freePort(), freePort()]);
  // Each kept as soon as it answers, so a failure to start the next still stops it (finally).
  children.push(await startBareFastify(barePort));
  children.push(await startBff(bffPort, dataDir, fixtures.env));
  const bff = `http://127.0.0.1:${bffPort}`;
  // Warm: the tool answer and the pages are cached by their first request.
  for (const endpoint of ENDPOINTS) await fetch(`${bff}${endpoint.path}`, { method: endpoint.method ?? 'GET', headers: endpoint.headers, body: endpoint.body });

  console.log(`${load.connections} connections, ${load.duration} s each, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'})\n`);
  const bare = await measure(`http://127.0.0.1:${barePort}`, { path: '/' });
  const rows = [{ label: 'bare Fastify 5 "hello"', ...bare, ratio: 1 }];
  for (const endpoint of ENDPOINTS) rows.push({ label: endpoint.label, ...(await measure(bff, endpoint)) });
  for (const row of rows) row.ratio = row.rps / bare.rps;

  const width = Math.max(...rows.map((row) => row.label.length));
  console.log(`${'endpoint'.padEnd(width)}  ${'req/s'.padStart(8)}  ${'p99 ms'.padStart(7)}  ${'errors'.padStart(6)}  of bare  goal ${Math.round(GOAL * 100)} %`);
  for (const row of rows) {
    const verdict = row.ratio >= GOAL ? 'met' : `gap ${Math.round((GOAL - row.ratio) * bare.rps)} req/s`;
    console.log(
      `${row.label.padEnd(width)}  ${Math.round(row.rps).toLocaleString('en-US').padStart(8)}  ${String(row.p99).padStart(7)}  ${String(row.errors).padStart(6)}  ${`${Math.round(row.ratio * 100)} %`.padStart(7)}  ${verdict}`,
    );
  }
} finally {
  for (const child of children) child.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
