#!/usr/bin/env node
// Domain monitors benchmark (prints figures; not a test): scheduled checks per minute with the
// engine's real concurrency (MONITOR_CONCURRENCY, MONITOR_DNS_CONCURRENCY defaults) on one bff
// process, on SQLite (the in-process queue) and, when a PostgreSQL server is reachable
// (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test), on
// PostgreSQL with pg-boss; and the memory the process used.
//
// Every monitored domain is a different name (m0.monitors-bench.example, m1…), answered by a
// fixture DNS server whose zone maps each generated name onto good.example's complete setup (DMARC,
// SPF with includes, DKIM at common selectors, MX, BIMI with the logo and the VMC on the fixture
// HTTPS server), so no run reuses another's answers: each does its ~45 DNS queries, two HTTPS
// fetches and the certificate and logo checks in the untrusted-files workers. The fixture servers
// run in the same process as the bff (the figure includes their CPU on this machine).
//
//   node scripts/bench-monitors.mjs [domains, default 1000]
//   BENCH_TEMPLATE=dmarc-none.example node scripts/bench-monitors.mjs   (no BIMI: DNS only)
import { spawn } from 'node:child_process';
import path from 'node:path';

const WORKSPACE = path.resolve(import.meta.dirname, '..');
const BFF = path.join(WORKSPACE, 'bff');
const DOMAINS = Number(process.argv[2] ?? 1000);
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

if (process.argv[2] === 'child') {
  await child(process.argv[3], Number(process.argv[4]));
} else {
  console.log(`Domain monitors: ${DOMAINS} generated domains shaped as ${process.env.BENCH_TEMPLATE ?? 'good.example'}, each checked once by the schedule\n`);
  for (const engine of ['sqlite', 'postgres']) {
    // Each engine in a fresh process, so one's memory does not count in the other's.
    const code = await new Promise((resolve) => {
      const run = spawn(process.execPath, ['--import', 'tsx', path.join(WORKSPACE, 'scripts', 'bench-monitors.mjs'), 'child', engine, String(DOMAINS)], { cwd: BFF, stdio: 'inherit', env: { ...process.env, BENCH_POSTGRES_URL: POSTGRES_URL } });
      run.once('exit', resolve);
    });
    if (code !== 0) console.log(`${engine}: the run failed (exit ${code})`);
  }
}

async function child(engine, domains) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const os = await import('node:os');
  const { randomUUID } = await import('node:crypto');
  const { buildApp } = await import(path.join(BFF, 'src/app.ts'));
  const { loadConfig } = await import(path.join(BFF, 'src/config.ts'));
  const { queueSchema } = await import(path.join(BFF, 'src/plugins/app/monitor-engine.ts'));
  const { startToolFixtures } = await import(path.join(BFF, 'test/fixtures/tools/start.ts'));
  const { startFixtureDns } = await import(path.join(BFF, 'test/fixtures/tools/dns-server.ts'));
  const { createRequire } = await import('node:module');
  const { Client } = createRequire(path.join(BFF, 'package.json'))('pg');

  const fixtures = await startToolFixtures();
  // BENCH_TEMPLATE=dmarc-none.example: a setup without BIMI (no fetches, no certificate): the DNS-bound figure.
  const TEMPLATE = process.env.BENCH_TEMPLATE ?? 'good.example';
  const templateNames = Object.keys(fixtures.zone).filter((name) => name === TEMPLATE || name.endsWith(`.${TEMPLATE}`));
  if (templateNames.length === 0) throw new Error(`BENCH_TEMPLATE=${TEMPLATE} is not a fixture domain (bff/test/fixtures/tools/README.md lists them)`);
  // The template's records under every generated name, as names of their own in one zone:
  // _dmarc.m42.monitors-bench.example holds _dmarc.good.example's record, and so on (the records'
  // texts are the template's; the names asked differ for every domain).
  const zone = { ...fixtures.zone };
  for (let index = 0; index < domains; index += 1) {
    const domain = `m${index}.monitors-bench.example`;
    for (const name of templateNames) zone[`${name.slice(0, name.length - TEMPLATE.length)}${domain}`] = fixtures.zone[name];
  }
  const dns = await startFixtureDns(zone);

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-monitors-'));
  let databaseUrl;
  let schema;
  if (engine === 'postgres') {
    schema = `bench_monitors_${process.pid}`;
    const admin = new Client({ connectionString: process.env.BENCH_POSTGRES_URL, connectionTimeoutMillis: 3000 });
    try {
      await admin.connect();
    } catch (error) {
      console.log(`PostgreSQL + pg-boss: skipped (${process.env.BENCH_POSTGRES_URL} unreachable: ${error.message})`);
      await dns.close();
      await fixtures.close();
      return;
    }
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = new URL(process.env.BENCH_POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
  }
  const config = loadConfig({
    ...fixtures.env,
    DNS_SERVERS: dns.server,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    NODE_ENV: 'test',
    MONITOR_SCHEDULER_SECONDS: '0',
    MONITOR_LIMIT_PER_USER: String(domains),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const app = await buildApp(config);
  await app.ready();
  await app.untrustedFiles.warmUp();

  const now = new Date().toISOString();
  const userId = randomUUID();
  await app.db
    .insertInto('users')
    .values({ id: userId, email: 'bench@monitors-bench.example', name: 'Bench', password_hash: 'x', email_verified_at: now, pending_email: null, notification_preferences: JSON.stringify({ orderUpdates: false, certificateExpiry: false, monitorAlerts: false, billingReceipts: false, productNews: false }), created_at: now, updated_at: now })
    .execute();
  for (let index = 0; index < domains; index += 1) await app.monitors.create(userId, `m${index}.monitors-bench.example`, Date.now());

  let peakRss = 0;
  const sample = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const rssBefore = process.memoryUsage().rss;
  const queriesBefore = dns.queries;
  const started = process.hrtime.bigint();
  const due = await app.monitorEngine.schedule();
  for (;;) {
    await app.monitorEngine.idle();
    if (app.monitorEngine.finishedRuns >= due) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(sample);
  const snapshots = await app.db.selectFrom('monitor_snapshots').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const name = engine === 'postgres' ? 'PostgreSQL + pg-boss' : 'SQLite, in-process queue';
  const mb = (bytes) => `${Math.round(bytes / 1024 / 1024)} MB`;
  console.log(
    `${name}: ${due} checks in ${seconds.toFixed(1)} s = ${Math.round((due / seconds) * 60)} domains/minute ` +
      `(concurrency ${config.monitors.concurrency}, DNS ${config.monitors.dnsConcurrency}; ${Math.round((dns.queries - queriesBefore) / due)} DNS queries a check; ${Number(snapshots.n)} snapshots stored); ` +
      `memory: RSS ${mb(rssBefore)} before, peak ${mb(peakRss)}, heap used ${mb(process.memoryUsage().heapUsed)} after`,
  );

  await app.close();
  await dns.close();
  await fixtures.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (schema) {
    const admin = new Client({ connectionString: process.env.BENCH_POSTGRES_URL });
    await admin.connect();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.query(`drop schema if exists ${queueSchema(config)} cascade`);
    await admin.end();
  }
  process.exit(0);
}
