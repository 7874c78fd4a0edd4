import type { FastifyInstance } from 'fastify';
import { Client } from 'pg';
import { buildApp } from '../src/app';
import { queueSchema } from '../src/plugins/app/platform/pg-boss-queue';
import { startToolFixtures, type ToolFixtures } from './fixtures/tools/start';
import { freshClientAddress, signedInUser, startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';

jest.setTimeout(120_000);

const DAY = 24 * 60 * 60 * 1000;
const DOMAINS = ['good.example', 'bimi-good.example', 'dmarc-none.example', 'dmarc-missing.example', 'spf-loop.example', 'bimi-cmc.example'];

/**
 * Two bff processes on one PostgreSQL schema, both scheduling the same due monitors at the same
 * moment, again and again: pg-boss (in a schema of its own for this run) holds one job per monitor
 * and period, and each check runs once in all.
 */
const postgres = storageEngines().filter((engine) => engine.postgres && !engine.redis);
const describePostgres = postgres.length > 0 ? describe : describe.skip;
describePostgres('monitor runs with two bffs on one PostgreSQL', () => {
  let fixtures: ToolFixtures;
  let store: IdentityStore;
  let second: FastifyInstance;

  beforeAll(async () => {
    fixtures = await startToolFixtures();
    store = await startIdentityStore(postgres[0] as (typeof postgres)[number], { ...fixtures.env, MONITOR_SCHEDULER_SECONDS: '0', MONITOR_LIMIT_PER_USER: '10' });
    store.clock.now = Date.now();
    second = await buildApp(store.app.config, { logStream: store.logs, now: () => store.clock.now });
    await second.ready();
  });
  afterAll(async () => {
    await second?.close();
    const schema = queueSchema(store.app.config);
    await store.cleanUp();
    await fixtures.close();
    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it('runs each due check once however many times both processes schedule it', async () => {
    expect(store.app.jobs.queue).toBe('pg-boss');
    expect(queueSchema(store.app.config)).toMatch(/^bff_test_.*_queue$/);
    const owner = await signedInUser(store, 'Queue Owner', 'queue@monitors.test', freshClientAddress());
    for (const domain of DOMAINS) expect((await owner.write('POST', '/api/account/monitors/create', { domain })).statusCode).toBe(201);

    store.advance(DAY + 1000);
    const scheduled = await Promise.all([store.app, second, store.app, second].map((app) => app.jobs.runNow('monitor-schedule')));
    // Both processes queue all six at the same moment; each one's second run starts after its first
    // and finds due only the checks not yet claimed by a run.
    expect(scheduled.slice(0, 2)).toEqual([6, 6]);
    await Promise.all([store.app.jobs.idle(), second.jobs.idle()]);
    // Scheduling again in the same period finds nothing due.
    expect(await second.jobs.runNow('monitor-schedule')).toBe(0);

    expect(store.app.jobs.runs('monitor-check').finished + second.jobs.runs('monitor-check').finished).toBe(DOMAINS.length);
    const snapshots = await store.app.db
      .selectFrom('monitor_snapshots')
      .innerJoin('monitors', 'monitors.id', 'monitor_snapshots.monitor_id')
      .select(['monitors.domain', (eb) => eb.fn.countAll().as('n')])
      .groupBy('monitors.domain')
      .execute();
    // The first analysis on create, then one scheduled run each.
    expect(Object.fromEntries(snapshots.map((row) => [row.domain, Number(row.n)]))).toEqual(Object.fromEntries(DOMAINS.map((domain) => [domain, 2])));

    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const jobs = await admin.query(`select state, count(*)::int as n from ${queueSchema(store.app.config)}.job where name = 'monitor-check' group by state`);
    await admin.end();
    expect(jobs.rows).toEqual([{ state: 'completed', n: DOMAINS.length }]);
  });
});
