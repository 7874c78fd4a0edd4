import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Config } from '../../../config';
import type { JobQueue, QueueSettings, RunJob } from './job-queue';
import type { JobName } from './job-schedule';

/** pg-boss's own schema: MONITOR_QUEUE_SCHEMA, else `<store schema>_queue` (a test run's schema gets its own), else pgboss. */
export function queueSchema(config: Config): string {
  if (config.monitors.queueSchema) return config.monitors.queueSchema;
  const url = config.databaseUrl ? new URL(config.databaseUrl) : undefined;
  const searchPath = /search_path=([A-Za-z0-9_]+)/.exec(url?.searchParams.get('options') ?? '')?.[1];
  return searchPath ? `${searchPath}_queue` : 'pgboss';
}

/**
 * Creates a job's queue once. Two bff processes starting at the same moment both try: PostgreSQL
 * may then abort one with a deadlock or a unique violation. Try again a few times and accept the
 * queue the other process made.
 */
async function createQueue(boss: PgBoss, name: JobName, settings: QueueSettings): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (await boss.getQueue(name)) return;
      await boss.createQueue(name, { name, policy: 'standard', retryLimit: settings.retryLimit, retryBackoff: true, retryDelay: settings.retryDelaySeconds });
      return;
    } catch (error) {
      if (await boss.getQueue(name).catch(() => null)) return;
      if (attempt >= 5) throw error;
      // A pause before trying again, not a schedule.
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.floor(Math.random() * 50)));
    }
  }
}

/**
 * Keeps a job's `concurrency` runs going from pg-boss in this process: fetches as many runs as there
 * is room for whenever one ends (SKIP LOCKED: each goes to one process), completes each when it
 * ends and fails only those that failed (pg-boss retries those with backoff). pg-boss's own worker
 * runs a fetched batch to its slowest run and then sleeps out its polling interval, which left a
 * process idle for a good part of every batch of monitor checks. With nothing to fetch it waits
 * `pollMs`, or until this process queues a run.
 */
class Feeder {
  private readonly running = new Set<Promise<void>>();
  /** Runs that ended, to mark complete in one statement. */
  private readonly completed: string[] = [];
  private flushing: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private stopping = false;
  private readonly loop: Promise<void>;

  constructor(
    private readonly boss: PgBoss,
    private readonly name: JobName,
    private readonly settings: QueueSettings,
    private readonly runJob: RunJob,
    private readonly log: FastifyBaseLogger,
  ) {
    this.loop = this.feed();
  }

  wake(): void {
    this.wakeUp?.();
  }

  /** Stops fetching, lets the runs under way end and marks them; queued runs stay for another process or the restart. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    await Promise.allSettled([...this.running]);
    while (this.flushing) await this.flushing;
  }

  private flushCompleted(): void {
    if (this.flushing || this.completed.length === 0) return;
    this.flushing = (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      const ids = this.completed.splice(0);
      await this.boss
        .complete(this.name, ids)
        .catch((error: unknown) => this.log.error({ err: error, job: this.name }, 'jobs not marked complete (they expire, and a second run of theirs changes nothing)'));
    })().finally(() => {
      this.flushing = undefined;
      this.flushCompleted();
    });
  }

  private start(job: PgBoss.Job<object>): void {
    const tracked = this.runJob(this.name, job.data)
      .then(
        () => {
          this.completed.push(job.id);
          this.flushCompleted();
        },
        (error: unknown) => this.boss.fail(this.name, job.id, { message: error instanceof Error ? error.message : String(error) }),
      )
      .catch((error: unknown) => this.log.error({ err: error, job: this.name }, 'job not marked failed (it expires and is retried)'))
      .finally(() => {
        this.running.delete(tracked);
        this.wake();
      });
    this.running.add(tracked);
  }

  private async feed(): Promise<void> {
    while (!this.stopping) {
      const room = this.settings.concurrency - this.running.size;
      let jobs: PgBoss.Job<object>[] = [];
      if (room > 0) {
        try {
          jobs = await this.boss.fetch<object>(this.name, { batchSize: room });
        } catch (error) {
          this.log.error({ err: error, job: this.name }, 'fetching jobs failed');
        }
      }
      for (const job of jobs) this.start(job);
      if (this.stopping) break;
      // Full, or nothing to fetch: wait for a run to end, a run queued here, or the poll.
      if (jobs.length === 0 || this.running.size >= this.settings.concurrency) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => this.wakeUp?.(), this.settings.pollMs);
          this.wakeUp = () => {
            clearTimeout(timer);
            this.wakeUp = undefined;
            resolve();
          };
        });
      }
    }
  }
}

/**
 * The queue on PostgreSQL: pg-boss 10 in its own schema, shared by every bff process, so a run
 * queued by several processes (a key within its window) is one job, which one process runs, retried
 * with backoff, kept across restarts. pg-boss starts with the first run queued, so a store that
 * never queues one never creates the schema; a job's queue and its feeder in this process start
 * with the first run this process queues of it.
 */
export function pgBossQueue(config: Config, settings: (name: JobName) => QueueSettings, runJob: RunJob, log: FastifyBaseLogger): JobQueue {
  let boss: PgBoss | undefined;
  let starting: Promise<PgBoss> | undefined;
  let stopping = false;
  const queues = new Map<JobName, Promise<Feeder>>();

  function start(): Promise<PgBoss> {
    starting ??= (async () => {
      const queue = new PgBoss({ connectionString: config.databaseUrl, schema: queueSchema(config), schedule: false, max: 4 });
      queue.on('error', (error: unknown) => log.error({ err: error }, 'job queue error'));
      try {
        await queue.start();
      } catch (error) {
        // A queue that did not start must not keep its timers and connections: stop it, and let
        // the next run queued try again.
        await queue.stop({ graceful: false, wait: true }).catch(() => undefined);
        starting = undefined;
        throw error;
      }
      boss = queue;
      return queue;
    })();
    return starting;
  }

  function feeder(name: JobName): Promise<Feeder> {
    let ready = queues.get(name);
    if (!ready) {
      ready = (async () => {
        const queue = await start();
        await createQueue(queue, name, settings(name));
        return new Feeder(queue, name, settings(name), runJob, log);
      })();
      queues.set(name, ready);
      // Not created (the database busy): the next run queued tries again.
      ready.catch(() => queues.delete(name));
    }
    return ready;
  }

  return {
    kind: 'pg-boss',
    async send(name, runs) {
      if (stopping) return;
      const feeding = await feeder(name);
      const queue = await start();
      const { retryLimit, retryDelaySeconds, singletonSeconds } = settings(name);
      await Promise.all(runs.map((run) => queue.send(name, run.data, { singletonKey: run.key, singletonSeconds, retryLimit, retryBackoff: true, retryDelay: retryDelaySeconds })));
      feeding.wake();
    },
    async idle() {
      if (!boss) return;
      // Until pg-boss has no run of these jobs left waiting or running.
      for (const name of queues.keys()) {
        while ((await boss.getQueueSize(name, { before: 'completed' })) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    state() {
      if (stopping) return { running: false, detail: 'pg-boss is stopping' };
      return boss ? { running: true, detail: 'pg-boss is running' } : { running: true, detail: 'pg-boss starts with the first job queued' };
    },
    async stop() {
      stopping = true;
      const feeders = await Promise.allSettled([...queues.values()]);
      await Promise.all(feeders.map((feeding) => (feeding.status === 'fulfilled' ? feeding.value.stop() : undefined)));
      await starting?.catch(() => undefined);
      await boss?.stop({ graceful: true, timeout: 10_000, wait: true });
    },
  };
}
