import type { JobName } from './job-schedule';
import { inProcessQueue, type QueueSettings } from './job-queue';

const CHECK = 'monitor-check' as JobName;
const settings =
  (overrides: Partial<QueueSettings> = {}) =>
  () => ({ concurrency: 2, retryLimit: 1, retryDelaySeconds: 30, singletonSeconds: 3600, pollMs: 500, ...overrides });

describe('the in-process job queue', () => {
  it('runs a key once within its window, at most `concurrency` at once', async () => {
    let running = 0;
    let most = 0;
    const ran: unknown[] = [];
    const queue = inProcessQueue(settings(), async (_name, data) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      ran.push(data);
      running -= 1;
    });
    const runs = ['a', 'b', 'c', 'd', 'e'].map((key) => ({ key, data: { key } }));
    await Promise.all([queue.send(CHECK, runs), queue.send(CHECK, runs), queue.send(CHECK, runs.slice(0, 2))]);
    await queue.idle();
    expect(ran).toHaveLength(5);
    expect(most).toBe(2);
    // Queued again after its run, in the same window: still the one run.
    await queue.send(CHECK, runs);
    await queue.idle();
    expect(ran).toHaveLength(5);
  });

  it('tries a failed run again up to its retry limit, and idle() waits for the retries', async () => {
    const tries: number[] = [];
    const queue = inProcessQueue(settings({ retryLimit: 1 }), async () => {
      tries.push(Date.now());
      throw new Error('the resolver is away');
    });
    await queue.send(CHECK, [{ key: 'x', data: {} }]);
    await queue.idle();
    expect(tries).toHaveLength(2);
    expect((tries[1] ?? 0) - (tries[0] ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it('takes no more runs once stopped, and lets the one under way end', async () => {
    let ended = 0;
    const queue = inProcessQueue(settings({ concurrency: 1 }), async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ended += 1;
    });
    await queue.send(CHECK, [
      { key: 'first', data: {} },
      { key: 'second', data: {} },
    ]);
    await queue.stop();
    expect(ended).toBe(1);
    await queue.send(CHECK, [{ key: 'third', data: {} }]);
    await queue.idle();
    expect(ended).toBe(1);
  });
});
