import cookie from '@fastify/cookie';
import fp from 'fastify-plugin';

/** Cookie parsing for the session and consent cookies. */
export default fp(
  async function cookies(fastify) {
    await fastify.register(cookie);
  },
  { name: 'cookie' },
);
