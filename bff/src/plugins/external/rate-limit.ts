import rateLimit, { type RateLimitOptions, type RateLimitPluginOptions } from '@fastify/rate-limit';
import { tooManyAttemptsMessage } from '@bimi/contracts/auth';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

/**
 * A refusal in our words with the wait in minutes ("Too many attempts. Try again in 12 minutes."),
 * which the error handler answers as {message}. It is the plugin's default below, so every route's
 * 429 says it (the library's own "Rate limit exceeded, retry in 28 minutes" never reaches a user);
 * @fastify/rate-limit still sets Retry-After (seconds) on the answer.
 */
export const refusedInOurWords: RateLimitOptions['errorResponseBuilder'] = (_request, context) =>
  Object.assign(new Error(tooManyAttemptsMessage(context.ttl)), { statusCode: context.statusCode });

/**
 * Per-route limits: each route that takes writes from the public sets `config.rateLimit` (per client
 * IP); a route's `max` and `timeWindow` are its own, its refusal is always `refusedInOurWords`. With REDIS_URL the counters live in Redis, so every bff replica counts the same attempts.
 * Sign-in keeps counters of its own through `createRateLimit` (lib/sign-in-limits.ts).
 */
export default fp(
  async function requestRateLimits(fastify) {
    const { redisUrl, redisKeyPrefix } = fastify.config;
    const options: RateLimitPluginOptions = { global: false, errorResponseBuilder: refusedInOurWords };
    if (!redisUrl) {
      await fastify.register(rateLimit, options);
      return;
    }
    // @fastify/rate-limit needs a client that fails fast rather than queueing while Redis is away.
    const redis = new Redis(redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1 });
    fastify.addHook('onClose', async () => {
      await redis.quit();
    });
    await fastify.register(rateLimit, { ...options, redis, nameSpace: `${redisKeyPrefix}rate-limit:` });
  },
  { name: 'rate-limit', decorators: { fastify: ['config'] } },
);
