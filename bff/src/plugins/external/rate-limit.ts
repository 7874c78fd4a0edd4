import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';

/** Per-route limits: each route that takes writes from the public sets `config.rateLimit` (per client IP). */
export default fp(
  async function requestRateLimits(fastify) {
    await fastify.register(rateLimit, { global: false });
  },
  { name: 'rate-limit' },
);
