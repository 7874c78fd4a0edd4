import { existsSync } from 'node:fs';
import { basename, join, posix } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

/** Webpack names content-hashed files `<name>.<10 hex>.<ext>`; only those may be cached for good. */
const CONTENT_HASHED_FILE = /\.[0-9a-f]{10}\./;

/**
 * Whether a file of a build (its path under /mfe/<app>/, as @fastify/static normalized it) is for
 * browsers. Never the server builds (`server/`): the bff loads them from disk to render pages, and
 * what they hold (the pages' server code, whatever a build inlined) is nobody else's. Source maps
 * (`*.map`, and their .br/.gz) only with SERVE_SOURCE_MAPS=true: they give away the original sources
 * and comments; a team that wants readable stack traces in the browser turns them on (issue 31).
 */
export function isPublicBuildFile(pathName: string, serveSourceMaps: boolean): boolean {
  const path = posix.normalize(`/${pathName}`);
  if (path === '/server' || path.startsWith('/server/')) return false;
  if (!serveSourceMaps && /\.map(?:\.(?:br|gz))?$/i.test(path)) return false;
  return true;
}

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
  fastify.log.info(
    fastify.config.serveSourceMaps
      ? 'build outputs: source maps are served (SERVE_SOURCE_MAPS=true)'
      : 'build outputs: source maps and server builds are not served (SERVE_SOURCE_MAPS to serve the maps)',
  );
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
      allowedPath: (pathName) => isPublicBuildFile(pathName, fastify.config.serveSourceMaps),
      setHeaders(reply, filePath) {
        reply.header('cache-control', CONTENT_HASHED_FILE.test(basename(filePath)) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
};

export default buildOutputs;
