import { setTimeout as sleep } from 'node:timers/promises';
import type { JobName, JobSpec } from './job-schedule';

/** One run to queue: runs with the same key within the job's window are one run. */
export interface QueuedRun {
  key: string;
  data: object;
}

/** What both queues need to know of a job: how many of its runs at once, how often they are tried, for how long a key is one run. */
export interface QueueSettings {
  concurrency: number;
  retryLimit: number;
  retryDelaySeconds: number;
  singletonSeconds: number;
  /** How long an idle pg-boss process waits before asking again for runs another process queued. */
  pollMs: number;
}

/** A periodic job's run is queued once a period (its key is the job's name), one at a time, not retried: it runs again next period. */
export function queueSettings(spec: JobSpec): QueueSettings {
  if (spec.kind === 'queued') return { ...spec, pollMs: 500 };
  return { concurrency: 1, retryLimit: 0, retryDelaySeconds: 0, singletonSeconds: Math.max(1, Math.round(spec.everyMs / 1000)), pollMs: 5000 };
}

/** Runs one queued run's handler; rejects when the run failed (the queue retries it). */
export type RunJob = (name: JobName, data: unknown) => Promise<void>;

/** Where queued runs wait: pg-boss on PostgreSQL (./pg-boss-queue.ts), this process on SQLite (below). */
export interface JobQueue {
  readonly kind: 'pg-boss' | 'in-process';
  /** Queues runs of a job. A key queued again within the job's singletonSeconds, by any process, is the same run. */
  send(name: JobName, runs: readonly QueuedRun[]): Promise<void>;
  /** Resolves once no run is queued or under way (in this process; with pg-boss, in the queues this process works). */
  idle(): Promise<void>;
  /** Where runs are queued now, in a sentence for the readiness check. */
  state(): { running: boolean; detail: string };
  /** Takes no more runs; the runs under way end. pg-boss keeps the queued ones for another process or the restart. */
  stop(): Promise<void>;
}

/**
 * The queue on SQLite, where the bff is one process: each job's runs wait in memory, as many run at
 * once as its concurrency, a failed one is tried again after 1 s, 4 s, 16 s … up to its retry limit.
 * A key is one run within its singletonSeconds (by the real clock, as pg-boss's slots go by the
 * database's), as with pg-boss.
 */
export function inProcessQueue(settings: (name: JobName) => QueueSettings, runJob: RunJob): JobQueue {
  const lanes = new Map<JobName, { queued: QueuedRun[]; running: number }>();
  /** `name key` → when its window ends (epoch ms). */
  const windows = new Map<string, number>();
  const waiters: (() => void)[] = [];
  const stopped = new AbortController();

  async function idle(): Promise<void> {
    if (!busy()) return;
    await new Promise<void>((resolve) => waiters.push(resolve));
  }
  const busy = () => [...lanes.values()].some((lane) => lane.running > 0 || lane.queued.length > 0);

  async function runWithRetries(name: JobName, run: QueuedRun): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await runJob(name, run.data);
        return;
      } catch {
        // runJob logged it; the run's own backoff, not a schedule (cut short when the bff closes).
        if (attempt >= settings(name).retryLimit || stopped.signal.aborted) return;
        const waited = await sleep(1000 * 4 ** attempt, true, { ref: false, signal: stopped.signal }).catch(() => false);
        if (!waited) return;
      }
    }
  }

  function pump(name: JobName) {
    const lane = lanes.get(name);
    if (!lane) return;
    while (!stopped.signal.aborted && lane.running < settings(name).concurrency && lane.queued.length > 0) {
      const run = lane.queued.shift() as QueuedRun;
      lane.running += 1;
      void runWithRetries(name, run).finally(() => {
        lane.running -= 1;
        pump(name);
        if (!busy()) for (const resolve of waiters.splice(0)) resolve();
      });
    }
  }

  return {
    kind: 'in-process',
    async send(name, runs) {
      if (stopped.signal.aborted) return;
      const now = Date.now();
      for (const [key, ends] of windows) if (ends <= now) windows.delete(key);
      const windowMs = settings(name).singletonSeconds * 1000;
      let lane = lanes.get(name);
      if (!lane) lanes.set(name, (lane = { queued: [], running: 0 }));
      for (const run of runs) {
        const key = `${name} ${run.key}`;
        if (windows.has(key)) continue;
        windows.set(key, (Math.floor(now / windowMs) + 1) * windowMs);
        lane.queued.push(run);
      }
      pump(name);
    },
    idle,
    state: () => ({ running: true, detail: 'in this process (SQLite)' }),
    async stop() {
      stopped.abort();
      for (const lane of lanes.values()) lane.queued.length = 0;
      await idle();
    },
  };
}
