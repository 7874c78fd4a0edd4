import { CONSENT_COOKIE, COOKIE_BANNER_END_ID, consentChoiceOf } from '@bimi/contracts/consent';
import { renderableAnswerPath, SCREEN_COOKIE, SIDEBAR_COOKIE, type PageState } from '@bimi/contracts/page-state';
import { MAIN_CONTENT_ID } from '@bimi/contracts/site';
import type { RegistryEntry, RemoteRoute } from '@bimi/contracts/registry';
import { findRouteOwner } from '@bimi/contracts/route-match';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { publicBaseUrl } from '../config';
import { concurrencyLimit } from '../lib/concurrency-limit';
import { chooseContentEncoding, compress, type ContentEncoding } from '../lib/content-encoding';
import { looksLikeFilePath } from '../lib/route-match';
import { sessionCookieName } from '../plugins/app/identity/sessions';
import { openerPolicyFor } from '../plugins/external/helmet';
import type { RenderedShellPage } from '../plugins/app/pages/shell-page';

/** Paths the page route never answers: they belong to the API, the builds and the registry. */
const NOT_PAGES = /^\/(?:api|mfe)(?:\/|$)/;
/** Below this size, compressing costs more than it saves. */
const COMPRESSION_THRESHOLD_BYTES = 1024;
/** Anonymous pages are the same for everyone: a whole answer is kept this long (issue 14: a short life). */
const PAGE_CACHE_MS = 30_000;
/**
 * Server renders at a time, and renders that may wait for one: a render holds the event loop for
 * tens of milliseconds, so more at once only make every request wait (issue 31: 16 connections of
 * fresh renders took /api/health to 1 s). A page past the queue goes out without its server render,
 * as with server rendering off: the browser renders it.
 */
const RENDERS_AT_ONCE = 2;
const RENDERS_WAITING = 16;

/**
 * The query of the page as its route declares it reads it (`query` in its remote's routes.json):
 * only those parameters, in name order; '' or `?…`. The page is rendered with this and kept per it,
 * so a parameter the page does not read neither renders it again nor takes a place in the cache.
 */
export function pageQuery(url: string, names: readonly string[] | undefined): string {
  const start = url.indexOf('?');
  if (start === -1 || !names || names.length === 0) return '';
  const given = new URLSearchParams(url.slice(start + 1));
  const kept = new URLSearchParams();
  for (const name of [...names].sort()) for (const value of given.getAll(name)) kept.append(name, value);
  const text = kept.toString();
  return text ? `?${text}` : '';
}

interface PageAnswer {
  status: 200 | 404;
  vary: string;
  /** A signed-in visitor's own page: no cache may keep it. */
  personal?: boolean;
  /** The Server-Timing header: the render's cost when it was rendered for this request. */
  serverTiming?: string;
  encoding?: string;
  /** The page's content security policy: the site's, with the hashes of the shell's inline scripts. */
  policy: string;
  /** Its Cross-Origin-Opener-Policy, by its layout (openerPolicyFor); none when undefined. */
  openerPolicy?: string;
  body: string | Buffer;
}

/**
 * What `asked` gives within `budgetMs`, for a signed-in page: undefined when it fails or comes
 * later (the page then goes without it, and the visitor's browser asks). Either is logged under the
 * page's request, with `what` was asked.
 */
async function inTime<T>(request: FastifyRequest, what: string, budgetMs: number, asked: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const tooLate = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      request.log.warn({ path: what, budgetMs }, 'a page went without an answer: no answer in time');
      resolve(undefined);
    }, budgetMs);
  });
  const answered = asked.catch((error: unknown) => {
    request.log.warn({ path: what, err: error }, 'a page went without an answer: it failed');
    return undefined;
  });
  try {
    return await Promise.race([answered, tooLate]);
  } finally {
    clearTimeout(timer);
  }
}

/** The query of a request's URL as a header may carry it (what it cannot hold comes percent-encoded): '' or `?…`. */
function queryOf(url: string): string {
  const start = url.indexOf('?');
  return start === -1 ? '' : new URL(`/?${url.slice(start + 1)}`, 'http://query.invalid').search;
}

/**
 * Whether to draw the phone layout: as the screen measured itself on the last account page
 * (SCREEN_COOKIE); before that, whether the browser is most likely a phone: its client hint says
 * so, or its user agent names itself "Mobi…" (MDN's advice).
 */
function looksLikePhone(request: FastifyRequest): boolean {
  const measured = request.cookies[SCREEN_COOKIE];
  if (measured === 'phone') return true;
  if (measured === 'wide') return false;
  const hint = request.headers['sec-ch-ua-mobile'];
  if (hint === '?1') return true;
  if (hint === '?0') return false;
  return /Mobi/.test(request.headers['user-agent'] ?? '');
}

/**
 * Every other GET is a client route: the shell's index.html, with 200 when a remote owns the path
 * and 404 when none does (the shell then shows its own not-found page).
 */
const pages: FastifyPluginAsync = async (fastify) => {
  const sessionCookie = sessionCookieName(fastify.config.nodeEnv === 'production');
  // A signed-in page has its session and each answer within half the render's time limit (0: no
  // server rendering, and no signed-in render): what comes later is left to the browser.
  const renderLimitMs = fastify.config.serverRenderTimeoutMs;
  const answerBudgetMs = renderLimitMs / 2;
  /**
   * Whole answers, by everything a page depends on: the registry (the same object while no build
   * changed), the shell's template, the server builds, the visitor's cookie choice, the encoding and
   * the URL. Only anonymous pages: a public page never depends on the session (the header reads it
   * in the browser), and an account page with a live session is rendered for its visitor each time
   * and kept by nobody (`private, no-store`). A hit costs a key and a lookup, where building
   * the page (registry, render, template, compression) cost about twenty times a health check
   * (bench:bff). Pages whose server render failed in part are not kept.
   */
  const answers = new LRUCache<string, PageAnswer>({
    max: 1000,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (answer, key) => answer.body.length + key.length,
    ttl: PAGE_CACHE_MS,
  });
  /** Anonymous renders in flight, by key: a request for a page being rendered waits for it. */
  const rendering = new Map<string, Promise<PageAnswer | undefined>>();
  const renders = concurrencyLimit(RENDERS_AT_ONCE, RENDERS_WAITING);
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
    const owner = findRouteOwner(registry.remotes, urlPath);
    // A route that only forwards (its remote's routes.json says where): the query goes along.
    const forwardTo = owner?.route.redirectTo;
    if (forwardTo) return reply.header('cache-control', 'no-cache').redirect(forwardTo + queryOf(request.url), 302);
    const consent = consentChoiceOf(request.cookies[CONSENT_COOKIE]);
    const acceptedEncoding = chooseContentEncoding(request.headers['accept-encoding']);
    // What the page is rendered from and kept by: its path and the parameters it reads, never the raw URL.
    const pageAddress = `${urlPath}${pageQuery(request.url, owner?.route.query)}`;
    const key = `${identityOf(registry)} ${identityOf(template)} ${consent ?? 'unset'} ${acceptedEncoding ?? 'identity'} ${fastify.serverRender.buildsOf(registry)} ${pageAddress}`;
    // A signed-in visitor's account page is theirs alone: rendered with their session and answers.
    // A cookie that names no live session (ended, forged) gets the page every such visitor gets.
    const visitor =
      renderLimitMs > 0 && request.cookies[sessionCookie] !== undefined && owner?.route.layout === 'account'
        ? await inTime(request, 'the session', answerBudgetMs, fastify.signedInVisitor(request))
        : undefined;
    const session = visitor?.session;
    const kept = session ? undefined : answers.get(key);
    if (kept) return send(reply, kept);

    const owned = owner !== null;
    if (!owned && looksLikeFilePath(urlPath)) return reply.callNotFound();

    // A static page keeps the server's markup: the browser loads none of its remote's files for it.
    const preloads = owner && !owner.route.static ? await fastify.remoteRegistry.preloadsFor(owner.remote.name) : [];
    // `/faq/` and `/faq` are one page: the canonical URL has no trailing slash.
    const pageUrl = `${publicBaseUrl(fastify.config)}${urlPath.length > 1 ? urlPath.replace(/\/+$/, '') : urlPath}`;
    const bannerEnd = consent === null ? [COOKIE_BANNER_END_ID] : [];

    if (visitor && session && owner) {
      const phone = looksLikePhone(request);
      const sidebarCollapsed = request.cookies[SIDEBAR_COOKIE] === 'collapsed';
      // Only the visitor's account API, read from the plugins its routes read (plugins/app/pages/
      // account-answers.ts): a page is never rendered with anything else the bff answers.
      const fetchAnswer = (path: string) => {
        const asked = renderableAnswerPath(path);
        return asked === undefined ? Promise.resolve(undefined) : inTime(request, asked, answerBudgetMs, fastify.accountAnswers.answer(asked, visitor.user));
      };
      const outcome = await renders.run(() => fastify.serverRender.render(pageAddress, registry, fastify.publicConfig, consent, { session, phone, sidebarCollapsed, fetchAnswer }));
      const rendered = outcome === renders.BUSY ? undefined : (outcome as Awaited<ReturnType<typeof fastify.serverRender.render>>);
      if (rendered) {
        const pageState: PageState = { session, answers: rendered.answers ?? {}, phone, sidebarCollapsed };
        const paintAfter = [MAIN_CONTENT_ID, ...bannerEnd];
        const page = await fastify.shellPage.render({
          registry,
          publicConfig: fastify.publicConfig,
          route: owner.route,
          preloads,
          pageUrl,
          rootHtml: rendered.html,
          rootStyles: rendered.styles,
          paintAfter,
          pageState,
        });
        if (page === undefined) return notBuilt(reply);
        return send(reply, {
          status: 200,
          vary: 'accept-encoding, cookie',
          personal: true,
          openerPolicy: openerPolicyFor(owner.route.layout),
          ...sent(page, acceptedEncoding),
          serverTiming: serverTimingOf(rendered),
        });
      }
      // Not rendered (a failure, the time limit): the page every visitor without a session gets.
      const kept = answers.get(key);
      if (kept) return send(reply, kept);
    }
    // One render per key at a time: requests for a page being rendered wait for that render (a cold
    // start's 50 requests for / rendered it 50 times, issue 31).
    let pending = rendering.get(key);
    const first = pending === undefined;
    if (!pending) {
      pending = renderAnonymous({ registry, owner, preloads, pageUrl, pageAddress, consent, bannerEnd, acceptedEncoding, key });
      rendering.set(key, pending);
      pending.finally(() => rendering.delete(key)).catch(() => undefined);
    }
    const answer = await pending;
    if (answer === undefined) return notBuilt(reply);
    return send(reply, first ? answer : { ...answer, serverTiming: answer.serverTiming ? 'render;desc="shared"' : undefined });
  });

  /**
   * Public pages come with their content; checkout with its frame (the cart is in the browser's
   * storage: the page shows it loading until hydrated); the account area, without a live session,
   * with its loading state (one render serves every such visitor, cached like a public page's; the
   * browser then sends them to sign in). The cookie banner is in the first HTML unless the
   * visitor's cookie holds their choice. Kept under `key` when whole; undefined when the shell is not built.
   */
  async function renderAnonymous(page: {
    registry: Awaited<ReturnType<typeof fastify.remoteRegistry.current>>;
    owner: { remote: RegistryEntry; route: RemoteRoute } | null;
    preloads: Awaited<ReturnType<typeof fastify.remoteRegistry.preloadsFor>>;
    pageUrl: string;
    pageAddress: string;
    consent: ReturnType<typeof consentChoiceOf>;
    bannerEnd: string[];
    acceptedEncoding: ContentEncoding | undefined;
    key: string;
  }): Promise<PageAnswer | undefined> {
    const { registry, owner, consent } = page;
    const serverRendered = owner !== null;
    const outcome = serverRendered ? await renders.run(() => fastify.serverRender.render(page.pageAddress, registry, fastify.publicConfig, consent)) : undefined;
    const busy = outcome === renders.BUSY;
    const rendered = busy ? undefined : (outcome as Awaited<ReturnType<typeof fastify.serverRender.render>>);
    // The header is whole and the main content begun (an account page has neither before the
    // session is known), and the cookie banner when it shows, before the first paint.
    const paintAfter = [...(owner?.route.layout === 'account' ? [] : [MAIN_CONTENT_ID]), ...page.bannerEnd];
    const shellPage = await fastify.shellPage.render({
      registry,
      publicConfig: fastify.publicConfig,
      route: owner?.route,
      preloads: page.preloads,
      pageUrl: page.pageUrl,
      rootHtml: rendered?.html,
      rootStyles: rendered?.styles,
      paintAfter,
    });
    if (shellPage === undefined) return undefined;

    const answer: PageAnswer = {
      status: owner !== null ? 200 : 404,
      vary: rendered ? 'accept-encoding, cookie' : 'accept-encoding',
      openerPolicy: openerPolicyFor(owner?.route.layout),
      ...sent(shellPage, page.acceptedEncoding),
    };
    // A page the server could not render (in whole or in part, or too busy to) is rendered again for the next visitor.
    const complete = serverRendered ? rendered !== undefined && rendered.errors.length === 0 : true;
    if (complete) answers.set(page.key, { ...answer, serverTiming: rendered ? 'render;desc="cached"' : undefined });
    // What the server render cost (bench:web reads it; browsers show it in their network panel).
    if (rendered) answer.serverTiming = serverTimingOf(rendered);
    if (busy) answer.serverTiming = 'render;desc="busy"';
    return answer;
  }
};

/** A page as it goes out: its body, compressed when that is worth it, and its policy. */
function sent(page: RenderedShellPage, acceptedEncoding: ContentEncoding | undefined): Pick<PageAnswer, 'encoding' | 'policy' | 'body'> {
  const encoding = Buffer.byteLength(page.html) >= COMPRESSION_THRESHOLD_BYTES ? acceptedEncoding : undefined;
  return { encoding, policy: page.policy, body: encoding ? compress(page.html, encoding) : page.html };
}

const serverTimingOf = (rendered: { ms: number; cpuMs: number }) => `render;dur=${rendered.ms.toFixed(1)}, render-cpu;dur=${rendered.cpuMs.toFixed(1)}`;

function notBuilt(reply: FastifyReply) {
  return reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('The site is not built yet: run the build (pnpm build), then reload this page.\n');
}

function send(reply: FastifyReply, answer: PageAnswer) {
  reply
    .code(answer.status)
    .header('cache-control', answer.personal ? 'private, no-store' : 'no-cache')
    .header('vary', answer.vary)
    .header('content-security-policy', answer.policy)
    .type('text/html; charset=utf-8');
  if (answer.serverTiming) reply.header('server-timing', answer.serverTiming);
  if (answer.encoding) reply.header('content-encoding', answer.encoding);
  if (answer.openerPolicy) reply.header('cross-origin-opener-policy', answer.openerPolicy);
  return reply.send(answer.body);
}

export default pages;
