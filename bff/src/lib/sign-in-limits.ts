import { normalizeIP, type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Sign-in limits an attacker cannot turn against the owner (OWASP authentication cheat sheet):
 *
 * - failures per account and address: 5 in 15 minutes; a success clears the pair's count. A wrong
 *   password from one address never stops the owner signing in from another;
 * - failures per address: 20 in 15 minutes, whatever the accounts (password spraying);
 * - attempts per address: 100 in 15 minutes, successes included (one address working through a
 *   list of stolen passwords);
 * - no per-account block: an account-wide cap is exactly what lets anyone lock the owner out.
 *   Instead, more than 50 failures on one account in 15 minutes, from all addresses together, are
 *   logged as a warning for whoever watches the logs. Guessing stays slow without it: the
 *   per-address limits, the password rule (10+ characters) and argon2id's cost.
 *
 * The counters are @fastify/rate-limit's (createRateLimit): in memory, or in Redis with REDIS_URL so
 * every replica counts together. That library counts every call and cannot delete a counter, so:
 * "a success clears the pair's count" moves the pair to a fresh counter: its key carries the
 * number of successes of the pair (a counter of the same library, kept for a day from the pair's
 * first success), and the old counter runs out by itself. (When that day ends the numbering
 * starts again; a failure counter of the same number still running then, at most 15 minutes old
 * and of the same pair, would count again once: the pair's own few failures.) The pair's counter
 * counts each attempt before the password check (parallel guesses cannot outrun it) and a success
 * leaves it behind, so what stays counted is failures. The address's failure counter is read
 * before the check (`increment: false`) and counted after a wrong password; guesses sent in
 * parallel from one address are bounded by its attempt counter.
 */
export const SIGN_IN_LIMITS = {
  windowMs: 15 * 60 * 1000,
  failuresPerAccountAndAddress: 5,
  failuresPerAddress: 20,
  attemptsPerAddress: 100,
  accountFailuresWarning: 50,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;
/** The "limit" of a counter that only counts: `remaining` then tells the count. */
const COUNT_ONLY = 1_000_000_000;
/** In-memory counters kept (least recently used go first): enough that spraying keys cannot push out a live one. */
const MEMORY_KEYS = 100_000;

export interface SignInLimits {
  /**
   * Before the password is checked: counts the attempt, and answers how long to wait (ms) when a
   * limit of this address, or of this account from this address, is reached; null to go on.
   */
  admit(request: FastifyRequest, email: string): Promise<{ waitMs: number } | null>;
  /** A wrong password or unknown account. */
  failed(request: FastifyRequest, email: string): Promise<void>;
  /** The right password: the pair's failures no longer count. */
  succeeded(request: FastifyRequest, email: string): Promise<void>;
}

export function signInLimits(fastify: FastifyInstance): SignInLimits {
  // The keys of the request in hand; createRateLimit's key generators only see the request.
  const keysOf = new WeakMap<FastifyRequest, { email: string; address: string; pair: string }>();
  const keys = (request: FastifyRequest) => {
    const found = keysOf.get(request);
    if (!found) throw new Error('sign-in limits: admit() was not called for this request');
    return found;
  };
  const counter = (options: RateLimitOptions) => fastify.createRateLimit({ cache: MEMORY_KEYS, ...options });

  const attemptsFromAddress = counter({
    max: SIGN_IN_LIMITS.attemptsPerAddress,
    timeWindow: SIGN_IN_LIMITS.windowMs,
    keyGenerator: (request) => `sign-in:attempts:${keys(request).address}`,
  });
  const failuresFromAddress = counter({
    max: SIGN_IN_LIMITS.failuresPerAddress,
    timeWindow: SIGN_IN_LIMITS.windowMs,
    keyGenerator: (request) => `sign-in:failures:${keys(request).address}`,
  });
  const failuresOfPair = counter({
    max: SIGN_IN_LIMITS.failuresPerAccountAndAddress,
    timeWindow: SIGN_IN_LIMITS.windowMs,
    keyGenerator: (request) => `sign-in:pair-failures:${keys(request).pair}`,
  });
  // Successes of a pair: each one starts the pair's failures afresh. A day, far longer than a
  // failure counter lives, so a number is not reused while a counter of that number still runs.
  const successesOfPair = counter({
    max: COUNT_ONLY,
    timeWindow: DAY_MS,
    keyGenerator: (request) => `sign-in:pair-successes:${keys(request).email}|${keys(request).address}`,
  });
  const failuresOfAccount = counter({
    max: SIGN_IN_LIMITS.accountFailuresWarning,
    timeWindow: SIGN_IN_LIMITS.windowMs,
    keyGenerator: (request) => `sign-in:account-failures:${keys(request).email}`,
  });

  /** How long until a counter read without counting lets the next failure in, or 0 when it does now. */
  async function waitOnFailures(limiter: typeof failuresFromAddress, request: FastifyRequest): Promise<number> {
    const state = await limiter(request, { increment: false });
    return !state.isAllowed && state.remaining === 0 && state.ttl > 0 ? state.ttl : 0;
  }

  return {
    async admit(request, email) {
      // An IPv6 address counts by its /64, as the library's own keys do: one host holds them all.
      const address = normalizeIP(request.ip);
      const requestKeys = { email, address, pair: '' };
      keysOf.set(request, requestKeys);
      const successes = await successesOfPair(request, { increment: false });
      requestKeys.pair = `${email}|${address}|${successes.isAllowed ? 0 : COUNT_ONLY - successes.remaining}`;

      const attempt = await attemptsFromAddress(request);
      const waits: Record<string, number> = {
        'attempts from address': !attempt.isAllowed && attempt.isExceeded ? attempt.ttl : 0,
        'failures from address': await waitOnFailures(failuresFromAddress, request),
      };
      if (Math.max(...Object.values(waits)) === 0) {
        // Counted before the password is checked, so guesses sent in parallel cannot outrun it;
        // a success then moves the pair to a fresh counter, so only failures stay counted.
        const pair = await failuresOfPair(request);
        waits['failures of account from address'] = !pair.isAllowed && pair.isExceeded ? pair.ttl : 0;
      }
      const waitMs = Math.max(...Object.values(waits));
      if (waitMs > 0) {
        request.log.warn({ limits: Object.keys(waits).filter((limit) => (waits[limit] ?? 0) > 0) }, 'sign-in limit reached');
        return { waitMs };
      }
      return null;
    },
    async failed(request) {
      await failuresFromAddress(request);
      const account = await failuresOfAccount(request);
      if (!account.isAllowed && account.isExceeded) {
        request.log.warn({ account: keys(request).email }, `more than ${SIGN_IN_LIMITS.accountFailuresWarning} failed sign-ins on one account in 15 minutes`);
      }
    },
    async succeeded(request) {
      await successesOfPair(request);
    },
  };
}
