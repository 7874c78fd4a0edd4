import { Registry } from '@bimi/contracts/registry';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** GET /remotes.json: the runtime registry, re-read from the builds on every request. */
const remotes: FastifyPluginAsyncZod = async (fastify) => {
  fastify.get('/remotes.json', { schema: { response: { 200: Registry } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return fastify.remoteRegistry.current();
  });
};

export default remotes;
