import { concurrencyLimit, queueLimit } from './concurrency-limit';

/** Work that ends when told to. */
function gate() {
  let open = () => {};
  const done = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { done, open };
}

describe('concurrencyLimit', () => {
  it('runs at most atOnce, queues at most waiting, and answers BUSY beyond', async () => {
    const limit = concurrencyLimit(2, 1);
    const gates = [gate(), gate(), gate()];
    const runs = gates.map((g, index) => limit.run(async () => (await g.done, index)));
    expect(limit.load).toEqual({ running: 2, waiting: 1 });
    expect(await limit.run(async () => 'late')).toBe(limit.BUSY);
    gates[0]!.open();
    expect(await runs[0]).toBe(0);
    // The waiter took the freed slot: still two running, none waiting.
    await Promise.resolve();
    expect(limit.load).toEqual({ running: 2, waiting: 0 });
    gates[1]!.open();
    gates[2]!.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect(limit.load).toEqual({ running: 0, waiting: 0 });
  });

  it('never lets a newcomer in between a finished run and its waiter', async () => {
    const limit = concurrencyLimit(1, 5);
    let inFlight = 0;
    let most = 0;
    const work = async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight -= 1;
    };
    const first = [limit.run(work), limit.run(work), limit.run(work)];
    // Newcomers arrive while slots are handed over.
    const later = await Promise.all([...first, ...Array.from({ length: 3 }, () => new Promise((resolve) => setTimeout(() => resolve(limit.run(work)), 1)))]);
    expect(later.filter((outcome) => outcome === limit.BUSY)).toEqual([]);
    expect(most).toBe(1);
  });

  it('frees the slot when the work fails', async () => {
    const limit = concurrencyLimit(1, 0);
    await expect(limit.run(async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(limit.load).toEqual({ running: 0, waiting: 0 });
    expect(await limit.run(async () => 'ok')).toBe('ok');
  });

  it('queueLimit: every call waits its turn, none is refused', async () => {
    const limited = queueLimit(2);
    let inFlight = 0;
    let most = 0;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        limited(async () => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 1));
          inFlight -= 1;
          return index;
        }),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 50 }, (_, index) => index));
    expect(most).toBe(2);
  });
});
