import { Piscina } from 'piscina';
import { isTaskStart, type TaskMessage } from './worker-task';

/**
 * A pool of worker threads for work whose cost a stranger controls (parsing the certificates and
 * logos they upload or point the tools at): it runs beside the event loop, so one request never
 * stalls the others, and each task is bounded in time (its thread is stopped once the task has run
 * past the limit), in memory (each thread's heap is capped; past it the thread dies) and in number
 * (a short queue, then "busy"). A stopped or dead thread is replaced; the caller gets a failure it
 * can put into words.
 */

export type WorkFailure = 'timeout' | 'out-of-memory' | 'busy' | 'failed';
export type WorkOutcome<T> = { ok: true; value: T } | { ok: false; failure: WorkFailure };

interface Logger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface WorkPoolOptions {
  /** The worker's entry: an .mjs file exporting one task per name, each made with worker-task.ts `startsTimer`, `ping` among them. */
  filename: string;
  workerData?: unknown;
  /** Threads, started with the first task (or warmUp) and kept. */
  threads: number;
  /** How long a task may run; its thread is stopped past it. */
  timeoutMs: number;
  /** Each thread's heap (V8 old generation); a thread that needs more dies. */
  memoryMb: number;
  /** Tasks that may wait for a thread; more are answered "busy" at once. */
  maxQueue: number;
  /** How long a task may wait for a thread (one still loading its code, or all busy) before it is answered "busy"; 10 s. */
  waitTimeoutMs?: number;
  log: Logger;
}

export interface WorkPool {
  run<T>(task: string, input: unknown): Promise<WorkOutcome<T>>;
  /** Starts the threads now rather than with the first task (when the server starts listening). */
  warmUp(): Promise<boolean>;
  /** Threads alive now; tests watch a stopped one being replaced. */
  threadCount(): number;
  close(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;

export function createWorkPool(options: WorkPoolOptions): WorkPool {
  const waitTimeoutMs = options.waitTimeoutMs ?? 10_000;
  /** The tasks waiting for their thread to say it has started them, by id. */
  const waiting = new Map<number, () => void>();
  let nextId = 1;
  let inFlight = 0;
  let pool: Piscina | undefined;
  let closed = false;

  function threads(): Piscina {
    if (!pool) {
      pool = new Piscina({
        filename: options.filename,
        workerData: options.workerData,
        // A fixed number of threads, started together and kept: no request waits for one to load.
        minThreads: options.threads,
        maxThreads: options.threads,
        resourceLimits: { maxOldGenerationSizeMb: options.memoryMb, maxYoungGenerationSizeMb: Math.max(4, Math.floor(options.memoryMb / 8)), stackSizeMb: 4 },
      });
      // A thread that fails between tasks; without a listener the 'error' event would end the process.
      pool.on('error', (error: unknown) => options.log.error({ err: error }, 'untrusted-work: a worker thread failed'));
      pool.on('message', (message: unknown) => {
        if (isTaskStart(message)) waiting.get(message.untrustedTaskStarted)?.();
      });
    }
    return pool;
  }

  /** Piscina stops replacing threads that fail while they start: then the next task starts a new pool. */
  async function forgetIfNoThreads(): Promise<void> {
    if (!pool || pool.threads.length > 0) return;
    options.log.error({}, 'untrusted-work: the worker threads did not start');
    const failed = pool;
    pool = undefined;
    await failed.destroy().catch(() => undefined);
  }

  async function run<T>(task: string, input: unknown, waitLimitMs = waitTimeoutMs): Promise<WorkOutcome<T>> {
    if (closed) return { ok: false, failure: 'failed' };
    // Counted here: piscina's own maxQueue does not count tasks that carry an abort signal, as these all do.
    if (inFlight >= options.threads + options.maxQueue) return { ok: false, failure: 'busy' };
    inFlight += 1;
    const id = nextId++;
    const stop = new AbortController();
    // The time limit starts when a thread starts the task, not while it waits for one (a thread
    // loading its code, or busy): piscina hands queued tasks even to threads still loading.
    const progress = { started: false };
    let timer = setTimeout(() => stop.abort(), waitLimitMs);
    waiting.set(id, () => {
      waiting.delete(id);
      progress.started = true;
      clearTimeout(timer);
      timer = setTimeout(() => stop.abort(), options.timeoutMs);
    });
    try {
      const message: TaskMessage = { id, input };
      return { ok: true, value: (await threads().run(message, { name: task, signal: stop.signal })) as T };
    } catch (error) {
      const { name, code } = error as { name?: string; code?: string };
      // The server is closing: the task was cut short, not stopped for taking too long.
      if (closed) return { ok: false, failure: 'failed' };
      if (name === 'AbortError' && progress.started) {
        options.log.warn({ task, timeoutMs: options.timeoutMs }, 'untrusted-work: stopped a worker past its time limit');
        return { ok: false, failure: 'timeout' };
      }
      if (name === 'AbortError') {
        await forgetIfNoThreads();
        return { ok: false, failure: 'busy' };
      }
      if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
        options.log.warn({ task, memoryMb: options.memoryMb }, 'untrusted-work: a worker ran out of memory and was replaced');
        return { ok: false, failure: 'out-of-memory' };
      }
      options.log.error({ err: error, task }, 'untrusted-work: a task failed');
      await forgetIfNoThreads();
      return { ok: false, failure: 'failed' };
    } finally {
      inFlight -= 1;
      clearTimeout(timer);
      waiting.delete(id);
    }
  }

  return {
    run,
    async warmUp() {
      // One ping per thread: each idle thread takes one, so every thread has loaded its code. A
      // thread may take seconds to start on a busy machine; that is no stranger's doing.
      const pings = await Promise.all(Array.from({ length: options.threads }, () => run('ping', null, START_TIMEOUT_MS)));
      return pings.every((ping) => ping.ok);
    },
    threadCount: () => pool?.threads.length ?? 0,
    async close() {
      closed = true;
      await pool?.destroy();
      pool = undefined;
    },
  };
}
