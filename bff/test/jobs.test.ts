import type { FastifyInstance } from 'fastify';
import { Client } from 'pg';
import { buildApp } from '../src/app';
import { queueSettings } from '../src/plugins/app/platform/job-queue';
import { jobSchedule, type PeriodicJobName } from '../src/plugins/app/platform/job-schedule';
import { queueSchema } from '../src/plugins/app/platform/pg-boss-queue';
import { startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';

jest.setTimeout(60_000);

/** Jobs whose runs change nothing in an empty store, with periods of 5 minutes and more. */
const JOBS: PeriodicJobName[] = ['renewal-reminders', 'checkout-sweep', 'declined-tries'];

/**
 * A job's period is a slot of the clock (pg-boss's singletonSeconds, and the in-process queue's
 * windows, start at multiples of it), so two rounds a second apart fall in two periods when a slot
 * ends between them. Waits out the end of a slot of JOBS due within `marginMs`, so the rounds that
 * follow share one.
 */
async function awayFromPeriodEnds(app: FastifyInstance, marginMs = 20_000): Promise<void> {
  const schedule = jobSchedule(app.config);
  const periodsMs = JOBS.map((name) => queueSettings(schedule[name]).singletonSeconds * 1000);
  const now = Date.now();
  const waitMs = Math.max(0, ...periodsMs.map((periodMs) => periodMs - (now % periodMs)).filter((leftMs) => leftMs < marginMs));
  if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs + 100));
}

const finished = (apps: FastifyInstance[], name: PeriodicJobName) => apps.reduce((sum, app) => sum + app.jobs.runs(name).finished, 0);

/** Each of JOBS asked for by every app at once, four times over: the runs that follow, in all apps. */
async function scheduleFromAll(apps: FastifyInstance[]): Promise<Record<string, number>> {
  await Promise.all(apps.map((app) => app.jobs.idle()));
  const before = Object.fromEntries(JOBS.map((name) => [name, finished(apps, name)]));
  await Promise.all(JOBS.flatMap((name) => [...apps, ...apps, ...apps, ...apps].map((app) => app.jobs.schedule(name))));
  await Promise.all(apps.map((app) => app.jobs.idle()));
  return Object.fromEntries(JOBS.map((name) => [name, finished(apps, name) - (before[name] ?? 0)]));
}

describe('the jobs plugin on SQLite alone', () => {
  let store: IdentityStore;
  beforeAll(async () => {
    store = await startIdentityStore({ name: 'SQLite', postgres: false, redis: false }, { MONITOR_SCHEDULER_SECONDS: '1' });
  });
  afterAll(async () => {
    await store?.cleanUp();
  });

  it('runs a periodic job once a period however often it is asked for', async () => {
    expect(store.app.jobs.queue).toBe('in-process');
    await awayFromPeriodEnds(store.app);
    expect(await scheduleFromAll([store.app])).toEqual(Object.fromEntries(JOBS.map((name) => [name, 1])));
    // Still the same period: asked for again, it does not run again.
    expect(await scheduleFromAll([store.app])).toEqual(Object.fromEntries(JOBS.map((name) => [name, 0])));
  });

  it('runs the jobs marked atStart when the bff is ready, and each by its timer', async () => {
    // monitor-schedule every MONITOR_SCHEDULER_SECONDS=1: at start, then once a second.
    const atStart = store.app.jobs.runs('monitor-schedule').finished;
    expect(atStart).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    await store.app.jobs.idle();
    expect(store.app.jobs.runs('monitor-schedule').finished - atStart).toBeGreaterThanOrEqual(2);
    for (const name of ['renewal-reminders', 'order-mail', 'checkout-sweep', 'declined-tries', 'test-pages-finish', 'test-pages-expire'] as const) {
      expect(store.app.jobs.runs(name).finished).toBeGreaterThanOrEqual(1);
    }
    // Not at start, and Stripe is not the provider here: never.
    expect(store.app.jobs.runs('stripe-items-end')).toEqual({ finished: 0, failed: 0, timesMs: [] });
  });

  it('gathers the wakes of a job into one run, and runs it now when asked, one run at a time', async () => {
    await store.app.jobs.idle();
    const before = store.app.jobs.runs('order-mail').finished;
    for (let i = 0; i < 20; i += 1) store.app.jobs.wake('order-mail');
    await store.app.jobs.idle();
    expect(store.app.jobs.runs('order-mail').finished - before).toBe(1);
    // Each runNow is a run of its own, after the one under way.
    expect(await Promise.all([store.app.jobs.runNow('order-mail'), store.app.jobs.runNow('order-mail')])).toEqual([0, 0]);
    expect(store.app.jobs.runs('order-mail').finished - before).toBe(3);
  });
});

const postgres = storageEngines().filter((engine) => engine.postgres && !engine.redis);
const describePostgres = postgres.length > 0 ? describe : describe.skip;
describePostgres('the jobs plugin with two bffs on one PostgreSQL', () => {
  let store: IdentityStore;
  let second: FastifyInstance;
  beforeAll(async () => {
    store = await startIdentityStore(postgres[0] as (typeof postgres)[number], { MONITOR_SCHEDULER_SECONDS: '0' });
    second = await buildApp(store.app.config, { logStream: store.logs, now: () => store.clock.now });
    await second.ready();
  });
  afterAll(async () => {
    await second?.close();
    await store?.cleanUp();
  });

  it('runs a periodic job once a period across both, however often both ask for it', async () => {
    expect([store.app.jobs.queue, second.jobs.queue]).toEqual(['pg-boss', 'pg-boss']);
    await awayFromPeriodEnds(store.app);
    expect(await scheduleFromAll([store.app, second])).toEqual(Object.fromEntries(JOBS.map((name) => [name, 1])));
    expect(await scheduleFromAll([second, store.app])).toEqual(Object.fromEntries(JOBS.map((name) => [name, 0])));

    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const jobs = await admin.query(`select name, state, count(*)::int as n from ${queueSchema(store.app.config)}.job group by name, state order by name`);
      expect(jobs.rows).toEqual(JOBS.toSorted().map((name) => ({ name, state: 'completed', n: 1 })));
    } finally {
      await admin.end();
    }
    const ready = await second.inject({ url: '/api/health/ready' });
    expect(ready.json()).toMatchObject({ checks: { jobs: { status: 'ok', detail: 'pg-boss is running' } } });
  });
});
