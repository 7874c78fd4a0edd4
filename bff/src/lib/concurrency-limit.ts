/**
 * A limit on expensive work in flight, with a short queue: at most `atOnce` run, at most `waiting`
 * wait for a slot, and `run` answers BUSY at once when both are full (the caller says so to the
 * visitor instead of letting the work pile up). A finished run hands its slot straight to the
 * first waiter, so no newcomer slips in between and `atOnce` is never exceeded.
 */
export function concurrencyLimit(atOnce: number, waiting: number) {
  let running = 0;
  const queue: (() => void)[] = [];
  const BUSY: unique symbol = Symbol('busy');
  return {
    BUSY,
    /** How many run and how many wait, for tests and logs. */
    get load() {
      return { running, waiting: queue.length };
    },
    async run<T>(work: () => Promise<T>): Promise<T | typeof BUSY> {
      if (running >= atOnce) {
        if (queue.length >= waiting) return BUSY;
        // The slot is handed over by a finished run (running is not lowered in between).
        await new Promise<void>((resolve) => queue.push(resolve));
      } else {
        running += 1;
      }
      try {
        return await work();
      } finally {
        const next = queue.shift();
        if (next) next();
        else running -= 1;
      }
    },
  };
}

/** At most `atOnce` calls at once; every other waits its turn, in order, however many there are. */
export function queueLimit(atOnce: number): <T>(call: () => Promise<T>) => Promise<T> {
  const limit = concurrencyLimit(atOnce, Number.POSITIVE_INFINITY);
  return async <T>(call: () => Promise<T>): Promise<T> => {
    const outcome = await limit.run(call);
    if (outcome === limit.BUSY) throw new Error('an unbounded queue is never full');
    return outcome as T;
  };
}
