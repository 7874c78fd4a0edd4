import { PublicConfig } from '@bimi/contracts/public-config';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const publicConfig: FastifyPluginAsyncZod = async (fastify) => {
  fastify.get('/', { schema: { response: { 200: PublicConfig } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return fastify.publicConfig;
  });
};

export default publicConfig;
