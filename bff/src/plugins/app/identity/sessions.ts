import { randomBytes } from 'node:crypto';
import { Signer } from '@fastify/cookie';
import formBody from '@fastify/formbody';
import fastifySession, { type FastifySessionOptions } from '@fastify/session';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, RouteOptions, Session } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { ACCOUNT_BASE_PATH } from '@bimi/contracts/api-paths';
import { CSRF_HEADER, SESSION_ABSOLUTE_LIMIT_MS, SESSION_IDLE_LIMIT_MS } from '@bimi/contracts/auth';
import type { PageState } from '@bimi/contracts/page-state';
import { CSRF_REFUSED, csrfCookieName, FOREIGN_ORIGIN_REFUSED, isValidCsrf, requestSite, type CsrfPolicy } from '../../../lib/csrf';
import { logRedisConnection, REDIS_CLIENT_OPTIONS } from '../../../lib/redis-client';
import { ServiceUnavailableError } from '../../../lib/unavailable';
import { iso } from '../../../lib/iso';
import { DatabaseSessionStore, RedisSessionStore, sessionEndsAt, type UnavailableReport, type UserSessionStore } from './session-stores';

declare module 'fastify' {
  interface Session {
    userId?: string;
    /** Epoch ms, by the bff's clock. */
    createdAt?: number;
    lastSeenAt?: number;
  }
  interface FastifyInstance {
    /** Signs the CSRF cookie (the session cookie too). */
    sessionSecret: string;
    /** The Redis client when REDIS_URL is set. */
    redis: Redis | null;
    /** Starts a signed-in session for `userId` under a new session id (no fixation). */
    startSession(request: FastifyRequest, userId: string): Promise<void>;
    endSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * Ends every session of `userId` (after a password or email change): with `keepCurrent`, the
     * request's own session, if it is that user's, lives on under a new id; otherwise it ends too.
     * Call it after the change is stored, and with `users.sessions_valid_from` set by the change.
     */
    endSessionsOf(request: FastifyRequest, reply: FastifyReply, userId: string, options: { keepCurrent: boolean }): Promise<void>;
    isValidCsrfRequest(request: FastifyRequest, submitted: unknown): boolean;
    /**
     * The signed-in visitor of a request outside the session's routes (a page being rendered, which
     * builds no session): their user and their session as GET /api/auth/session answers it, or
     * undefined without a live one. The same cookie, store and limits as withSessions; the session
     * counts as used (its idle limit starts again), and one that ended is removed.
     */
    signedInVisitor(request: FastifyRequest): Promise<SignedInVisitor | undefined>;
  }
  interface FastifyRequest {
    /** The signed-in user, loaded for a request to the session's routes (withSessions) that has a live session; null otherwise. */
    sessionUser: SessionUser | null;
  }
}

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

export interface SignedInVisitor {
  user: SessionUser;
  session: PageState['session'];
}

/** A live session as GET /api/auth/session answers it (and a signed-in page carries it). */
export function sessionAnswer(user: SessionUser, session: Pick<Session, 'createdAt' | 'lastSeenAt'>, at: number): PageState['session'] {
  return { user: { name: user.name, email: user.email, image: null }, expires: iso(sessionEndsAt(session, at)) };
}

/**
 * The user of a stored session at `at`, or undefined when it has ended: past its idle or absolute
 * limit, its user gone, or begun before a password or email change voided the user's sessions
 * (even if a request in flight during the change wrote it back to the store).
 */
async function liveUser(fastify: FastifyInstance, session: Pick<Session, 'userId' | 'createdAt' | 'lastSeenAt'>, at: number): Promise<SessionUser | undefined> {
  if (!session.userId) return undefined;
  const ended = at - (session.lastSeenAt ?? 0) >= SESSION_IDLE_LIMIT_MS || at - (session.createdAt ?? 0) >= SESSION_ABSOLUTE_LIMIT_MS;
  const user = ended ? undefined : await fastify.users.sessionUser(session.userId);
  const voided = user?.sessionsValidFrom != null && (session.createdAt ?? 0) < Date.parse(user.sessionsValidFrom);
  return user && !voided ? { id: user.id, email: user.email, name: user.name } : undefined;
}

export const SESSION_COOKIE = 'bimi.session';
/**
 * The session cookie's name in production: the `__Host-` prefix makes the browser refuse it unless
 * it is Secure, has Path=/ and no Domain, so neither plain http nor a sibling subdomain can plant
 * or overwrite a session cookie on the site.
 */
export const PRODUCTION_SESSION_COOKIE = '__Host-bimi.session';
export const sessionCookieName = (production: boolean) => (production ? PRODUCTION_SESSION_COOKIE : SESSION_COOKIE);
/** What a call to /api/account/* without a live session hears (401). */
export const SIGN_IN_REQUIRED = 'Sign in to continue';
/** Logged (and answered as a 500) when a sign-in arrives over plain http in production. */
export const SIGN_IN_NEEDS_HTTPS =
  'sign-in over plain http with NODE_ENV=production: the Secure session cookie cannot be set. Serve the bff behind a TLS-terminating proxy that sends X-Forwarded-Proto: https and set TRUST_PROXY to that proxy';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const CSRF_POLICIES: readonly unknown[] = ['header', 'form', 'origin', false];

/** A state-changing route and how it is protected (see CsrfPolicy). */
export interface WriteRoute {
  method: string;
  url: string;
  csrf: CsrfPolicy;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every POST, PUT, PATCH and DELETE route, as registered, with its CSRF policy. */
    writeRoutes: readonly WriteRoute[];
  }
}

/** The decoded path of a URL without its query, or undefined when it does not decode. */
function decodedPath(url: string): string | undefined {
  try {
    return decodeURIComponent(url.split('?', 1)[0] ?? '');
  } catch {
    return undefined;
  }
}

/**
 * The path a request is judged by: the route Fastify matched (`/api/account/profile` also for
 * `/api/%61ccount/profile`, which the router decodes), or, when none or only a wildcard matched,
 * the decoded path. Never the raw URL, which a percent-encoding makes say anything.
 */
function judgedPath(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  // A wildcard route (the pages' `*`) says nothing about the path it matched.
  if (route !== undefined && !route.includes('*')) return route;
  return decodedPath(request.url) ?? request.url;
}

const isUnder = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * Server sessions (spec §4 and issue 4): the store in the database, or in Redis when REDIS_URL is
 * set, for @fastify/session on the routes registered with withSessions (below), which enforces a
 * 2-hour idle limit and an absolute limit whatever the client does and refuses every
 * /api/account/* call without a session; and every state-changing request, on any route, checked
 * on the route it matched: refused from another site's Origin, and without the CSRF token unless
 * its route says otherwise (CsrfPolicy in src/lib/csrf.ts).
 */
export default fp(
  async function sessions(fastify) {
    const { config, now } = fastify;
    const production = config.nodeEnv === 'production';

    let secret = config.sessionSecret;
    if (!secret) {
      secret = randomBytes(48).toString('base64url');
      fastify.log.warn('SESSION_SECRET not set: using a random secret, so sessions and CSRF tokens end when the bff restarts');
    }
    fastify.decorate('sessionSecret', secret);

    let redis: Redis | null = null;
    if (config.redisUrl) {
      redis = new Redis(config.redisUrl, REDIS_CLIENT_OPTIONS);
      logRedisConnection(redis, fastify.log, 'sessions');
      // Fail at start, with the reason, rather than on the first sign-in.
      await redis.connect().catch((error: unknown) => {
        redis?.disconnect();
        throw new Error(`REDIS_URL ${new URL(config.redisUrl ?? '').host} unreachable: ${error instanceof Error ? error.message : String(error)}`);
      });
      fastify.addHook('onClose', async () => {
        // Refused while Redis is down (no offline queue): then the connection just ends.
        await redis?.quit().catch(() => redis?.disconnect());
      });
    }
    fastify.decorate('redis', redis);

    // A session the store could not read counts as signed out (withSessions); logged at most every 10 s.
    let lastReport = -Infinity;
    const reportUnavailable: UnavailableReport = (error, service) => {
      if (Date.now() - lastReport < 10_000) return;
      lastReport = Date.now();
      fastify.log.warn({ err: error }, `sessions could not be read (${service === 'database' ? 'the database' : 'Redis'} does not answer): requests count as signed out`);
    };
    const databaseStore = new DatabaseSessionStore(fastify.db, now, reportUnavailable);
    const store: UserSessionStore = redis ? new RedisSessionStore(redis, config.redisKeyPrefix, now, reportUnavailable) : databaseStore;

    // Every write route registered after this plugin, with its policy. Read when the app is ready:
    // an onRoute hook of a plugin further in (anonymousWrites) may still set the policy.
    const registered: RouteOptions[] = [];
    const writeRoutes: WriteRoute[] = [];
    fastify.decorate('writeRoutes', writeRoutes);
    fastify.addHook('onRoute', (route) => {
      if ([route.method].flat().some((method) => !SAFE_METHODS.has(method))) registered.push(route);
    });
    fastify.addHook('onReady', async () => {
      for (const route of registered) {
        const csrf = route.config?.csrf ?? 'header';
        if (!CSRF_POLICIES.includes(csrf)) throw new Error(`route ${route.url}: config.csrf must be 'header', 'form', 'origin' or false`);
        for (const method of [route.method].flat()) if (!SAFE_METHODS.has(method)) writeRoutes.push({ method, url: route.url, csrf });
      }
      const unchecked = writeRoutes.filter((route) => route.csrf === false).map((route) => `${route.method} ${route.url}`);
      if (unchecked.length > 0) fastify.log.info(`routes without the CSRF and Origin checks (they authenticate their callers otherwise): ${unchecked.join(', ')}`);
    });

    const cookieName = sessionCookieName(production);
    // Path=/ (the __Host- prefix requires it in production): page requests carry it too, and the bff
    // renders a signed-in visitor's account page with their session (routes/pages.ts).
    const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax', secure: production } as const;

    // NextAuth's client posts its forms url-encoded.
    await fastify.register(formBody, { bodyLimit: 16_384 });
    // One signer for @fastify/session and signedInVisitor: the session cookie is read alike by both.
    const signer = new Signer(secret);
    fastify.decorate('sessionSettings', {
      secret: signer,
      store,
      cookieName,
      cookie: { ...cookieOptions, maxAge: SESSION_ABSOLUTE_LIMIT_MS },
      saveUninitialized: false,
      rolling: false,
    });

    fastify.decorateRequest('sessionUser', null);

    const publicOrigin = config.publicUrl ? new URL(config.publicUrl).origin : undefined;
    /** PUBLIC_URL's origin, else the one the request was addressed to (behind a trusted proxy, as the proxy says). */
    const siteOrigin = (request: FastifyRequest) => {
      if (publicOrigin) return publicOrigin;
      try {
        return new URL(`${request.protocol}://${request.host}`).origin;
      } catch {
        return undefined;
      }
    };

    // On every route, not only /api: a state-changing route anywhere gets the same checks.
    fastify.addHook('onRequest', async (request, reply) => {
      if (SAFE_METHODS.has(request.method) || request.routeOptions.url === undefined) return;
      const policy = request.routeOptions.config.csrf;
      if (policy === false) return;
      if (requestSite(request.headers, siteOrigin(request)) === 'foreign') {
        request.log.info({ origin: request.headers.origin, referer: request.headers.referer }, 'cross-site write refused');
        return reply.code(403).send({ message: FOREIGN_ORIGIN_REFUSED });
      }
      // Anything but the two token-free policies needs the header, a misspelt policy included.
      if (policy !== 'form' && policy !== 'origin' && !fastify.isValidCsrfRequest(request, request.headers[CSRF_HEADER])) {
        return reply.code(403).send({ message: CSRF_REFUSED });
      }
    });

    fastify.decorate('isValidCsrfRequest', (request: FastifyRequest, submitted: unknown) => isValidCsrf(request.cookies[csrfCookieName(config.nodeEnv === 'production')], submitted, secret));

    fastify.decorate('startSession', async (request: FastifyRequest, userId: string) => {
      // @fastify/session drops a Secure cookie on a plain http request without a word: say so
      // instead of answering "signed in" with no session.
      if (production && request.protocol !== 'https') throw new Error(SIGN_IN_NEEDS_HTTPS);
      await request.session.regenerate();
      const at = now();
      request.session.userId = userId;
      request.session.createdAt = at;
      request.session.lastSeenAt = at;
      if (store === databaseStore) await databaseStore.purgeEnded();
    });

    const storeCall = <T>(call: (done: (error?: unknown, value?: T) => void) => void) =>
      new Promise<T | undefined>((resolve, reject) => call((error, value) => (error ? reject(error) : resolve(value))));
    fastify.decorate('signedInVisitor', async (request: FastifyRequest) => {
      const cookie = request.cookies[cookieName];
      const unsigned = cookie ? signer.unsign(cookie) : undefined;
      if (!unsigned?.valid || !unsigned.value) return undefined;
      const sid = unsigned.value;
      const stored = await storeCall<Session | null>((done) => store.get(sid, done));
      // No such session, or its store does not answer (a stand-in): signed out, as on the session's routes.
      if (!stored || stored.storeUnavailable || !stored.userId) return undefined;
      const at = now();
      const user = await liveUser(fastify, stored, at);
      if (!user) {
        await storeCall((done) => store.destroy(sid, done));
        return undefined;
      }
      stored.lastSeenAt = at;
      await storeCall((done) => store.set(sid, stored, done));
      return { user, session: sessionAnswer(user, stored, at) };
    });

    fastify.decorate('endSessionsOf', async (request: FastifyRequest, reply: FastifyReply, userId: string, { keepCurrent }: { keepCurrent: boolean }) => {
      const own = request.session?.userId === userId;
      // The kept session is regenerated first: its new id is stored without a user until the
      // answer is sent, so the deletion below cannot take it.
      if (own && keepCurrent) await fastify.startSession(request, userId);
      const ended = await store.destroyAllOf(userId);
      if (own && !keepCurrent) await fastify.endSession(request, reply);
      request.log.info({ userId, ended, keptCurrent: own && keepCurrent }, 'ended the sessions of a user');
    });

    fastify.decorate('endSession', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.session?.storeUnavailable) {
        // The store does not answer: the browser forgets the cookie all the same, and the stored
        // session, which nobody else holds the cookie of, ends at its idle limit.
        request.log.warn('signed out while the session store does not answer: the cookie is cleared, the stored session ends at its idle limit');
      } else if (request.session && typeof request.session.destroy === 'function') await request.session.destroy();
      // The same attributes as the cookie: a browser ignores a __Host- cookie without Secure and Path=/.
      reply.clearCookie(cookieName, cookieOptions);
    });
  },
  { name: 'sessions', dependencies: ['db', 'clock', 'users', 'cookie'], decorators: { fastify: ['config', 'db'] } },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** @fastify/session's options, for the routes registered with withSessions. */
    sessionSettings: FastifySessionOptions;
  }
}

/**
 * The routes that use the session (auth, the account, payments), registered with it: the session is
 * looked up, its idle and absolute limits enforced and its user loaded only for them, and every
 * /api/account/* call without a live session is refused (401). Other routes (the site's pages, the
 * tools, the cart quote, health) never build a session: @fastify/session made one, and signed its
 * id, on every request (issue 16's profile of /api/health). The CSRF and Origin checks stay on
 * every route (the sessions plugin).
 */
export function withSessions(routes: FastifyPluginAsync): FastifyPluginAsync {
  return async function sessionRoutes(scope) {
    // Before @fastify/session's own onSend hook, which stores a changed session: a failed answer
    // (5xx) stores no change of it, and a store that did not answer is not asked again on the way
    // out. When storing failed there, the error handler's answer ran the same hook, failed again,
    // and Fastify 5.12 then left the request unanswered for good (its last-resort error handler is
    // called without its callback).
    scope.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode >= 500) request.session = null as unknown as typeof request.session;
      return payload;
    });
    await scope.register(fastifySession, scope.sessionSettings);
    scope.addHook('onRequest', async (request, reply) => {
      const session = request.session;
      // Its store did not answer (a stand-in, session-stores.ts): signed out, and the account says why.
      const unavailable = session?.storeUnavailable;
      if (unavailable) {
        if (isUnder(judgedPath(request), ACCOUNT_BASE_PATH)) throw new ServiceUnavailableError(unavailable);
        return;
      }
      if (session && typeof session.get === 'function' && session.userId) {
        const at = scope.now();
        const user = await liveUser(scope, session, at);
        if (user) {
          session.lastSeenAt = at;
          request.sessionUser = user;
        } else {
          await scope.endSession(request, reply);
        }
      }
      if (isUnder(judgedPath(request), ACCOUNT_BASE_PATH) && !request.sessionUser) return reply.code(401).send({ message: SIGN_IN_REQUIRED });
    });
    await scope.register(routes);
  };
}
