import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

/**
 * /docs/*: documents the storefront builds from its own source (the Mark Certificate Validation
 * Guide PDF), served from its build output so a storefront deploy updates them. The names are
 * stable links printed in e-mails and the account sidebar, so they are not content-hashed and
 * must be revalidated.
 */
const documents: FastifyPluginAsync = async (fastify) => {
  await fastify.register(fastifyStatic, {
    root: join(fastify.config.rootDir, 'mfe-storefront', 'dist', 'docs'),
    prefix: '/docs/',
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'ignore',
    cacheControl: false,
    suppressWarning: true,
    setHeaders(reply) {
      reply.header('cache-control', 'no-cache');
    },
  });
};

export default documents;
