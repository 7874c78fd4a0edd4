import { setTimeout as sleep } from 'node:timers/promises';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import { inProcessQueue, queueSettings, type JobQueue } from './job-queue';
import { jobSchedule, type JobName, type JobSpec, type PeriodicJobName, type QueuedJobName } from './job-schedule';
import { pgBossQueue } from './pg-boss-queue';

/** What a job's runs in this process came to. */
export interface JobRuns {
  /** Runs that ended without an error. */
  finished: number;
  failed: number;
  /** How long each of the last finished runs took, in milliseconds, oldest first (at most 10,000). */
  timesMs: readonly number[];
}

export interface Jobs {
  /** Where runs are queued: pg-boss with PostgreSQL (DATABASE_URL), this process on SQLite. */
  readonly queue: 'pg-boss' | 'in-process';
  /** The plain function a periodic job runs (its schedule is in job-schedule.ts); what it answers is runNow's answer. */
  handle(name: PeriodicJobName, handler: () => Promise<unknown>): void;
  /** The plain function that runs one queued run of a job, with its data as `schema` reads it. */
  handle<Schema extends z.ZodType>(name: QueuedJobName, schema: Schema, handler: (data: z.infer<Schema>) => Promise<void>): void;
  /** Queues this period's run of a periodic job, as its timer does: one run a period across every bff process. */
  schedule(name: PeriodicJobName): Promise<void>;
  /** Queues runs of a queued job: one run a key (within the job's window) however many processes queue it. */
  send(name: QueuedJobName, runs: readonly { key: string; data: object }[]): Promise<void>;
  /** Asks for a run of a periodic job in this process after its gather time; asked during a run, it runs again after it. */
  wake(name: PeriodicJobName): void;
  /** Runs a periodic job in this process now, after the run under way if any; answers what its handler answered. */
  runNow(name: PeriodicJobName): Promise<unknown>;
  /** Resolves once no run is queued, gathering or under way (in this process; with pg-boss, in the queues it works). */
  idle(): Promise<void>;
  /** Where runs are queued now, in a sentence for the readiness check. */
  state(): { running: boolean; detail: string };
  /** What a job's runs in this process came to (the benchmark, the logs). */
  runs(name: JobName): JobRuns;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

/**
 * The one scheduler (bff/README.md#jobs): every periodic or deferred piece of the bff's work is a
 * named job in job-schedule.ts, its handler a plain function its domain plugin hands over. On
 * PostgreSQL each timer's run is queued in pg-boss, one a period across every process, and run by
 * one of them; on SQLite the same queue lives in this process. A periodic job runs one at a time in
 * a process. Each process also runs the jobs marked atStart when it is ready, and a job woken by
 * this process's own work (a payment event) runs here. No other timer in bff/src schedules work
 * (ESLint).
 */
export default fp(
  async function jobs(fastify) {
    const schedule = jobSchedule(fastify.config);
    const specOf = (name: JobName): JobSpec => schedule[name];
    const periodicHandlers = new Map<JobName, () => Promise<unknown>>();
    const queuedHandlers = new Map<JobName, (data: unknown) => Promise<void>>();
    const tallies = new Map<JobName, { finished: number; failed: number; timesMs: number[] }>();
    /** The run of each periodic job under way in this process, and whether one is waiting to start after it. */
    const current = new Map<JobName, Promise<unknown>>();
    const waiting = new Set<JobName>();
    /** Periodic jobs woken in this process, waiting out their gather time. */
    const gathering = new Set<JobName>();
    /** Every run and gathering wake in this process, for idle() and close. */
    const inFlight = new Set<Promise<unknown>>();
    const closing = new AbortController();
    const timers: NodeJS.Timeout[] = [];

    const tally = (name: JobName) => {
      let found = tallies.get(name);
      if (!found) tallies.set(name, (found = { finished: 0, failed: 0, timesMs: [] }));
      return found;
    };
    function track<T>(promise: Promise<T>): Promise<T> {
      inFlight.add(promise);
      void promise.catch(() => undefined).finally(() => inFlight.delete(promise));
      return promise;
    }

    /** One run of a handler, timed and counted; a failure is logged and rethrown to the queue (which retries it or waits for the next period). */
    async function timed<T>(name: JobName, work: () => Promise<T>, data?: unknown): Promise<T> {
      const started = performance.now();
      const counts = tally(name);
      try {
        const answer = await work();
        counts.finished += 1;
        if (counts.timesMs.push(performance.now() - started) > 10_000) counts.timesMs.shift();
        return answer;
      } catch (error) {
        counts.failed += 1;
        const spec = specOf(name);
        fastify.log[spec.kind === 'queued' ? 'warn' : 'error'](
          { err: error, job: name, ...(data !== undefined ? { data } : {}) },
          spec.kind === 'queued' ? 'a job run failed; it is tried again up to its retry limit' : 'a job run failed; it runs again at its next time',
        );
        throw error;
      }
    }

    /** A periodic job's run in this process, after the one under way; `coalesce`: none if one is already waiting to start. */
    async function runPeriodic(name: JobName, coalesce: boolean): Promise<unknown> {
      const handler = periodicHandlers.get(name);
      if (!handler) throw new Error(`no handler for the job ${name}`);
      if (coalesce && waiting.has(name)) return undefined;
      if (coalesce) waiting.add(name);
      try {
        while (current.has(name)) await current.get(name)?.catch(() => undefined);
      } finally {
        if (coalesce) waiting.delete(name);
      }
      const run = timed(name, handler).finally(() => current.delete(name));
      current.set(name, run);
      return track(run);
    }

    const runJob = async (name: JobName, data: unknown): Promise<void> => {
      const queued = queuedHandlers.get(name);
      if (queued) {
        await track(timed(name, () => queued(data), data));
        return;
      }
      await runPeriodic(name, true);
    };
    const settings = (name: JobName) => queueSettings(specOf(name));
    const queue: JobQueue = fastify.config.databaseUrl ? pgBossQueue(fastify.config, settings, runJob, fastify.log) : inProcessQueue(settings, runJob);

    function handle(name: JobName, ...rest: [() => Promise<unknown>] | [z.ZodType, (data: unknown) => Promise<void>]) {
      if (periodicHandlers.has(name) || queuedHandlers.has(name)) throw new Error(`the job ${name} has a handler already`);
      if (rest.length === 1) periodicHandlers.set(name, rest[0]);
      else {
        const [schema, handler] = rest;
        // The data comes back from the queue's table: read as the handler expects it, or the run fails.
        queuedHandlers.set(name, (data) => handler(schema.parse(data)));
      }
    }

    /** This period's run of a periodic job, queued: what its timer does, and jobs.schedule. */
    const schedulePeriod = (name: JobName) => queue.send(name, [{ key: name, data: {} }]);
    // A failed run is logged by timed(); this is the queue failing (pg-boss not reachable).
    const queueFailed = (name: JobName) => (error: unknown) => fastify.log.error({ err: error, job: name }, 'a job could not be queued; its next time tries again');

    const jobsApi: Jobs = {
      queue: queue.kind,
      handle: handle as Jobs['handle'],
      schedule: schedulePeriod,
      send: (name, runs) => queue.send(name, runs),
      wake(name) {
        if (closing.signal.aborted || gathering.has(name)) return;
        gathering.add(name);
        track(
          sleep(schedule[name].gatherMs, undefined, { signal: closing.signal })
            .finally(() => gathering.delete(name))
            .then(() => runPeriodic(name, true)),
        ).catch(() => undefined);
      },
      runNow: (name) => runPeriodic(name, false),
      async idle() {
        for (;;) {
          await queue.idle();
          if (inFlight.size === 0) return;
          await Promise.allSettled([...inFlight]);
        }
      },
      state: () => queue.state(),
      runs(name) {
        const { finished, failed, timesMs } = tally(name);
        return { finished, failed, timesMs: [...timesMs] };
      },
    };
    fastify.decorate('jobs', jobsApi);

    fastify.addHook('onReady', async () => {
      for (const name of periodicHandlers.keys()) {
        const spec = specOf(name);
        if (spec.kind !== 'periodic') continue;
        if (spec.atStart) track(runPeriodic(name, true)).catch(() => undefined);
        if (spec.everyMs > 0) {
          const timer = setInterval(() => void schedulePeriod(name).catch(queueFailed(name)), spec.everyMs);
          timer.unref();
          timers.push(timer);
        }
      }
    });
    // Before the server and the other plugins close: the runs under way end with the database still open.
    fastify.addHook('preClose', async () => {
      for (const timer of timers) clearInterval(timer);
      closing.abort();
      await queue.stop();
      await Promise.allSettled([...inFlight]);
    });
  },
  { name: 'jobs', decorators: { fastify: ['config'] } },
);
