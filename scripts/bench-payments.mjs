#!/usr/bin/env node
// Payments benchmark (prints figures; not a test). For SQLite and, when a PostgreSQL server is
// reachable (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test),
// for PostgreSQL: a real bff process with the real Stripe SDK pointed at the Stripe API double.
//
// 1. Checkout session creation: POST /api/account/checkout (catalog quote, price check against
//    the cached Stripe prices, orders stored, Stripe customer, Checkout Session on the double),
//    p50/p95 over every checkout.
// 2. Webhook events handled per second: each checkout's `invoice.paid` and
//    `checkout.session.completed`, signed as Stripe signs them, each delivered twice (a duplicate
//    racing the original), shuffled, CONCURRENCY at a time, to POST /api/payments/webhook. Then the
//    database is checked: every event stored once, every checkout paid, one transaction each; and
//    how long the order mails (sent after the answer by the bff's background sender) trail behind.
// 3. Beside it, the same database's bare insert rate: one-row autocommit inserts of a text key,
//    CONCURRENCY at a time on PostgreSQL (a pool of 10, as the bff's) and one after another on SQLite.
//
//   node scripts/bench-payments.mjs [checkouts, default 300]
//   BENCH_CPU_PROF=/tmp/prof node scripts/bench-payments.mjs   (the bff's CPU profiles, one per engine)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './bench/bff.mjs';

const WORKSPACE = path.resolve(import.meta.dirname, '..');
const BFF = path.join(WORKSPACE, 'bff');
const requireFromBff = createRequire(path.join(BFF, 'package.json'));
const { Client, Pool } = requireFromBff('pg');
const SqliteDatabase = requireFromBff('better-sqlite3');
const Stripe = requireFromBff('stripe');
const stripe = new Stripe('sk_test_bench');

const CHECKOUTS = Number(process.argv[2] ?? 300);
// Checkout allows 30 a buyer in 10 minutes: enough buyers to stay under it.
const USERS = Math.max(10, Math.ceil(CHECKOUTS / 25));
const CONCURRENCY = 32;
const PASSWORD = 'correct horse 42 bench';
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CART = [
  { productId: 'verified-mark-certificate', domains: 3, years: 2 },
  { productId: 'dmarc-plus', emailVolume: 1_000_000, billingPeriod: 'monthly' },
];

function firstJsonLine(child, what) {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('\n')) resolve(JSON.parse(output.slice(0, output.indexOf('\n'))));
    });
    child.once('exit', (code) => reject(new Error(`${what} stopped (${code})`)));
  });
}

async function startBff(env, port) {
  // BENCH_CPU_PROF=<dir>: the bff writes a V8 CPU profile there when it stops (where the time goes).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_CPU_PROF)] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', path.join('src', 'server.ts')], {
    cwd: BFF,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'error', NODE_ENV: 'test', SIGNUP_RATE_LIMIT_PER_HOUR: '100000' },
  });
  for (let attempt = 0; attempt < 300; attempt += 1) {
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

/** A browser's cookies over fetch. */
class Client_ {
  constructor(base) {
    this.base = base;
    this.cookies = new Map();
  }
  async request(method, url, { json, form, headers = {} } = {}) {
    const response = await fetch(`${this.base}${url}`, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(json !== undefined && { 'content-type': 'application/json' }),
        ...(form !== undefined && { 'content-type': 'application/x-www-form-urlencoded' }),
        ...headers,
      },
      body: json !== undefined ? JSON.stringify(json) : form !== undefined ? new URLSearchParams(form).toString() : undefined,
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const index = pair.indexOf('=');
      this.cookies.set(pair.slice(0, index), pair.slice(index + 1));
    }
    const text = await response.text();
    return { status: response.status, text, json: () => JSON.parse(text) };
  }
  async csrf() {
    return (await this.request('GET', '/api/auth/csrf')).json().csrfToken;
  }
  async write(method, url, json) {
    return this.request(method, url, { json, headers: { 'x-csrf-token': await this.csrf() } });
  }
}

async function signedInUser(base, index) {
  const client = new Client_(base);
  const email = `bench-${index}-${Date.now()}@example.com`;
  const signUp = await client.write('POST', '/api/auth/signup', { name: `Bench Buyer ${index}`, email, password: PASSWORD });
  if (signUp.status !== 201) throw new Error(`sign-up: ${signUp.status} ${signUp.text}`);
  const outbox = (await client.request('GET', '/dev/outbox')).json();
  const link = outbox.messages.find((message) => message.to === email)?.links.find((candidate) => candidate.includes('/auth/verify'));
  const verify = await client.write('POST', '/api/auth/verify', { token: new URL(link).searchParams.get('token') });
  if (verify.status !== 200) throw new Error(`verify: ${verify.status} ${verify.text}`);
  const csrfToken = await client.csrf();
  const signIn = await client.request('POST', '/api/auth/callback/credentials', {
    form: { email, password: PASSWORD, redirect: 'false', callbackUrl: `${base}/account/dashboard`, csrfToken, json: 'true' },
  });
  if (signIn.status !== 200) throw new Error(`sign-in: ${signIn.status} ${signIn.text}`);
  return client;
}

async function pool(items, concurrency, work) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next;
        next += 1;
        results[index] = await work(items[index], index);
      }
    }),
  );
  return results;
}

const CLOCK_TICK_MS = 10; // Linux USER_HZ = 100
/** CPU time (ms) a process used so far, from /proc (Linux); NaN elsewhere. */
function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (ms) of every PostgreSQL server process on this machine (the bff's backends among them). */
function postgresCpuMs() {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += processCpuMs(entry);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** CPU used by the bff, PostgreSQL and this client while `work` runs. */
async function cpuDuring(bffPid, work) {
  const before = { bff: processCpuMs(bffPid), postgres: postgresCpuMs(), client: process.cpuUsage() };
  const result = await work();
  const client = process.cpuUsage(before.client);
  return { result, cpu: { bff: processCpuMs(bffPid) - before.bff, postgres: postgresCpuMs() - before.postgres, client: (client.user + client.system) / 1000 } };
}

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

/** The two events Stripe sends when a checkout's first invoice is paid, as the double shapes them. */
function eventsFor(checkout, now) {
  const metadata = { checkout_id: checkout.checkoutId };
  checkout.orderIds.forEach((orderId, index) => {
    metadata[`order_${index + 1}`] = `${orderId} ${['price_vmc_2y', 'price_dmarc_plus_monthly'][index]}`;
  });
  const subscription = `sub_bench_${checkout.checkoutId.replace(/-/g, '').slice(0, 16)}`;
  const lines = [
    { price: 'price_vmc_2y', amount: 3 * 274968, end: now + 2 * 365 * 86400 },
    { price: 'price_dmarc_plus_monthly', amount: 11199, end: now + 31 * 86400 },
  ].map((line, index) => ({
    id: `il_${index}`,
    object: 'line_item',
    amount: line.amount,
    currency: 'usd',
    description: line.price,
    metadata,
    period: { start: now, end: line.end },
    quantity: 1,
    parent: {
      type: 'subscription_item_details',
      invoice_item_details: null,
      subscription_item_details: { invoice_item: null, proration: false, proration_details: null, subscription, subscription_item: `si_${index}_${subscription}` },
    },
    pricing: { type: 'price_details', price_details: { price: line.price, product: 'prod_bench' }, unit_amount_decimal: null },
  }));
  const invoice = {
    id: `in_${subscription}`,
    object: 'invoice',
    customer: 'cus_bench',
    status: 'paid',
    number: null,
    amount_paid: 3 * 274968 + 11199,
    amount_due: 3 * 274968 + 11199,
    currency: 'usd',
    hosted_invoice_url: null,
    invoice_pdf: null,
    billing_reason: 'subscription_create',
    status_transitions: { paid_at: now },
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { metadata, subscription } },
    lines: { object: 'list', data: lines, has_more: false },
  };
  const session = {
    id: checkout.sessionId,
    object: 'checkout.session',
    mode: 'subscription',
    status: 'complete',
    payment_status: 'paid',
    customer: 'cus_bench',
    client_reference_id: checkout.checkoutId,
    metadata,
    subscription,
  };
  const event = (type, object) => ({
    id: `evt_${type.replace(/\W/g, '')}_${checkout.checkoutId}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: now,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
  return [event('invoice.paid', invoice), event('checkout.session.completed', session)];
}

// Webhook deliveries go over keep-alive connections with node:http, lighter than fetch: Stripe sends
// from its own machines, so the sender's CPU should take as little of this one's as it can.
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function deliver(port, payload, signature) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/payments/webhook',
        method: 'POST',
        agent: keepAlive,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'stripe-signature': signature },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode, text }));
      },
    );
    request.once('error', reject);
    request.end(payload);
  });
}

async function bareInsertRate(engine, dataDir, databaseUrl) {
  const rows = 3000;
  if (engine === 'SQLite') {
    const database = new SqliteDatabase(path.join(dataDir, 'store.sqlite'));
    database.pragma('journal_mode = WAL');
    database.exec('create table if not exists bench_bare (id text primary key, payload text not null)');
    const insert = database.prepare('insert into bench_bare (id, payload) values (?, ?)');
    const started = performance.now();
    for (let index = 0; index < rows; index += 1) insert.run(`evt_bare_${index}`, 'x'.repeat(200));
    const seconds = (performance.now() - started) / 1000;
    database.close();
    return rows / seconds;
  }
  const bare = new Pool({ connectionString: databaseUrl, max: 10 });
  await bare.query('create table if not exists bench_bare (id text primary key, payload text not null)');
  const started = performance.now();
  await pool(
    Array.from({ length: rows }, (_, index) => index),
    CONCURRENCY,
    (index) => bare.query('insert into bench_bare (id, payload) values ($1, $2)', [`evt_bare_${index}`, 'x'.repeat(200)]),
  );
  const seconds = (performance.now() - started) / 1000;
  await bare.end();
  return rows / seconds;
}

async function count(engine, dataDir, databaseUrl, sql) {
  if (engine === 'SQLite') {
    const database = new SqliteDatabase(path.join(dataDir, 'store.sqlite'), { readonly: true });
    const value = database.prepare(sql).pluck().get();
    database.close();
    return Number(value);
  }
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query(sql);
  await client.end();
  return Number(Object.values(rows[0])[0]);
}

async function benchEngine(engine) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-payments-'));
  const schema = `bench_payments_${process.pid}`;
  let databaseUrl;
  if (engine === 'PostgreSQL') {
    const admin = new Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const double = spawn(process.execPath, ['--import', 'tsx', path.join('test', 'fixtures', 'stripe', 'serve.ts')], {
    cwd: BFF,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, STRIPE_DOUBLE_WEBHOOK_URL: `${base}/api/payments/webhook` },
  });
  const settings = await firstJsonLine(double, 'the Stripe double');
  const bff = await startBff({ ...settings.env, DATA_DIR: dataDir, ...(databaseUrl && { DATABASE_URL: databaseUrl }) }, port);
  try {
    const users = await pool(
      Array.from({ length: USERS }, (_, index) => index),
      4,
      (index) => signedInUser(base, index),
    );
    // Warm up: the first checkout of each user makes its Stripe customer; the first of all fetches the prices.
    await pool(users, 4, (user) => user.write('POST', '/api/account/checkout', { items: CART, acceptTerms: true }));
    const latencies = [];
    const checkouts = await pool(
      Array.from({ length: CHECKOUTS }, (_, index) => index),
      USERS,
      async (index) => {
        const user = users[index % USERS];
        const token = await user.csrf();
        const started = performance.now();
        const answer = await user.request('POST', '/api/account/checkout', { json: { items: CART, acceptTerms: true }, headers: { 'x-csrf-token': token } });
        latencies.push(performance.now() - started);
        if (answer.status !== 201) throw new Error(`checkout: ${answer.status} ${answer.text}`);
        const body = answer.json();
        return { ...body, sessionId: new URL(body.url).pathname.split('/').pop() };
      },
    );
    latencies.sort((a, b) => a - b);

    const now = Math.floor(Date.now() / 1000);
    const unique = checkouts.flatMap((checkout) => eventsFor(checkout, now));
    const deliveries = [...unique, ...unique].map((event) => {
      const payload = JSON.stringify(event);
      return { payload, signature: stripe.webhooks.generateTestHeaderString({ payload, secret: settings.env.STRIPE_WEBHOOK_SECRET }) };
    });
    for (let index = deliveries.length - 1; index > 0; index -= 1) {
      const other = Math.floor(Math.random() * (index + 1));
      [deliveries[index], deliveries[other]] = [deliveries[other], deliveries[index]];
    }
    const started = performance.now();
    const { result: answers, cpu } = await cpuDuring(bff.pid, () =>
      pool(deliveries, CONCURRENCY, async ({ payload, signature }) => {
        const { status, text } = await deliver(port, payload, signature);
        return { status, applied: status === 200 ? JSON.parse(text).applied : 0 };
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    // Mail is sent after the answers, by the bff's background sender: how long it trails behind.
    let pendingMail = Infinity;
    for (let waited = 0; waited < 120_000 && pendingMail > 0; waited += 100) {
      pendingMail = await count(engine, dataDir, databaseUrl, 'select count(*) from order_notifications where done_at is null');
      if (pendingMail > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const mailTrail = (performance.now() - started) / 1000 - seconds;
    const failed = answers.filter((answer) => answer.status !== 200).length;
    const applied = answers.reduce((sum, answer) => sum + answer.applied, 0);
    const eventIds = unique.map((event) => `'${event.id}'`).join(',');
    const stored = await count(engine, dataDir, databaseUrl, `select count(*) from processed_payment_events where event_id in (${eventIds})`);
    const checkoutIds = checkouts.map((checkout) => `'${checkout.checkoutId}'`).join(',');
    const paid = await count(engine, dataDir, databaseUrl, `select count(*) from checkouts where status = 'paid' and id in (${checkoutIds})`);
    const transactions = await count(engine, dataDir, databaseUrl, `select count(*) from transactions`);
    const bare = await bareInsertRate(engine, dataDir, databaseUrl);
    return {
      engine,
      checkoutP50: percentile(latencies, 0.5),
      checkoutP95: percentile(latencies, 0.95),
      deliveries: deliveries.length,
      unique: unique.length,
      eventsPerSecond: unique.length / seconds,
      deliveriesPerSecond: deliveries.length / seconds,
      failed,
      applied,
      stored,
      paid,
      transactions,
      bare,
      pendingMail,
      mailTrail,
      cpuPerEvent: { bff: cpu.bff / unique.length, postgres: engine === 'PostgreSQL' ? cpu.postgres / unique.length : 0, client: cpu.client / unique.length },
    };
  } finally {
    keepAlive.destroy();
    bff.kill('SIGTERM');
    double.stdin.end();
    double.kill('SIGTERM');
    await new Promise((resolve) => bff.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
    if (engine === 'PostgreSQL') {
      const admin = new Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`drop schema ${schema} cascade`);
      // pg-boss's, when a job's timer queued a run during the benchmark (bff/README.md#jobs).
      await admin.query(`drop schema if exists ${schema}_queue cascade`);
      await admin.end();
    }
  }
}

async function postgresReachable() {
  const client = new Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

const engines = ['SQLite'];
if (await postgresReachable()) engines.push('PostgreSQL');
else console.log(`PostgreSQL at ${new URL(POSTGRES_URL).host} unreachable: SQLite only`);

const results = [];
for (const engine of engines) {
  console.log(`${engine}: ${USERS} buyers, ${CHECKOUTS} checkouts, ${CHECKOUTS * 4} webhook deliveries (each event twice), ${CONCURRENCY} at a time…`);
  results.push(await benchEngine(engine));
}
console.log('');
console.log(
  `load average ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}, ${os.cpus().length} CPUs`,
);
console.log(
  '| engine | checkout p50 | checkout p95 | webhook events/s (exactly once) | deliveries/s (with duplicates) | CPU ms per event: bff / PostgreSQL / bench client | bare inserts/s | stored once | checkouts paid | transactions | non-2xx | mail sent, after the last answer |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
let wrong = false;
for (const r of results) {
  const exact = r.stored === r.unique && r.applied === r.unique && r.paid === CHECKOUTS && r.transactions === CHECKOUTS && r.failed === 0;
  wrong ||= !exact;
  console.log(
    `| ${r.engine} | ${r.checkoutP50.toFixed(1)} ms | ${r.checkoutP95.toFixed(1)} ms | ${r.eventsPerSecond.toFixed(0)} | ${r.deliveriesPerSecond.toFixed(0)} | ${r.cpuPerEvent.bff.toFixed(2)} / ${r.cpuPerEvent.postgres.toFixed(2)} / ${r.cpuPerEvent.client.toFixed(2)} | ${r.bare.toFixed(0)} | ${r.stored}/${r.unique} (applied ${r.applied}) | ${r.paid}/${CHECKOUTS} | ${r.transactions} | ${r.failed} | ${r.pendingMail === 0 ? `all, ${r.mailTrail.toFixed(1)} s` : `${r.pendingMail} not yet`} |`,
  );
}
if (wrong) {
  console.log('\nAN EVENT WAS LOST OR APPLIED TWICE (see the row above)');
  process.exitCode = 1;
}
