import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config';

/**
 * The largest request body a route takes unless it says otherwise (Fastify's own default is 1 MiB):
 * every form and call of the API fits in it; the checkout, certificate details, the VMC upload and
 * the beacons set their own. A body is read whole before a route can refuse it, even one that
 * fails its CSRF check or matches no route.
 */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/**
 * The HTTP server's timeouts, body limit and proxy trust, from the configuration (docs/security.md).
 *
 * - `requestTimeout`: the whole request, headers and body, must arrive within it, else 408 and the
 *   connection closes (a body trickled a byte at a time would otherwise hold a socket forever).
 * - Node's `headersTimeout`: the same for the headers alone (slowloris).
 * - `keepAliveTimeout`: how long an idle kept-alive connection waits for its next request; longer
 *   than a load balancer's idle timeout (60 s on most), so the balancer closes first.
 * - `connectionTimeout`: a socket with no traffic either way for this long is closed (a client
 *   that stops reading its answer).
 * Node checks the first two every `connectionsCheckingInterval` (30 s by default, so a limit could
 * be overrun by 30 s): here a quarter of the shorter limit, between 100 ms and 5 s.
 */
export function serverOptions(config: Config): Pick<FastifyServerOptions, 'trustProxy' | 'requestTimeout' | 'connectionTimeout' | 'keepAliveTimeout' | 'bodyLimit'> & {
  http: { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number };
} {
  const { requestMs, headersMs, keepAliveMs, idleMs } = config.timeouts;
  const connectionsCheckingInterval = Math.min(5000, Math.max(100, Math.floor(Math.min(requestMs, headersMs) / 4)));
  return {
    trustProxy: config.trustProxy,
    requestTimeout: requestMs,
    connectionTimeout: idleMs,
    keepAliveTimeout: keepAliveMs,
    bodyLimit: DEFAULT_BODY_LIMIT,
    http: { headersTimeout: headersMs, requestTimeout: requestMs, connectionsCheckingInterval },
  };
}

/**
 * Why the bff must not start as configured, or undefined. With NODE_ENV=production the session
 * cookie is Secure, and the bff serves plain http: without a trusted TLS-terminating proxy saying
 * the visitor came over https, @fastify/session never sets the cookie and every sign-in silently
 * fails. The bff does not terminate TLS itself, so production needs TRUST_PROXY.
 */
export function startRefusal(config: Config): string | undefined {
  if (config.nodeEnv !== 'production' || config.trustProxy !== false) return undefined;
  return (
    'TRUST_PROXY is not set, and NODE_ENV is production: the session cookie is Secure and the bff serves plain http, ' +
    'so no sign-in could ever set it. Run the bff behind a TLS-terminating proxy that sends X-Forwarded-Proto: https, ' +
    'and set TRUST_PROXY to that proxy (its addresses or CIDRs, or true)'
  );
}
