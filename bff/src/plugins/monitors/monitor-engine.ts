import type { MonitorSnapshot } from '@bimi/contracts/monitors';
import { isHygiene } from '@bimi/email-auth/checks';
import fp from 'fastify-plugin';
import PgBoss from 'pg-boss';
import { publicBaseUrl, type Config } from '../../config';
import { monitorAlertMail, monitorAlertSubject, type MonitorAlertContent } from '../../services/mail/monitor-mails';
import { analyzeDomain } from '../../services/monitors/analyze';
import { changesSince } from '../../services/monitors/changes';
import { queueLimit } from '../../lib/concurrency-limit';
import { runResolver } from '../../services/monitors/run-dns';
import { createResolver } from '../platform/dns';
import { QUEUE_PER_THREAD, type UntrustedFiles } from '../../services/untrusted-files/untrusted-files';
import { CERTIFICATE_EXPIRING_WITHIN_DAYS } from '@bimi/contracts/monitors';
import type { MonitorAlertKind } from './monitors-alerts';
import { recipient } from '../mail/order-notifications';

const HOUR = 60 * 60 * 1000;
const MONITOR_DNS_TRIES = 3;
/** How often an idle process asks pg-boss for runs queued by another process. */
const FEED_IDLE_MS = 500;
export const MONITOR_JOB = 'monitor-check';

/** A scheduled run: the monitor, and the next_check_at it was due at (the period it is for). */
interface MonitorJob {
  monitorId: string;
  dueAt: string;
}

export interface MonitorEngine {
  /** 'pg-boss' with PostgreSQL (DATABASE_URL), 'in-process' on SQLite. */
  readonly queue: 'pg-boss' | 'in-process';
  /** Runs a monitor's check now, in this process (first run on create, "re-check now"); null when the monitor is gone. */
  runNow(monitorId: string): Promise<MonitorSnapshot | null>;
  /** Queues the runs of every active monitor due now (the scheduler calls it every MONITOR_SCHEDULER_SECONDS); answers how many it found due. */
  schedule(): Promise<number>;
  /** Resolves once nothing queued or running is left in this process's queue (tests, the benchmark). */
  idle(): Promise<void>;
  /** Where scheduled runs are queued now, in a sentence for the readiness check. */
  queueState(): { running: boolean; detail: string };
  /** Scheduled runs this process finished (tests, the benchmark). */
  readonly finishedRuns: number;
  /** How long each of the last scheduled runs took, in milliseconds, oldest first (at most 10,000; the benchmark). */
  readonly runTimesMs: readonly number[];
}

declare module 'fastify' {
  interface FastifyInstance {
    monitorEngine: MonitorEngine;
  }
}

/** pg-boss's own schema: MONITOR_QUEUE_SCHEMA, else `<store schema>_queue` (a test run's schema gets its own), else pgboss. */
export function queueSchema(config: Config): string {
  if (config.monitors.queueSchema) return config.monitors.queueSchema;
  const url = config.databaseUrl ? new URL(config.databaseUrl) : undefined;
  const searchPath = /search_path=([A-Za-z0-9_]+)/.exec(url?.searchParams.get('options') ?? '')?.[1];
  return searchPath ? `${searchPath}_queue` : 'pgboss';
}

/**
 * The monitor engine: the job handler that runs one monitor's check (stores the snapshot with the
 * changes since the run before, updates the list, mails the alerts), the scheduler that queues the
 * runs that are due, and the queue that runs them.
 *
 * With PostgreSQL the queue is pg-boss (in its own schema): every bff process queues what is due,
 * a singleton key per monitor and period makes it one job, which one process runs, retried with
 * backoff, kept across restarts. A run first claims its period in the monitors table (one
 * conditional update of next_check_at), so even a second job for the same period changes nothing.
 * On SQLite the same handler runs in an in-process queue with bounded concurrency and retries.
 * DNS is polite: at most MONITOR_DNS_CONCURRENCY queries at once for this process, and each
 * question asked once per run.
 */
export default fp(
  async function monitorEngine(fastify) {
    const settings = fastify.config.monitors;
    const interval = settings.checkIntervalHours * HOUR;
    const limitedDns = queueLimit(settings.dnsConcurrency);
    // The monitors' own resolver, with a third try: a UDP answer lost twice (a busy resolver, a
    // full socket buffer) must not become a finding in a snapshot and an alert mail; nobody waits
    // on a scheduled run, so a server that never answers may cost it a few seconds more.
    const resolver = createResolver({ servers: fastify.config.dnsServers, timeoutMs: fastify.config.tools.dnsTimeoutMs, tries: MONITOR_DNS_TRIES });
    // The monitors' share of the untrusted-files threads: half of the tasks that may wait for one.
    // Past the pool's queue a task is answered "busy" at once, which would store "Logo not checked"
    // for a logo that is fine; a monitor run waits its turn instead, and a person's tool check still
    // finds room in the queue.
    const limitedFiles = queueLimit(Math.max(1, Math.floor((fastify.config.tools.workers.threads * QUEUE_PER_THREAD) / 2)));
    const files: UntrustedFiles = {
      ...fastify.untrustedFiles,
      checkLogo: (svg) => limitedFiles(() => fastify.untrustedFiles.checkLogo(svg)),
      validateMarkCertificate: (input) => limitedFiles(() => fastify.untrustedFiles.validateMarkCertificate(input)),
    };
    const baseUrl = publicBaseUrl(fastify.config);
    let finishedRuns = 0;
    const runTimesMs: number[] = [];

    async function sendAlerts(monitor: { id: string; user_id: string; domain: string }, previous: MonitorSnapshot | null, snapshot: MonitorSnapshot) {
      const content: MonitorAlertContent = { domain: monitor.domain, changes: [], topIssues: snapshot.topIssues };
      const claims: [MonitorAlertKind, string][] = [];
      if (previous && snapshot.healthScore < previous.healthScore) {
        content.scoreDrop = { from: previous.healthScore, to: snapshot.healthScore };
        claims.push(['score-drop', snapshot.checkedAt]);
      }
      const recordChanges = snapshot.changes.filter((change) => change.kind !== 'status');
      if (recordChanges.length > 0) {
        content.changes = recordChanges;
        claims.push(['record-change', snapshot.checkedAt]);
      }
      const { validTo, daysLeft } = snapshot.certificate;
      if (validTo && daysLeft !== null && daysLeft <= CERTIFICATE_EXPIRING_WITHIN_DAYS) {
        content.certificateExpiry = { validTo, daysLeft };
        claims.push(['certificate-expiry', validTo]);
      }
      if (claims.length === 0) return;
      const who = await recipient(fastify, monitor.user_id, 'monitorAlerts');
      if (!who) return;
      const now = fastify.now();
      const claimed: string[] = [];
      for (const [kind, key] of claims) {
        const id = await fastify.monitorAlerts.claim(monitor.id, kind, key, monitorAlertSubject(content), now);
        if (id) claimed.push(id);
        // Already sent (the certificate expiry is mailed once per certificate): leave it out of this mail.
        else if (kind === 'certificate-expiry') delete content.certificateExpiry;
        else if (kind === 'score-drop') delete content.scoreDrop;
        else content.changes = [];
      }
      // Turned off in the notification settings: claimed all the same, so it is not reconsidered.
      if (claimed.length === 0 || !who.wants) return;
      if (!(await fastify.mailer.trySend(monitorAlertMail(who.email, who.name, baseUrl, content)))) {
        for (const id of claimed) await fastify.monitorAlerts.release(id);
      }
    }

    /** One run of one monitor; `period` when it is a scheduled run that must first claim its period. */
    async function run(monitorId: string, period?: string): Promise<MonitorSnapshot | null> {
      const started = performance.now();
      const now = fastify.now();
      // A scheduled run claims its period; an unscheduled one (create, re-check now) starts the
      // period over. Either answers the monitor, or nothing when it is not there to run.
      const monitor = period !== undefined ? await fastify.monitors.claim(monitorId, period, now + interval) : await fastify.monitors.setChecking(monitorId, true, now + interval);
      if (!monitor) return null;
      try {
        const io = { dns: runResolver(resolver, limitedDns), fetch: fastify.safeFetch };
        const analysis = await analyzeDomain(monitor.domain, io, files, now);
        const previous = await fastify.monitorSnapshots.latest(monitorId);
        const snapshot: MonitorSnapshot = { ...analysis, changes: changesSince(previous, analysis) };
        const recorded = await fastify.monitors.recordRun(monitorId, {
          healthScore: snapshot.healthScore,
          // Hygiene is listed apart and is never a monitor's worst issue (issue 32).
          worstIssue: snapshot.topIssues.find((issue) => !isHygiene({ id: issue.checkId })) ?? null,
          checkedAt: snapshot.checkedAt,
          certificateExpiresAt: snapshot.certificate.validTo,
        });
        // Deleted while it ran: nothing to store.
        if (!recorded) return null;
        await fastify.monitorSnapshots.add(monitorId, snapshot);
        await sendAlerts(monitor, previous, snapshot).catch((error: unknown) => fastify.log.error({ err: error, monitorId }, 'monitor alert failed'));
        if (period !== undefined) {
          finishedRuns += 1;
          if (runTimesMs.push(performance.now() - started) > 10_000) runTimesMs.shift();
        }
        return snapshot;
      } catch (error) {
        // Give the period back so the retry can claim it.
        if (period !== undefined) await fastify.monitors.releaseClaim(monitorId, period);
        else await fastify.monitors.setChecking(monitorId, false);
        throw error;
      }
    }

    // ---- the queue: pg-boss on PostgreSQL, in process on SQLite
    let boss: PgBoss | undefined;
    const local = { queued: [] as MonitorJob[], keys: new Set<string>(), running: 0, waiters: [] as (() => void)[] };
    const jobKey = (job: MonitorJob) => `${job.monitorId} ${job.dueAt}`;

    function pump() {
      while (local.running < settings.concurrency && local.queued.length > 0) {
        const job = local.queued.shift() as MonitorJob;
        local.running += 1;
        void runWithRetries(job).finally(() => {
          local.running -= 1;
          local.keys.delete(jobKey(job));
          pump();
          if (local.running === 0 && local.queued.length === 0) for (const resolve of local.waiters.splice(0)) resolve();
        });
      }
    }
    async function runWithRetries(job: MonitorJob) {
      for (let attempt = 0; ; attempt += 1) {
        try {
          await run(job.monitorId, job.dueAt);
          return;
        } catch (error) {
          fastify.log.warn({ err: error, monitorId: job.monitorId, attempt }, 'monitor run failed');
          if (attempt >= 2 || closing) return;
          await new Promise((resolve) => setTimeout(resolve, 1000 * 4 ** attempt).unref());
        }
      }
    }

    async function enqueue(jobs: MonitorJob[]) {
      if (fastify.config.databaseUrl) {
        const queue = await startQueue();
        // One job per monitor and period, however many processes queue it: the key names the period,
        // and pg-boss keeps one job per key within each hour (a second one across an hour's edge
        // finds the period claimed and does nothing).
        await Promise.all(jobs.map((job) => queue.send(MONITOR_JOB, job, { singletonKey: jobKey(job), singletonSeconds: 3600, retryLimit: 3, retryBackoff: true, retryDelay: 30 })));
        wakeFeeder();
        return;
      }
      for (const job of jobs) {
        if (local.keys.has(jobKey(job))) continue;
        local.keys.add(jobKey(job));
        local.queued.push(job);
      }
      pump();
    }

    async function schedule(): Promise<number> {
      const due = await fastify.monitors.dueRuns(fastify.now(), 10_000);
      if (due.length > 0) await enqueue(due.map((row) => ({ monitorId: row.id, dueAt: row.next_check_at })));
      return due.length;
    }

    let closing = false;
    const unscheduled = new Set<Promise<unknown>>();
    let timer: NodeJS.Timeout | undefined;
    const scheduleLogged = () => {
      schedule().catch((error: unknown) => fastify.log.error({ err: error }, 'monitor scheduling failed'));
    };

    const engine: MonitorEngine = {
      get queue() {
        return fastify.config.databaseUrl ? 'pg-boss' : 'in-process';
      },
      runNow(monitorId) {
        // Kept until it ends, so closing waits for a first run the create answer stopped waiting for.
        const running = run(monitorId);
        unscheduled.add(running);
        void running.catch(() => undefined).finally(() => unscheduled.delete(running));
        return running;
      },
      schedule,
      async idle() {
        if (boss) {
          // Until pg-boss has no job of ours left waiting or running.
          for (;;) {
            const counts = await boss.getQueueSize(MONITOR_JOB, { before: 'completed' });
            if (counts === 0) return;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
        if (local.running === 0 && local.queued.length === 0) return;
        await new Promise<void>((resolve) => local.waiters.push(resolve));
      },
      queueState() {
        if (!fastify.config.databaseUrl) return { running: true, detail: 'in this process (SQLite)' };
        if (closing) return { running: false, detail: 'pg-boss is stopping' };
        return boss ? { running: true, detail: 'pg-boss is running' } : { running: true, detail: 'pg-boss starts with the first monitor to schedule' };
      },
      get finishedRuns() {
        return finishedRuns;
      },
      runTimesMs,
    };
    fastify.decorate('monitorEngine', engine);

    /**
     * pg-boss starts with the first monitor there is to schedule (at start when there are monitors,
     * else on the first queued run), so a store without monitors never creates the queue's schema.
     */
    let starting: Promise<PgBoss> | undefined;
    /**
     * Creates the monitor job queue once. Two bff processes starting at the same moment both try:
     * PostgreSQL may then abort one with a deadlock or a unique violation. Try again a few times and
     * accept the queue the other process made.
     */
    async function createMonitorQueue(queue: PgBoss): Promise<void> {
      for (let attempt = 1; ; attempt += 1) {
        try {
          if (await queue.getQueue(MONITOR_JOB)) return;
          await queue.createQueue(MONITOR_JOB, { name: MONITOR_JOB, policy: 'standard', retryLimit: 3, retryBackoff: true, retryDelay: 30 });
          return;
        } catch (error) {
          if (await queue.getQueue(MONITOR_JOB).catch(() => null)) return;
          if (attempt >= 5) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.floor(Math.random() * 50)));
        }
      }
    }
    /**
     * Keeps MONITOR_CONCURRENCY runs going from pg-boss in this process: fetches as many jobs as
     * there is room for whenever a run ends (SKIP LOCKED: each job goes to one process), completes
     * each job when its run ends and fails only the runs that failed (pg-boss retries those with
     * backoff). pg-boss's own worker runs a fetched batch to its slowest run and then sleeps out its
     * polling interval, which left this process idle for a good part of every batch. With nothing
     * to fetch it waits FEED_IDLE_MS, or until this process queues a run.
     */
    const feeding = {
      queue: undefined as PgBoss | undefined,
      running: new Set<Promise<void>>(),
      /** Jobs whose runs ended, to mark complete in one statement. */
      completed: [] as string[],
      flushing: undefined as Promise<void> | undefined,
      wake: undefined as (() => void) | undefined,
      loop: undefined as Promise<void> | undefined,
    };
    const wakeFeeder = () => feeding.wake?.();
    function flushCompleted(queue: PgBoss): void {
      if (feeding.flushing || feeding.completed.length === 0) return;
      feeding.flushing = (async () => {
        await new Promise((resolve) => setImmediate(resolve));
        const ids = feeding.completed.splice(0);
        await queue
          .complete(MONITOR_JOB, ids)
          .catch((error: unknown) => fastify.log.error({ err: error }, 'monitor jobs not marked complete (they expire, and their runs find the period claimed)'));
      })().finally(() => {
        feeding.flushing = undefined;
        flushCompleted(queue);
      });
    }
    function feed(queue: PgBoss) {
      feeding.queue = queue;
      feeding.loop ??= (async () => {
        while (!closing) {
          const room = settings.concurrency - feeding.running.size;
          let jobs: PgBoss.Job<MonitorJob>[] = [];
          if (room > 0) {
            try {
              jobs = await queue.fetch<MonitorJob>(MONITOR_JOB, { batchSize: room });
            } catch (error) {
              fastify.log.error({ err: error }, 'fetching monitor jobs failed');
            }
          }
          for (const job of jobs) {
            const tracked = run(job.data.monitorId, job.data.dueAt)
              .then(
                () => {
                  feeding.completed.push(job.id);
                  flushCompleted(queue);
                },
                async (error: unknown) => {
                  fastify.log.warn({ err: error, monitorId: job.data.monitorId }, 'monitor run failed');
                  await queue.fail(MONITOR_JOB, job.id, { message: error instanceof Error ? error.message : String(error) });
                },
              )
              .catch((error: unknown) => fastify.log.error({ err: error }, 'monitor job not marked failed (it expires and is retried)'))
              .finally(() => {
                feeding.running.delete(tracked);
                wakeFeeder();
              });
            feeding.running.add(tracked);
          }
          if (closing) break;
          // Full, or nothing to fetch: wait for a run to end, a run queued here, or the poll.
          if (jobs.length === 0 || feeding.running.size >= settings.concurrency) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(() => feeding.wake?.(), FEED_IDLE_MS);
              feeding.wake = () => {
                clearTimeout(timer);
                feeding.wake = undefined;
                resolve();
              };
            });
          }
        }
      })();
    }
    /** Stops fetching, lets the runs under way end and marks them; queued jobs stay for another process or the restart. */
    async function stopFeeding(): Promise<void> {
      wakeFeeder();
      await feeding.loop;
      await Promise.allSettled([...feeding.running]);
      while (feeding.flushing) await feeding.flushing;
    }
    function startQueue(): Promise<PgBoss> {
      starting ??= (async () => {
        const queue = new PgBoss({ connectionString: fastify.config.databaseUrl, schema: queueSchema(fastify.config), schedule: false, max: 4 });
        queue.on('error', (error: unknown) => fastify.log.error({ err: error }, 'monitor queue error'));
        try {
          await queue.start();
          await createMonitorQueue(queue);
          feed(queue);
        } catch (error) {
          // A queue that did not start must not keep its timers and connections: stop it, and let
          // the next run try again.
          await queue.stop({ graceful: false, wait: true }).catch(() => undefined);
          starting = undefined;
          throw error;
        }
        boss = queue;
        return queue;
      })();
      return starting;
    }

    fastify.addHook('onReady', async () => {
      // A queue that cannot start now (the database busy, another process creating it) is started
      // again by the next scheduled run; the bff serves meanwhile.
      if (fastify.config.databaseUrl && (await fastify.monitors.anyActive()))
        await startQueue().catch((error: unknown) => fastify.log.error({ err: error }, 'monitor queue did not start; the next scheduled run tries again'));
      if (settings.schedulerSeconds > 0) {
        scheduleLogged();
        timer = setInterval(scheduleLogged, settings.schedulerSeconds * 1000);
        timer.unref();
      }
    });
    fastify.addHook('onClose', async () => {
      closing = true;
      clearInterval(timer);
      // pg-boss: the runs under way end, the queued ones wait for another process or the restart.
      if (boss) await stopFeeding();
      else await engine.idle().catch(() => undefined);
      await Promise.allSettled([...unscheduled]);
      await starting?.catch(() => undefined);
      await boss?.stop({ graceful: true, timeout: 10_000, wait: true });
      resolver.cancel();
    });
  },
  { name: 'monitor-engine', dependencies: ['monitors', 'monitor-snapshots', 'monitor-alerts', 'mailer', 'dns-resolver', 'safe-fetch', 'untrusted-files'] },
);
