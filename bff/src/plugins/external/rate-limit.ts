import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

/**
 * Per-route limits: each route that takes writes from the public sets `config.rateLimit` (per client
 * IP). With REDIS_URL the counters live in Redis, so every bff replica counts the same attempts.
 */
export default fp(
  async function requestRateLimits(fastify) {
    const { redisUrl, redisKeyPrefix } = fastify.config;
    if (!redisUrl) {
      await fastify.register(rateLimit, { global: false });
      return;
    }
    // @fastify/rate-limit needs a client that fails fast rather than queueing while Redis is away.
    const redis = new Redis(redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1 });
    fastify.addHook('onClose', async () => {
      await redis.quit();
    });
    await fastify.register(rateLimit, { global: false, redis, nameSpace: `${redisKeyPrefix}rate-limit:` });
  },
  { name: 'rate-limit', decorators: { fastify: ['config'] } },
);
