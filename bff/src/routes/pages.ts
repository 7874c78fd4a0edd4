import { CONSENT_COOKIE, COOKIE_BANNER_END_ID, consentChoiceOf } from '@bimi/contracts/consent';
import { MAIN_CONTENT_ID } from '@bimi/contracts/site';
import { findRouteOwner } from '@bimi/contracts/route-match';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { LRUCache } from 'lru-cache';
import { publicBaseUrl } from '../config';
import { chooseContentEncoding, compress } from '../lib/content-encoding';
import { looksLikeFilePath } from '../lib/route-match';

/** Paths the page route never answers: they belong to the API, the builds and the registry. */
const NOT_PAGES = /^\/(?:api|mfe)(?:\/|$)/;
/** Below this size, compressing costs more than it saves. */
const COMPRESSION_THRESHOLD_BYTES = 1024;
/** Anonymous pages are the same for everyone: a whole answer is kept this long (issue 14: a short life). */
const PAGE_CACHE_MS = 30_000;

interface PageAnswer {
  status: 200 | 404;
  vary: string;
  /** The Server-Timing header: the render's cost when it was rendered for this request. */
  serverTiming?: string;
  encoding?: string;
  body: string | Buffer;
}

/**
 * Every other GET is a client route: the shell's index.html, with 200 when a remote owns the path
 * and 404 when none does (the shell then shows its own not-found page).
 */
const pages: FastifyPluginAsync = async (fastify) => {
  /**
   * Whole answers, by everything a page depends on: the registry (the same object while no build
   * changed), the shell's template, the server builds, the visitor's cookie choice, the encoding and
   * the URL. A page never depends on the session (the account area reads it in the browser), so a
   * signed-in visitor's page is an anonymous one too. A hit costs a key and a lookup, where building
   * the page (registry, render, template, compression) cost about twenty times a health check
   * (bench:bff). Pages whose server render failed in part are not kept.
   */
  const answers = new LRUCache<string, PageAnswer>({
    max: 1000,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (answer, key) => answer.body.length + key.length,
    ttl: PAGE_CACHE_MS,
  });
  const identities = new WeakMap<object, number>();
  let lastIdentity = 0;
  /** A short name for an object, for a cache key. */
  function identityOf(value: unknown): number {
    if (typeof value !== 'object' || value === null) return 0;
    let identity = identities.get(value);
    if (identity === undefined) {
      identity = ++lastIdentity;
      identities.set(value, identity);
    }
    return identity;
  }

  fastify.get('/*', async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    if (NOT_PAGES.test(urlPath)) return reply.callNotFound();

    const [registry, template] = await Promise.all([fastify.remoteRegistry.current(), fastify.shellPage.template()]);
    const consent = consentChoiceOf(request.cookies[CONSENT_COOKIE]);
    const acceptedEncoding = chooseContentEncoding(request.headers['accept-encoding']);
    const key = `${identityOf(registry)} ${identityOf(template)} ${consent ?? 'unset'} ${acceptedEncoding ?? 'identity'} ${fastify.serverRender.buildsOf(registry)} ${request.url}`;
    const kept = answers.get(key);
    if (kept) return send(reply, kept);

    const owner = findRouteOwner(registry.remotes, urlPath);
    const owned = owner !== null;
    if (!owned && looksLikeFilePath(urlPath)) return reply.callNotFound();

    const preloads = owner ? await fastify.remoteRegistry.preloadsFor(owner.remote.name) : [];
    // `/faq/` and `/faq` are one page: the canonical URL has no trailing slash.
    const pageUrl = `${publicBaseUrl(fastify.config)}${urlPath.length > 1 ? urlPath.replace(/\/+$/, '') : urlPath}`;
    // Public pages come with their content; checkout with its frame (the cart is in the browser's
    // storage: the page shows it loading until hydrated); the account area with its loading state
    // (the session is read in the browser, so one render serves everybody and is cached like a
    // public page's). The cookie banner is in the first HTML unless the visitor's cookie holds their choice.
    const serverRendered = owner !== null;
    const rendered = serverRendered ? await fastify.serverRender.render(request.url, registry, fastify.publicConfig, consent) : undefined;
    // The header is whole and the main content begun (an account page has neither before the
    // session is known), and the cookie banner when it shows, before the first paint.
    const paintAfter = [...(owner?.route.layout === 'account' ? [] : [MAIN_CONTENT_ID]), ...(consent === null ? [COOKIE_BANNER_END_ID] : [])];
    const html = await fastify.shellPage.render({ registry, publicConfig: fastify.publicConfig, route: owner?.route, preloads, pageUrl, rootHtml: rendered?.html, paintAfter });
    if (html === undefined) {
      return reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('The site is not built yet: run the build (pnpm build), then reload this page.\n');
    }

    const encoding = Buffer.byteLength(html) >= COMPRESSION_THRESHOLD_BYTES ? acceptedEncoding : undefined;
    const answer: PageAnswer = {
      status: owned ? 200 : 404,
      vary: rendered ? 'accept-encoding, cookie' : 'accept-encoding',
      encoding,
      body: encoding ? compress(html, encoding) : html,
    };
    // A page the server could not render (in whole or in part) is rendered again for the next visitor.
    const complete = serverRendered ? rendered !== undefined && rendered.errors.length === 0 : true;
    if (complete) answers.set(key, { ...answer, serverTiming: rendered ? 'render;desc="cached"' : undefined });
    // What the server render cost (bench:web reads it; browsers show it in their network panel).
    if (rendered) answer.serverTiming = `render;dur=${rendered.ms.toFixed(1)}, render-cpu;dur=${rendered.cpuMs.toFixed(1)}`;
    return send(reply, answer);
  });
};

function send(reply: FastifyReply, answer: PageAnswer) {
  reply.code(answer.status).header('cache-control', 'no-cache').header('vary', answer.vary).type('text/html; charset=utf-8');
  if (answer.serverTiming) reply.header('server-timing', answer.serverTiming);
  if (answer.encoding) reply.header('content-encoding', answer.encoding);
  return reply.send(answer.body);
}

export default pages;
