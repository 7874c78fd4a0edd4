import type { Registry } from '@bimi/contracts/registry';
import type { FastifyPluginAsync } from 'fastify';
import { chooseContentEncoding, compress } from '../lib/content-encoding';
import { looksLikeFilePath, matchesRoutePath } from '../lib/route-match';

/** Paths the page route never answers: they belong to the API, the builds and the registry. */
const NOT_PAGES = /^\/(?:api|mfe)(?:\/|$)/;
/** Below this size, compressing costs more than it saves. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

function isOwnedByARemote(registry: Registry, urlPath: string): boolean {
  return registry.remotes.some((remote) => remote.routes.some((route) => matchesRoutePath(route.path, urlPath)));
}

/**
 * Every other GET is a client route: the shell's index.html, with 200 when a remote owns the path
 * and 404 when none does (the shell then shows its own not-found page).
 */
const pages: FastifyPluginAsync = async (fastify) => {
  fastify.get('/*', async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    if (NOT_PAGES.test(urlPath)) return reply.callNotFound();

    const registry = await fastify.remoteRegistry.current();
    const owned = isOwnedByARemote(registry, urlPath);
    if (!owned && looksLikeFilePath(urlPath)) return reply.callNotFound();

    const html = await fastify.shellPage.render({ registry, publicConfig: fastify.publicConfig });
    if (html === undefined) {
      return reply
        .code(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('The site is not built yet: run the build (pnpm build), then reload this page.\n');
    }

    reply.code(owned ? 200 : 404).header('cache-control', 'no-cache').header('vary', 'accept-encoding').type('text/html; charset=utf-8');
    const encoding = Buffer.byteLength(html) >= COMPRESSION_THRESHOLD_BYTES ? chooseContentEncoding(request.headers['accept-encoding']) : undefined;
    if (!encoding) return reply.send(html);
    return reply.header('content-encoding', encoding).send(compress(html, encoding));
  });
};

export default pages;
