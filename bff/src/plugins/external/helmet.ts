import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import fp from 'fastify-plugin';
import type { RouteLayout } from '@bimi/contracts/registry';
import type { Config } from '../../config';

const TAG_MANAGER_ORIGIN = 'https://www.googletagmanager.com';
/** Where the tags a tag manager container usually holds (Google Analytics 4) send their hits. */
const TAG_MANAGER_CONNECT_ORIGINS = [TAG_MANAGER_ORIGIN, 'https://*.google-analytics.com', 'https://*.analytics.google.com'];

/**
 * The site's content security policy: its own origin, plus exactly the other origins the
 * configuration brings in (remotes hosted elsewhere, an external newsletter provider, the tag
 * manager).
 */
export function contentSecurityDirectives(config: Config): Record<string, string[]> {
  const remoteOrigins = [...new Set(config.remotes.flatMap(({ url }) => (url ? [new URL(url).origin] : [])))];
  const newsletterOrigins = config.newsletterUrl ? [new URL(config.newsletterUrl).origin] : [];
  const tagManager = config.tagManagerId !== undefined;

  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...remoteOrigins, ...newsletterOrigins, ...(tagManager ? [TAG_MANAGER_ORIGIN] : [])],
    'connect-src': ["'self'", ...remoteOrigins, ...(tagManager ? TAG_MANAGER_CONNECT_ORIGINS : [])],
    // Emotion injects <style> elements at run time.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'https:', ...remoteOrigins.filter((origin) => origin.startsWith('http:'))],
    'font-src': ["'self'", 'data:', ...remoteOrigins],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    'script-src-attr': ["'none'"],
  };
  // Outside production the site runs on http://localhost, where upgrading requests breaks every load.
  if (config.nodeEnv === 'production') directives['upgrade-insecure-requests'] = [];
  return directives;
}

/**
 * The pages that keep other windows out (Cross-Origin-Opener-Policy: same-origin): those that show
 * a visitor's account, sign them in or take their payment. An opener on another site then holds no
 * handle on them (no reading their frame count or where they went, no navigating them).
 *
 * Not every page: a document with this policy, reached from a page without it (nearly every other
 * site), is moved into a browsing context group, and on phones a renderer process, of its own
 * while it loads. On this machine Lighthouse's mobile run of the product page's document alone
 * (scripts blocked) went from TBT 6–67 ms, score 99–100, without headers to 294–641 ms, score
 * 83–94, with this one alone (docs/performance.md, "Changes and what they measured"). A marketing
 * page, a product or a free tool shows nothing of the visitor that another window could learn.
 */
const OPENER_ISOLATED_LAYOUTS: ReadonlySet<RouteLayout> = new Set(['account', 'auth', 'checkout']);

/** The Cross-Origin-Opener-Policy of a page in `layout` (no page: not found), or undefined for none. */
export function openerPolicyFor(layout: RouteLayout | undefined): 'same-origin' | undefined {
  return layout !== undefined && OPENER_ISOLATED_LAYOUTS.has(layout) ? 'same-origin' : undefined;
}

/**
 * The headers a helmet middleware sets. With this configuration every one of them is the same for
 * every response (no per-request policy: no nonce, no function directive), so helmet runs once; a
 * page of the shell has its own content security policy, made once per template (`pagePolicy`).
 */
function headersOf(middleware: ReturnType<typeof helmet> | ReturnType<typeof helmet.contentSecurityPolicy>): [string, string][] {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  let failure: unknown;
  middleware({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return [...headers];
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The content security policy of a page of the shell whose template runs inline scripts:
     * the site's policy with each script's hash (`'sha256-…'`) allowed in script-src.
     */
    pagePolicy(scriptHashes: readonly string[]): string;
  }
}

/** The Content-Security-Policy header among helmet's headers. */
function policyOf(headers: [string, string][]): string {
  const policy = headers.find(([name]) => name.toLowerCase() === 'content-security-policy')?.[1];
  if (policy === undefined) throw new Error('helmet set no Content-Security-Policy header');
  return policy;
}

/**
 * helmet's headers on every response, computed once at start: building them per request (as
 * @fastify/helmet does, options and policy parsed each time) cost about a tenth of a health
 * check's CPU, and running helmet's middlewares per request a few per cent more.
 */
export default fp(
  async function securityHeaders(fastify) {
    const production = fastify.config.nodeEnv === 'production';
    const directives = contentSecurityDirectives(fastify.config);
    const headers = headersOf(
      helmet({
        contentSecurityPolicy: { useDefaults: false, directives },
        // Remote entries and chunks may come from another origin; /mfe/* also says so per response.
        crossOriginEmbedderPolicy: false,
        // Per page, by its layout (openerPolicyFor): the pages' route sets it.
        crossOriginOpenerPolicy: false,
        // Chromium keys agent clusters by origin without it (document.domain does nothing); the
        // header only asks for a process of the origin's own, which a visitor's first page then
        // waits for as it loads (the same cost as the opener policy's above, in Lighthouse's runs).
        originAgentCluster: false,
        // helmet's no-referrer would make the browser send `Origin: null` on the site's own POSTs
        // (Fetch's origin serialization follows the referrer policy), which the CSRF check refuses
        // as foreign; same-origin keeps the real Origin there and still tells other sites nothing.
        referrerPolicy: { policy: 'same-origin' },
        // HSTS only where the site is served over https; helmet's default otherwise.
        ...(production ? {} : { strictTransportSecurity: false }),
      }),
    );
    fastify.addHook('onRequest', (_request, reply, done) => {
      for (const [name, value] of headers) reply.raw.setHeader(name, value);
      done();
    });

    const sitePolicy = policyOf(headers);
    fastify.decorate('pagePolicy', (scriptHashes: readonly string[]) => {
      if (scriptHashes.length === 0) return sitePolicy;
      const withHashes = { ...directives, 'script-src': [...(directives['script-src'] ?? []), ...scriptHashes] };
      return policyOf(headersOf(helmet.contentSecurityPolicy({ useDefaults: false, directives: withHashes })));
    });
  },
  { name: 'security-headers', decorators: { fastify: ['config'] } },
);
