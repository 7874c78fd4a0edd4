#!/usr/bin/env node
// Latency of each e-mail tool endpoint against the local fixture DNS and HTTPS servers, beside the
// same lookups (and file fetches) made directly with Node's resolver and https: the floor. The
// difference is the tool's own overhead (parsing, checks, certificate validation, HTTP). The answer
// cache is off (TOOLS_CACHE_TTL_SECONDS=0) so every request does its lookups.
//
//   node scripts/bench-tools.mjs [requests per endpoint, default 60]
import { spawn } from 'node:child_process';
import { promises as dns } from 'node:dns';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { createSecureContext, rootCertificates } from 'node:tls';
import { startDnsFixtures } from './bench/dns-fixtures.mjs';
import { freePort } from './bench/bff.mjs';

const WORKSPACE = path.resolve(import.meta.dirname, '..');
const BFF = path.join(WORKSPACE, 'bff');
const RUNS = Number(process.argv[2] ?? 60);
const WARMUP = 5;

async function startBff(env, port, dataDir) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'server.ts')], {
    cwd: BFF,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      NODE_ENV: 'test',
      TOOLS_CACHE_TTL_SECONDS: '0',
      TOOLS_RATE_LIMIT_PER_MINUTE: '100000',
    },
  });
  for (let attempt = 0; attempt < 200; attempt += 1) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error('the bff did not start');
}

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

async function measure(run) {
  for (let index = 0; index < WARMUP; index += 1) await run();
  const times = [];
  for (let index = 0; index < RUNS; index += 1) {
    const start = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

const fixtures = await startDnsFixtures();
const port = await freePort();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-tools-'));
const bff = await startBff(fixtures.env, port, dataDir);
const resolver = new dns.Resolver({ timeout: 2500, tries: 2 });
resolver.setServers([fixtures.env.DNS_SERVERS]);
const secureContext = createSecureContext({ ca: [...rootCertificates, readFileSync(fixtures.env.TOOLS_EXTRA_CA_FILE, 'utf8')] });
const fixtureAddress = (_host, options, callback) => (options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4));
// Kept alive, as the bff keeps its fetch connections alive per checked address.
const agent = new https.Agent({ keepAlive: true, secureContext, lookup: fixtureAddress });
const { origin } = fixtures;

/** A plain https GET of a fixture file, resolving the host through the fixture DNS server like the bff does. */
async function getFile(url) {
  await resolver.resolve4(new URL(url).hostname);
  await new Promise((resolve, reject) => {
    https.get(url, { agent }, (response) => response.resume().on('end', resolve)).on('error', reject);
  });
}
const txt = (name) => resolver.resolveTxt(name);

// Each tool's DNS queries and fetches, in the order they depend on each other (parallel where the tool runs them in parallel).
const TOOLS = [
  { label: 'dmarc good.example', path: '/api/tools/dmarc?domain=good.example', floor: () => txt('_dmarc.good.example') },
  {
    label: 'spf good.example',
    path: '/api/tools/spf?domain=good.example',
    floor: async () => {
      await txt('good.example');
      await Promise.all([resolver.resolveMx('good.example').then((mx) => Promise.all(mx.map((record) => resolver.resolve4(record.exchange)))), txt('_spf.good.example')]);
    },
  },
  { label: 'dkim good.example s=selector1', path: '/api/tools/dkim?domain=good.example&selector=selector1', floor: () => txt('selector1._domainkey.good.example') },
  {
    label: 'bimi bimi-good.example',
    path: '/api/tools/bimi?domain=bimi-good.example',
    floor: async () => {
      await Promise.all([txt('default._bimi.bimi-good.example'), txt('_dmarc.bimi-good.example')]);
      await Promise.all([getFile(`${origin}/good/logo.svg`), getFile(`${origin}/good/vmc.pem`)]);
    },
  },
  {
    label: 'vmc bimi-good.example',
    path: '/api/tools/vmc?domain=bimi-good.example',
    floor: async () => {
      await txt('default._bimi.bimi-good.example');
      await Promise.all([getFile(`${origin}/good/logo.svg`), getFile(`${origin}/good/vmc.pem`)]);
    },
  },
  { label: 'txt good.example', path: '/api/tools/txt?name=good.example', floor: () => txt('good.example') },
  {
    label: 'cname alias.good.example',
    path: '/api/tools/cname?name=alias.good.example',
    floor: async () => {
      await resolver.resolveCname('alias.good.example');
      await resolver.resolveCname('www.good.example');
      await resolver.resolveCname('good.example').catch(() => []);
      await Promise.all([resolver.resolve4('good.example'), resolver.resolve6('good.example')]);
    },
  },
  {
    label: 'records good.example',
    path: '/api/tools/records?domain=good.example',
    floor: () =>
      Promise.all([
        resolver.resolve4('good.example'),
        resolver.resolve6('good.example'),
        resolver.resolveMx('good.example'),
        resolver.resolveNs('good.example'),
        resolver.resolveSoa('good.example'),
        txt('good.example'),
        resolver.resolveCaa('good.example'),
        txt('_dmarc.good.example'),
        txt('default._bimi.good.example'),
        txt('_mta-sts.good.example'),
        txt('_smtp._tls.good.example'),
      ]),
  },
];

try {
  console.log(`bench:tools — ${RUNS} sequential requests per endpoint after ${WARMUP} warm-ups, answer cache off, fixture DNS ${fixtures.env.DNS_SERVERS}`);
  console.log('times in ms; floor = the same DNS lookups (and logo/certificate GETs on kept-alive connections) made directly with Node\n');
  const rows = [];
  for (const tool of TOOLS) {
    const api = await measure(async () => {
      const response = await fetch(`http://127.0.0.1:${port}${tool.path}`);
      if (!response.ok) throw new Error(`${tool.path} answered ${response.status}`);
      await response.arrayBuffer();
    });
    const floor = await measure(tool.floor);
    rows.push({
      endpoint: tool.label,
      median: api.median.toFixed(2),
      p95: api.p95.toFixed(2),
      'floor median': floor.median.toFixed(2),
      'floor p95': floor.p95.toFixed(2),
      'overhead (median)': (api.median - floor.median).toFixed(2),
    });
  }
  console.table(rows);
} finally {
  agent.destroy();
  bff.kill('SIGTERM');
  fixtures.child.stdin.end();
  rmSync(dataDir, { recursive: true, force: true });
}
