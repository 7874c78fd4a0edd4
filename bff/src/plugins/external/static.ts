import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

/** Webpack names content-hashed files `<name>.<10 hex>.<ext>`; only those may be cached for good. */
const CONTENT_HASHED_FILE = /\.[0-9a-f]{10}\./;

/**
 * Serves each app's build from disk at /mfe/<app>/, reading files per request so a deploy that
 * renames new files in takes effect at once. The .br/.gz siblings built beside each file are
 * chosen by Accept-Encoding.
 */
const buildOutputs: FastifyPluginAsync = async (fastify) => {
  // A shell served from another origin fetches manifests and loads chunks from here.
  fastify.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('cross-origin-resource-policy', 'cross-origin');
  });

  const apps = [
    { name: 'shell', folder: join(fastify.config.rootDir, 'shell', 'dist') },
    // A remote served from another origin (its configured url) has no folder here.
    ...fastify.config.remotes.filter((remote) => !remote.url).map(({ name }) => ({ name, folder: join(fastify.config.rootDir, `mfe-${name}`, 'dist') })),
  ];
  for (const app of apps) {
    if (!existsSync(app.folder)) fastify.log.warn(`${app.name} build not found at ${app.folder}: /mfe/${app.name}/ answers 404 until it is built`);
    await fastify.register(fastifyStatic, {
      root: app.folder,
      prefix: `/${app.name}/`,
      decorateReply: false,
      preCompressed: true,
      index: false,
      list: false,
      dotfiles: 'ignore',
      cacheControl: false,
      suppressWarning: true,
      setHeaders(reply, filePath) {
        reply.header('cache-control', CONTENT_HASHED_FILE.test(basename(filePath)) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
};

export default buildOutputs;
