import { join } from 'node:path';
import { loopStallDuring } from '../../../test/timing';
import { createWorkPool, type WorkPool, type WorkPoolOptions } from './work-pool';

// The pool's limits against real runaway work in real threads (test/fixtures/tools/runaway-worker.mjs).
const RUNAWAY_WORKER = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'tools', 'runaway-worker.mjs');

const logged: string[] = [];
const log = { warn: (_details: object, message: string) => logged.push(message), error: (_details: object, message: string) => logged.push(message) };

let pool: WorkPool;
function startPool(options: Partial<WorkPoolOptions> = {}): WorkPool {
  pool = createWorkPool({ filename: RUNAWAY_WORKER, threads: 1, timeoutMs: 300, memoryMb: 32, maxQueue: 4, log, ...options });
  return pool;
}
afterEach(() => pool.close());

describe('the untrusted-work pool', () => {
  it('stops a task past its time limit, answers "timeout", and replaces the thread; the event loop never waits', async () => {
    startPool();
    expect(await pool.warmUp()).toBe(true);
    const { result, stallMs, ms } = await loopStallDuring(() => pool.run('spin', null));
    expect(result).toEqual({ ok: false, failure: 'timeout' });
    expect(ms).toBeGreaterThanOrEqual(300);
    expect(stallMs).toBeLessThan(100);
    expect(logged).toContain('untrusted-work: stopped a worker past its time limit');
    // The replacement thread answers the next task.
    expect(await pool.run('echo', { file: 'next' })).toEqual({ ok: true, value: { file: 'next' } });
    expect(pool.threadCount()).toBe(1);
  }, 30_000);

  it('answers "out-of-memory" when a task outgrows its thread’s heap, and replaces the thread', async () => {
    // A time limit long enough that the heap fills first.
    startPool({ memoryMb: 32, timeoutMs: 20_000 });
    const { result, stallMs } = await loopStallDuring(() => pool.run('hoard', null));
    expect(result).toEqual({ ok: false, failure: 'out-of-memory' });
    expect(stallMs).toBeLessThan(100);
    expect(await pool.run('echo', 'still serving')).toEqual({ ok: true, value: 'still serving' });
    expect(pool.threadCount()).toBe(1);
  }, 30_000);

  it('answers "failed" for a task that throws, and the thread goes on', async () => {
    startPool();
    expect(await pool.run('fail', null)).toEqual({ ok: false, failure: 'failed' });
    expect(await pool.run('echo', 1)).toEqual({ ok: true, value: 1 });
  }, 30_000);

  it('counts only a task’s own run against the limit, not its wait for a thread, and answers "busy" past the queue', async () => {
    startPool({ timeoutMs: 400, maxQueue: 1 });
    await pool.warmUp();
    // One thread: the second waits ~250 ms, then runs 250 ms; 500 ms in all, past the 400 ms limit.
    const [first, second, third] = await Promise.all([pool.run('wait', 250), pool.run('wait', 250), pool.run('wait', 250)]);
    expect(first).toEqual({ ok: true, value: 250 });
    expect(second).toEqual({ ok: true, value: 250 });
    expect(third).toEqual({ ok: false, failure: 'busy' });
  }, 30_000);

  it('answers "busy" when a task waits for a thread longer than allowed', async () => {
    startPool({ timeoutMs: 2000, waitTimeoutMs: 200 });
    await pool.warmUp();
    const [first, second] = await Promise.all([pool.run('wait', 600), pool.run('echo', 'late')]);
    expect(first).toEqual({ ok: true, value: 600 });
    expect(second).toEqual({ ok: false, failure: 'busy' });
  }, 30_000);
});
