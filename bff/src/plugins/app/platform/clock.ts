import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The store's clock (epoch ms): sessions, mailed links, stored timestamps, renewals and monitor
     * runs go by it, never by Date.now(), so tests and DEV_CLOCK can move it.
     */
    now: () => number;
  }
}

export interface ClockOptions {
  /** Another clock than the real one: a test's, or DEV_CLOCK's movableClock. */
  now?: () => number;
}

/** A clock that runs with the real one, plus however far a test has moved it forward. */
export function movableClock(): { now: () => number; advance: (ms: number) => void } {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance: (ms) => {
      offset += ms;
    },
  };
}

export default fp(
  async function clock(fastify, options: ClockOptions) {
    fastify.decorate('now', options.now ?? (() => Date.now()));
  },
  { name: 'clock' },
);
