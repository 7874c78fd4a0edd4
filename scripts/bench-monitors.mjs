#!/usr/bin/env node
// Domain monitors benchmark (prints figures; not a test): scheduled checks per minute with the
// engine's real concurrency (MONITOR_CONCURRENCY, MONITOR_DNS_CONCURRENCY defaults, or as set in the
// environment) on one bff process, on SQLite (the in-process queue) and, when a PostgreSQL server
// is reachable (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test),
// on PostgreSQL with pg-boss; with the time per check (p50, p95), the CPU per check, the peak RSS,
// and where the bff's main thread spent its time (a sampling profile of the measured run), so a run
// that misses the goal of 10,000 domains a minute says why.
//
// Every monitored domain is a different name (m0.monitors-bench.example, m1…), served by the
// fixture DNS server from a zone holding good.example's complete setup under every generated name
// (DMARC, SPF with includes, DKIM at common selectors, MX, BIMI with the logo and the VMC on the
// fixture HTTPS server), so no run reuses another's answers: each does its own ~41 DNS queries, its
// two HTTPS fetches and the certificate and logo checks in the untrusted-files workers. The fixture
// DNS and HTTPS servers run in a process of their own, as a remote resolver and web host would, but
// on the same 2 cores: their CPU is printed apart, and it is taken from the bff's share of the machine.
//
//   node scripts/bench-monitors.mjs [domains, default 1000]
//   BENCH_TEMPLATE=dmarc-none.example node scripts/bench-monitors.mjs   (no BIMI: DNS only)
//   BENCH_PROFILE_DIR=/tmp node scripts/bench-monitors.mjs   (also writes the main thread's profiles
//   there, monitors-<engine>.cpuprofile, for Chrome's DevTools)
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const WORKSPACE = path.resolve(import.meta.dirname, '..');
const BFF = path.join(WORKSPACE, 'bff');
const SCRIPT = path.join(WORKSPACE, 'scripts', 'bench-monitors.mjs');
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const GOAL_PER_MINUTE = 10_000;

/** The fixture DNS and HTTPS servers, in this process of their own; talks to the bff process over IPC. */
async function fixtures(domains) {
  const { startToolFixtures } = await import(path.join(BFF, 'test/fixtures/tools/start.ts'));
  const { startFixtureDns } = await import(path.join(BFF, 'test/fixtures/tools/dns-server.ts'));
  const started = await startToolFixtures();
  // BENCH_TEMPLATE=dmarc-none.example: a setup without BIMI (no fetches, no certificate): the DNS-bound figure.
  const TEMPLATE = process.env.BENCH_TEMPLATE ?? 'good.example';
  const templateNames = Object.keys(started.zone).filter((name) => name === TEMPLATE || name.endsWith(`.${TEMPLATE}`));
  if (templateNames.length === 0) throw new Error(`BENCH_TEMPLATE=${TEMPLATE} is not a fixture domain (bff/test/fixtures/tools/README.md lists them)`);
  // The template's records under every generated name, as names of their own in one zone:
  // _dmarc.m42.monitors-bench.example holds _dmarc.good.example's record, and so on (the records'
  // texts are the template's; the names asked differ for every domain).
  const zone = { ...started.zone };
  for (let index = 0; index < domains; index += 1) {
    const domain = `m${index}.monitors-bench.example`;
    for (const name of templateNames) zone[`${name.slice(0, name.length - TEMPLATE.length)}${domain}`] = started.zone[name];
  }
  const dns = await startFixtureDns(zone);
  let cpu = process.cpuUsage();
  let queries = 0;
  process.on('message', (message) => {
    if (message === 'start') {
      cpu = process.cpuUsage();
      queries = dns.queries;
    } else if (message === 'stop') {
      const used = process.cpuUsage(cpu);
      process.send({ queries: dns.queries - queries, cpuMs: (used.user + used.system) / 1000 });
    }
  });
  process.once('disconnect', () => void Promise.all([dns.close(), started.close()]).then(() => process.exit(0)));
  process.send({ env: { ...started.env, DNS_SERVERS: dns.server } });
}

const KINDS = [
  ['DNS client (node:dns, c-ares)', /node:(internal\/)?dns|node:dgram|run-dns\.ts|email-auth\/src\/dns\.ts/],
  ['pg-boss', /pg-boss/],
  ['database', /kysely|better-sqlite3|\/pg\/|pg-protocol|pg-pool|plugins\/app\/monitors(-snapshots|-alerts)?\.ts|plugins\/app\/db/],
  ['HTTPS fetches (TLS, HTTP)', /_tls|node:tls|_http|node:https?|safe-fetch|published-files/],
  ['hand-off to the certificate and logo workers', /piscina|untrusted-files|internal\/worker/],
  ['the checks (email-auth, analysis)', /packages\/email-auth|services\/tools|services\/monitors|monitor-engine|tldts|asn1js|contracts/],
];

/**
 * Where the main thread's sampled time went, by kind of work: a function counts as the nearest
 * caller that says what it is for (a socket write under the PostgreSQL client is database time).
 */
function kindOf(node, parentOf) {
  const { functionName } = node.callFrame;
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(program)') return 'V8 and native code (program)';
  for (let frame = node, depth = 0; frame && depth < 40; frame = parentOf.get(frame), depth += 1) {
    const kind = KINDS.find(([, pattern]) => pattern.test(frame.callFrame.url));
    if (kind) return kind[0];
  }
  return 'other (Node internals, promises, JSON, timers)';
}

function summarizeProfile(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(nodes.get(child), node);
  const byKind = new Map();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const dt = profile.timeDeltas[index + 1] ?? 0;
    const kind = kindOf(nodes.get(id), parentOf);
    byKind.set(kind, (byKind.get(kind) ?? 0) + dt);
    total += dt;
  });
  const share = (kind) => (total ? (byKind.get(kind) ?? 0) / total : 0);
  const busy = [...byKind].filter(([kind]) => kind !== 'idle').sort((a, b) => b[1] - a[1]);
  return { idle: share('idle'), busy: busy.map(([kind, us]) => ({ kind, share: us / total })) };
}

async function child(engine, domains) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { randomUUID } = await import('node:crypto');
  const { Session } = await import('node:inspector/promises');
  const { buildApp } = await import(path.join(BFF, 'src/app.ts'));
  const { loadConfig } = await import(path.join(BFF, 'src/config.ts'));
  const { queueSchema } = await import(path.join(BFF, 'src/plugins/app/platform/pg-boss-queue.ts'));
  const { createRequire } = await import('node:module');
  const { Client } = createRequire(path.join(BFF, 'package.json'))('pg');

  const fixtureProcess = spawn(process.execPath, ['--import', 'tsx', SCRIPT, 'fixtures', String(domains)], { cwd: BFF, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: process.env });
  const fixtureMessage = () =>
    new Promise((resolve, reject) => {
      fixtureProcess.once('message', resolve);
      fixtureProcess.once('exit', (code) => reject(new Error(`the fixture servers stopped (exit ${code})`)));
    });
  const { env: fixtureEnv } = await fixtureMessage();
  const stopFixtures = () =>
    new Promise((resolve) => {
      fixtureProcess.removeAllListeners('exit');
      fixtureProcess.once('exit', resolve);
      fixtureProcess.disconnect();
    });

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
      await stopFixtures();
      return;
    }
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = new URL(process.env.BENCH_POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
  }
  // MONITOR_* and TOOLS_* settings of the environment apply (to try other concurrency limits); nothing else does.
  const tuning = Object.fromEntries(Object.entries(process.env).filter(([key]) => /^(MONITOR|TOOLS)_/.test(key)));
  const config = loadConfig({
    ...tuning,
    ...fixtureEnv,
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
    .values({
      id: userId,
      email: 'bench@monitors-bench.example',
      name: 'Bench',
      password_hash: 'x',
      email_verified_at: now,
      pending_email: null,
      notification_preferences: JSON.stringify({ orderUpdates: false, certificateExpiry: false, monitorAlerts: false, billingReceipts: false, productNews: false }),
      created_at: now,
      updated_at: now,
    })
    .execute();
  for (let index = 0; index < domains; index += 1) await app.monitors.create(userId, `m${index}.monitors-bench.example`, Date.now());

  // A coarse sampling profile (every 10 ms) of the main thread: it costs the run next to nothing.
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 10_000 });
  let peakRss = 0;
  const sample = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
  const rssBefore = process.memoryUsage.rss();
  fixtureProcess.send('start');
  const cpuBefore = process.cpuUsage();
  await session.post('Profiler.start');
  const started = process.hrtime.bigint();
  const due = await app.jobs.runNow('monitor-schedule');
  for (;;) {
    await app.jobs.idle();
    if (app.jobs.runs('monitor-check').finished >= due) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const { profile } = await session.post('Profiler.stop');
  if (process.env.BENCH_PROFILE_DIR) (await import('node:fs')).writeFileSync(path.join(process.env.BENCH_PROFILE_DIR, `monitors-${engine}.cpuprofile`), JSON.stringify(profile));
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sample);
  fixtureProcess.send('stop');
  const fixtureFigures = await fixtureMessage();
  session.disconnect();

  // The results must be right, not only fast: every generated domain has the same setup, so every
  // snapshot must have the same score, and none may hold a file left unchecked (checker busy, time limit).
  const reports = (await app.db.selectFrom('monitor_snapshots').select('report').execute()).map((row) => JSON.parse(row.report));
  const snapshots = { n: reports.length };
  const scores = new Map();
  for (const report of reports) scores.set(report.healthScore, (scores.get(report.healthScore) ?? 0) + 1);
  const mode = [...scores].sort((a, b) => b[1] - a[1])[0]?.[0];
  const reference = reports.find((report) => report.healthScore === mode);
  const statuses = (report) => new Map(report.groups.flatMap((group) => group.checks.map((check) => [check.id, check])));
  const differences = reports
    .filter((report) => report.healthScore !== mode)
    .slice(0, 3)
    .map((report) => {
      const expected = statuses(reference);
      const found = [...statuses(report)].filter(([id, check]) => expected.get(id)?.status !== check.status);
      return `score ${report.healthScore}: ${found.map(([id, check]) => `${id} ${check.status} (${check.detail.slice(0, 120)})`).join('; ')}`;
    });
  const unchecked = reports.filter((report) => report.groups.some((group) => group.checks.some((check) => / not checked$/.test(check.title)))).length;
  const times = [...app.jobs.runs('monitor-check').timesMs].sort((a, b) => a - b);
  const percentile = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? NaN;
  const perMinute = Math.round((due / seconds) * 60);
  const { logoChecks } = app.untrustedFiles;
  const name = engine === 'postgres' ? 'PostgreSQL + pg-boss' : 'SQLite, in-process queue';
  const mb = (bytes) => `${Math.round(bytes / 1024 / 1024)} MB`;
  const ms = (value) => `${value.toFixed(1)} ms`;
  const { idle, busy } = summarizeProfile(profile);
  const percent = (share) => `${Math.round(share * 100)}%`;
  console.log(`${name}: ${due} checks in ${seconds.toFixed(1)} s = ${perMinute} domains/minute`);
  console.log(
    `  concurrency ${config.monitors.concurrency}, DNS ${config.monitors.dnsConcurrency}; ${Math.round(fixtureFigures.queries / due)} DNS queries a check; ${Number(snapshots.n)} snapshots stored` +
      `\n  time per check: p50 ${ms(percentile(50))}, p95 ${ms(percentile(95))} (from its start in the queue's handler to its snapshot)` +
      `\n  CPU per check: ${ms((cpu.user + cpu.system) / 1000 / due)} in the bff process (all its threads), ${ms(fixtureFigures.cpuMs / due)} in the fixture servers' process` +
      `\n  results: health score ${[...scores]
        .sort((a, b) => b[1] - a[1])
        .map(([score, count]) => `${score} ×${count}`)
        .join(', ')}; ${unchecked} with a file left unchecked${unchecked ? ' (WRONG: the checker was busy or timed out)' : ''}` +
      differences.map((line) => `\n    differs: ${line}`).join('') +
      (logoChecks.read + logoChecks.cached > 0
        ? `\n  logo checks: ${logoChecks.read} read in a worker, ${logoChecks.cached} answered from the verdicts kept by content (every generated domain publishes the same logo file; real domains mostly have their own); each certificate validated in a worker`
        : '') +
      `\n  memory: RSS ${mb(rssBefore)} before, peak ${mb(peakRss)}, heap used ${mb(process.memoryUsage().heapUsed)} after` +
      `\n  main thread: idle ${percent(idle)}; ${busy
        .slice(0, 5)
        .map(({ kind, share }) => `${kind} ${percent(share)}`)
        .join(', ')}`,
  );
  if (perMinute < GOAL_PER_MINUTE) {
    const top = busy[0];
    const cause =
      idle > 0.25
        ? `the main thread waited ${percent(idle)} of the time, so it is not the bound: the machine's 2 cores are (the fixture servers, the workers and other processes on them; load average ${os.loadavg()[0].toFixed(1)} now)`
        : `the main thread is busy ${percent(1 - idle)} of the time, most with ${top?.kind ?? 'nothing measured'} (${percent(top?.share ?? 0)})`;
    console.log(`  goal ${GOAL_PER_MINUTE}/minute missed by ${GOAL_PER_MINUTE - perMinute}/minute (${(GOAL_PER_MINUTE / perMinute).toFixed(1)}× short); main cause: ${cause}`);
  }

  await app.close();
  await stopFixtures();
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

// Last, so that everything above is defined when it runs.
if (process.argv[2] === 'child') {
  await child(process.argv[3], Number(process.argv[4]));
} else if (process.argv[2] === 'fixtures') {
  await fixtures(Number(process.argv[3]));
} else {
  const domains = Number(process.argv[2] ?? 1000);
  if (!Number.isInteger(domains) || domains < 1) throw new Error(`the number of domains must be a whole number above 0, not ${process.argv[2]}`);
  const load = os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(', ');
  console.log(`Domain monitors: ${domains} generated domains shaped as ${process.env.BENCH_TEMPLATE ?? 'good.example'}, each checked once by the schedule`);
  console.log(`Machine: ${os.availableParallelism()} cores, load average ${load} at the start (other work on the machine slows every figure)\n`);
  for (const engine of ['sqlite', 'postgres']) {
    // Each engine in a fresh process, so one's memory does not count in the other's.
    const code = await new Promise((resolve) => {
      const run = spawn(process.execPath, ['--import', 'tsx', SCRIPT, 'child', engine, String(domains)], {
        cwd: BFF,
        stdio: 'inherit',
        env: { ...process.env, BENCH_POSTGRES_URL: POSTGRES_URL },
      });
      run.once('exit', resolve);
    });
    if (code !== 0) console.log(`${engine}: the run failed (exit ${code})`);
  }
}
