import { createHash, randomBytes } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { sameSecret } from './tokens';

/**
 * NextAuth's double-submit CSRF token: the cookie holds `token|sha256(token + secret)`, the form
 * (or our X-CSRF-Token header) repeats the token. A token is good when the cookie's hash proves the
 * server made it and the submitted copy matches.
 */
/** What a write without a good token hears (403), from /api/account/* and our JSON auth endpoints alike. */
export const CSRF_REFUSED = 'Missing or invalid CSRF token: fetch /api/auth/csrf and send it in the X-CSRF-Token header';

export function csrfCookieName(production: boolean): string {
  return production ? '__Host-next-auth.csrf-token' : 'next-auth.csrf-token';
}

function csrfHash(token: string, secret: string): string {
  return createHash('sha256').update(`${token}${secret}`).digest('hex');
}

export function newCsrfCookieValue(secret: string): { token: string; cookieValue: string } {
  const token = randomBytes(32).toString('hex');
  return { token, cookieValue: `${token}|${csrfHash(token, secret)}` };
}

/** The token of a cookie value this server made, else undefined. */
export function tokenFromCsrfCookie(cookieValue: string | undefined, secret: string): string | undefined {
  if (!cookieValue) return undefined;
  const [token, hash] = cookieValue.split('|');
  if (!token || !hash) return undefined;
  return sameSecret(hash, csrfHash(token, secret)) ? token : undefined;
}

export function isValidCsrf(cookieValue: string | undefined, submitted: unknown, secret: string): boolean {
  const token = tokenFromCsrfCookie(cookieValue, secret);
  return token !== undefined && typeof submitted === 'string' && sameSecret(token, submitted);
}

/**
 * How a state-changing route (POST, PUT, PATCH, DELETE) is protected, set in its route options as
 * `config: { csrf: … }` and enforced by the sessions plugin on the route Fastify matched:
 *
 * - `'header'` (the default, so a new route is safe without thinking about it): a same-site Origin
 *   (or Referer) when the browser sends one, and the CSRF token in the X-CSRF-Token header;
 * - `'form'`: a same-site Origin; the handler itself checks the token in the url-encoded body
 *   (NextAuth's sign-in and sign-out forms, which answer in NextAuth's own shape);
 * - `'origin'`: a same-site Origin only, for anonymous endpoints whose browser calls carry no token
 *   (beacons, the contact form, quotes) and which no session makes more powerful;
 * - `false`: neither, for routes that authenticate the caller otherwise, such as a payment
 *   provider's webhook verified by its signature. Every such route is logged at start.
 */
export type CsrfPolicy = 'header' | 'form' | 'origin' | false;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** See CsrfPolicy in src/lib/csrf.ts; unset means `'header'`. */
    csrf?: CsrfPolicy;
  }
}

/** What a state-changing request from another site hears (403). */
export const FOREIGN_ORIGIN_REFUSED = 'Cross-site request refused: this request came from another site (its Origin or Referer header is not this site)';

/** The origin of an absolute URL (`https://example.com:8443`), or undefined for anything else, `null` included. */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a request says it comes from, against the site's own origin: `'same'`, `'foreign'` (an
 * opaque `null` Origin and an unparsable one count as foreign), or `'unknown'` when it carries
 * neither Origin nor Referer, as a non-browser client does.
 */
export function requestSite(headers: { origin?: string | string[]; referer?: string | string[] }, siteOrigin: string | undefined): 'same' | 'foreign' | 'unknown' {
  const origin = Array.isArray(headers.origin) ? headers.origin[0] : headers.origin;
  const referer = Array.isArray(headers.referer) ? headers.referer[0] : headers.referer;
  const claimed = origin ?? referer;
  if (claimed === undefined || claimed === '') return 'unknown';
  const claimedOrigin = originOf(claimed);
  return claimedOrigin !== undefined && claimedOrigin === siteOrigin ? 'same' : 'foreign';
}

/**
 * Registers a route plugin whose write routes are anonymous endpoints that browsers call without a
 * CSRF token (beacons, the contact form, quotes, the VMC validator): they default to `'origin'`,
 * so another site still cannot post to them, and a route inside may still say otherwise.
 */
export function anonymousWrites<Options extends Record<string, unknown>>(plugin: FastifyPluginAsync<Options>): FastifyPluginAsync<Options> {
  return async (instance, options) => {
    instance.addHook('onRoute', (route) => {
      route.config = { ...route.config, csrf: route.config?.csrf ?? 'origin' };
    });
    // The prefix was applied to this wrapper already; the rest of the options are the plugin's.
    const { prefix: _prefix, ...pluginOptions } = options as Options & { prefix?: string };
    await instance.register(plugin, pluginOptions as Options);
  };
}
