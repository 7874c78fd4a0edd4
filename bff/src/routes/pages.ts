import { CONSENT_COOKIE, consentChoiceOf } from '@bimi/contracts/consent';
import type { RouteLayout } from '@bimi/contracts/registry';
import { findRouteOwner } from '@bimi/contracts/route-match';
import type { FastifyPluginAsync } from 'fastify';
import { LRUCache } from 'lru-cache';
import { publicBaseUrl } from '../config';
import { chooseContentEncoding, compress } from '../lib/content-encoding';
import { looksLikeFilePath } from '../lib/route-match';

/** Paths the page route never answers: they belong to the API, the builds and the registry. */
const NOT_PAGES = /^\/(?:api|mfe)(?:\/|$)/;
const SERVER_RENDERED_LAYOUTS = new Set<RouteLayout>(['public', 'landing', 'legal', 'enrollment', 'auth', 'checkout']);
/** Below this size, compressing costs more than it saves. */
const COMPRESSION_THRESHOLD_BYTES = 1024;
/**
 * Compressed documents by their text and encoding. The same page for the same registry, session
 * state and consent is the same text, so it is compressed once: compressing every answer anew was a
 * third of a cached page's CPU (bench:bff). Keyed by the text itself, an entry can never be stale.
 */
const compressed = new LRUCache<string, Buffer>({ max: 500, maxSize: 32 * 1024 * 1024, sizeCalculation: (body, key) => body.length + key.length });

/**
 * Every other GET is a client route: the shell's index.html, with 200 when a remote owns the path
 * and 404 when none does (the shell then shows its own not-found page).
 */
const pages: FastifyPluginAsync = async (fastify) => {
  fastify.get('/*', async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    if (NOT_PAGES.test(urlPath)) return reply.callNotFound();

    const registry = await fastify.remoteRegistry.current();
    const owner = findRouteOwner(registry.remotes, urlPath);
    const owned = owner !== null;
    if (!owned && looksLikeFilePath(urlPath)) return reply.callNotFound();

    const preloads = owner ? await fastify.remoteRegistry.preloadsFor(owner.remote.name) : [];
    // `/faq/` and `/faq` are one page: the canonical URL has no trailing slash.
    const pageUrl = `${publicBaseUrl(fastify.config)}${urlPath.length > 1 ? urlPath.replace(/\/+$/, '') : urlPath}`;
    // Public pages come with their content; checkout with its frame (the cart is in the browser's
    // storage: the page shows it loading until hydrated); the account area (the session's data)
    // renders in the browser. The cookie banner is in the first HTML unless the visitor's cookie
    // holds their choice.
    const rendered =
      owner && SERVER_RENDERED_LAYOUTS.has(owner.route.layout)
        ? await fastify.serverRender.render(request.url, registry, fastify.publicConfig, consentChoiceOf(request.cookies[CONSENT_COOKIE]))
        : undefined;
    const html = await fastify.shellPage.render({ registry, publicConfig: fastify.publicConfig, route: owner?.route, preloads, pageUrl, rootHtml: rendered?.html });
    if (html === undefined) {
      return reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('The site is not built yet: run the build (pnpm build), then reload this page.\n');
    }

    reply
      .code(owned ? 200 : 404)
      .header('cache-control', 'no-cache')
      .header('vary', rendered ? 'accept-encoding, cookie' : 'accept-encoding')
      .type('text/html; charset=utf-8');
    // What the server render cost (bench:web reads it; browsers show it in their network panel).
    if (rendered) reply.header('server-timing', rendered.cached ? 'render;desc="cached"' : `render;dur=${rendered.ms.toFixed(1)}, render-cpu;dur=${rendered.cpuMs.toFixed(1)}`);
    const encoding = Buffer.byteLength(html) >= COMPRESSION_THRESHOLD_BYTES ? chooseContentEncoding(request.headers['accept-encoding']) : undefined;
    if (!encoding) return reply.send(html);
    const key = `${encoding}:${html}`;
    let body = compressed.get(key);
    if (!body) {
      body = compress(html, encoding);
      compressed.set(key, body);
    }
    return reply.header('content-encoding', encoding).send(body);
  });
};

export default pages;
