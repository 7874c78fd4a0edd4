import rateLimit, { type RateLimitOptions, type RateLimitPluginOptions } from '@fastify/rate-limit';
import { tooManyAttemptsMessage } from '@bimi/contracts/auth';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

/**
 * A refusal in our words with the wait in minutes ("Too many attempts. Try again in 12 minutes."),
 * which the error handler answers as {message}; routes put it beside their `max` and `timeWindow`.
 */
export const refusedInOurWords: RateLimitOptions['errorResponseBuilder'] = (_request, context) =>
  Object.assign(new Error(tooManyAttemptsMessage(context.ttl)), { statusCode: context.statusCode });

/**
 * Per-route limits: each route that takes writes from the public sets `config.rateLimit` (per client
 * IP). With REDIS_URL the counters live in Redis, so every bff replica counts the same attempts.
 * Sign-in keeps counters of its own through `createRateLimit` (lib/sign-in-limits.ts).
 */
export default fp(
  async function requestRateLimits(fastify) {
    const { redisUrl, redisKeyPrefix } = fastify.config;
    const options: RateLimitPluginOptions = { global: false };
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
