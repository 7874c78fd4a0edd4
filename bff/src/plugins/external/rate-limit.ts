import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor, type RateLimitOptions, type RateLimitPluginOptions } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore';
import RedisStore from '@fastify/rate-limit/store/RedisStore';
import { tooManyAttemptsMessage } from '@bimi/contracts/auth';
import { ACCOUNT_BASE_PATH } from '@bimi/contracts/api-paths';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { logRedisConnection, REDIS_CLIENT_OPTIONS } from '../../lib/redis-client';

/**
 * A refusal in our words with the wait in minutes ("Too many attempts. Try again in 12 minutes."),
 * which the error handler answers as {message}. It is the plugin's default below, so every route's
 * 429 says it (the library's own "Rate limit exceeded, retry in 28 minutes" never reaches a user);
 * @fastify/rate-limit still sets Retry-After (seconds) on the answer.
 */
export const refusedInOurWords: RateLimitOptions['errorResponseBuilder'] = (_request, context) =>
  Object.assign(new Error(tooManyAttemptsMessage(context.ttl)), { statusCode: context.statusCode });

/** A signed-in route's counter key: its user (the session is read before the limit), else the address. */
export const perSignedInUser = (request: FastifyRequest) => (request.sessionUser ? `user:${request.sessionUser.id}` : request.ip);

const isUnder = (url: string, base: string) => url === base || url.startsWith(`${base}/`);

/** After Redis failed a call, counters stay in memory this long before Redis is asked again. */
export const REDIS_RETRY_AFTER_FAILURE_MS = 5_000;

type Counted = { current: number; ttl: number };
type CountCallback = (error: Error | null, result?: Counted) => void;
/** The two calls @fastify/rate-limit makes of a store (`read` for `{ increment: false }`). */
interface CountingStore extends FastifyRateLimitStore {
  read(key: string, callback: CountCallback, timeWindow: number, max: number): void;
}

/**
 * The counters in Redis, and in this process's memory while Redis does not answer: a limit still
 * holds during an outage, per replica instead of for all of them together (N replicas let N times
 * as much through), rather than every limited route answering 500 (the library's default) or no
 * limit at all (its `skipOnError`). A failed call is counted in memory at once; for the next
 * REDIS_RETRY_AFTER_FAILURE_MS every call is, so a Redis that hangs costs one command timeout, not
 * one per counter. Then Redis counts again, from where it was.
 */
function redisWithMemoryFallback(redis: Redis, nameSpace: string, log: FastifyBaseLogger): FastifyRateLimitStoreCtor {
  const state = { failedAt: -Infinity };
  class Fallback implements CountingStore {
    constructor(
      private readonly remote: CountingStore,
      private readonly local: CountingStore,
    ) {}

    private count(method: 'incr' | 'read', key: string, callback: CountCallback, timeWindow: number, max: number): void {
      if (redis.status !== 'ready' || Date.now() - state.failedAt < REDIS_RETRY_AFTER_FAILURE_MS) return this.local[method](key, callback, timeWindow, max);
      this.remote[method](
        key,
        (error, result) => {
          if (!error) return callback(null, result);
          if (Date.now() - state.failedAt >= REDIS_RETRY_AFTER_FAILURE_MS) log.warn({ err: error }, 'rate-limit counters: Redis does not answer, counting in memory meanwhile');
          state.failedAt = Date.now();
          this.local[method](key, callback, timeWindow, max);
        },
        timeWindow,
        max,
      );
    }

    incr(key: string, callback: CountCallback, timeWindow: number, max: number): void {
      this.count('incr', key, callback, timeWindow, max);
    }

    read(key: string, callback: CountCallback, timeWindow: number, max: number): void {
      this.count('read', key, callback, timeWindow, max);
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      return new Fallback(this.remote.child(routeOptions) as CountingStore, this.local.child(routeOptions) as CountingStore);
    }
  }
  return class PluginStore extends Fallback {
    constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      super(new RedisStore(options.continueExceeding, options.exponentialBackoff, redis, nameSpace), new LocalStore(options.continueExceeding, options.exponentialBackoff));
    }
  } as unknown as FastifyRateLimitStoreCtor;
}

/**
 * Per-route limits: each route that takes writes from the public sets `config.rateLimit` (per client
 * IP), and every /api/account route without one gets ACCOUNT_REQUESTS_PER_MINUTE per signed-in user
 * (issue 31: no signed-in route without a limit); a route's `max` and `timeWindow` are its own, its refusal is always `refusedInOurWords`. With REDIS_URL the counters live in Redis, so every bff replica counts the same attempts
 * (in memory while Redis does not answer: redisWithMemoryFallback). Sign-in keeps counters of its own through `createRateLimit` (lib/sign-in-limits.ts).
 */
export default fp(
  async function requestRateLimits(fastify) {
    const { redisUrl, redisKeyPrefix } = fastify.config;
    const options: RateLimitPluginOptions = { global: false, errorResponseBuilder: refusedInOurWords };
    // Before the library's own onRoute hook, which reads each route's limit as the route is added.
    fastify.addHook('onRoute', (route) => {
      if (isUnder(route.url, ACCOUNT_BASE_PATH) && route.config?.rateLimit === undefined) {
        route.config = { ...route.config, rateLimit: { max: fastify.config.accountRequestsPerMinute, timeWindow: '1 minute', keyGenerator: perSignedInUser } };
      }
    });
    if (!redisUrl) {
      await fastify.register(rateLimit, options);
      return;
    }
    // Never waits for Redis (REDIS_CLIENT_OPTIONS); connected before the first request, so a bff
    // that just started counts in Redis with the other replicas.
    const redis = new Redis(redisUrl, REDIS_CLIENT_OPTIONS);
    logRedisConnection(redis, fastify.log, 'rate-limit counters');
    await redis.connect().catch((error: unknown) => {
      redis.disconnect();
      throw new Error(`REDIS_URL ${new URL(redisUrl).host} unreachable: ${error instanceof Error ? error.message : String(error)}`);
    });
    fastify.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
    await fastify.register(rateLimit, { ...options, store: redisWithMemoryFallback(redis, `${redisKeyPrefix}rate-limit:`, fastify.log) });
  },
  { name: 'rate-limit', decorators: { fastify: ['config'] } },
);
