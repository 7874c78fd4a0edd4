import { randomBytes } from 'node:crypto';
import formBody from '@fastify/formbody';
import fastifySession from '@fastify/session';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { CSRF_HEADER, SESSION_ABSOLUTE_LIMIT_MS, SESSION_IDLE_LIMIT_MS } from '@bimi/contracts/auth';
import { CSRF_REFUSED, csrfCookieName, isValidCsrf } from '../../lib/csrf';
import { DatabaseSessionStore, RedisSessionStore, type UserSessionStore } from './session-stores';

declare module 'fastify' {
  interface Session {
    userId?: string;
    /** Epoch ms, by the bff's clock. */
    createdAt?: number;
    lastSeenAt?: number;
  }
  interface FastifyInstance {
    /** The bff's clock (epoch ms); tests move it to check expiry. */
    now: () => number;
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
  }
  interface FastifyRequest {
    /** The signed-in user, loaded for every /api request that has a live session; null otherwise. */
    sessionUser: { id: string; email: string; name: string } | null;
  }
}

export const SESSION_COOKIE = 'bimi.session';
/** What a call to /api/account/* without a live session hears (401). */
export const SIGN_IN_REQUIRED = 'Sign in to continue';
const API_PREFIX = '/api/';
const ACCOUNT_PREFIX = '/api/account/';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SessionsOptions {
  now?: () => number;
}

/**
 * Server sessions (spec §4 and issue 4): @fastify/session with the store in the database, or in
 * Redis when REDIS_URL is set; a 2-hour idle limit and an absolute limit enforced here by the
 * server whatever the client does; every /api/account/* call refused without a session, and its
 * writes without the CSRF header.
 */
export default fp(
  async function sessions(fastify, options: SessionsOptions) {
    const { config } = fastify;
    const now = options.now ?? (() => Date.now());
    fastify.decorate('now', now);

    let secret = config.sessionSecret;
    if (!secret) {
      secret = randomBytes(48).toString('base64url');
      fastify.log.warn('SESSION_SECRET not set: using a random secret, so sessions and CSRF tokens end when the bff restarts');
    }
    fastify.decorate('sessionSecret', secret);

    let redis: Redis | null = null;
    if (config.redisUrl) {
      redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
      // Fail at start, with the reason, rather than on the first sign-in.
      await redis.connect().catch((error: unknown) => {
        redis?.disconnect();
        throw new Error(`REDIS_URL ${new URL(config.redisUrl ?? '').host} unreachable: ${error instanceof Error ? error.message : String(error)}`);
      });
      fastify.addHook('onClose', async () => {
        await redis?.quit();
      });
    }
    fastify.decorate('redis', redis);

    const databaseStore = new DatabaseSessionStore(fastify.db, now);
    const store: UserSessionStore = redis ? new RedisSessionStore(redis, config.redisKeyPrefix, now) : databaseStore;

    // NextAuth's client posts its forms url-encoded.
    await fastify.register(formBody, { bodyLimit: 16_384 });
    await fastify.register(fastifySession, {
      secret,
      store,
      cookieName: SESSION_COOKIE,
      // Only API calls need the session: pages and assets never carry it or look it up.
      cookie: {
        path: '/api',
        httpOnly: true,
        sameSite: 'lax',
        secure: config.nodeEnv === 'production',
        maxAge: SESSION_ABSOLUTE_LIMIT_MS,
      },
      saveUninitialized: false,
      rolling: false,
    });

    fastify.decorateRequest('sessionUser', null);

    fastify.addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith(API_PREFIX)) return;
      const session = request.session;
      if (session && typeof session.get === 'function' && session.userId) {
        const at = now();
        const ended =
          at - (session.lastSeenAt ?? 0) >= SESSION_IDLE_LIMIT_MS || at - (session.createdAt ?? 0) >= SESSION_ABSOLUTE_LIMIT_MS;
        const user = ended
          ? undefined
          : await fastify.db.selectFrom('users').select(['id', 'email', 'name', 'sessions_valid_from']).where('id', '=', session.userId).executeTakeFirst();
        // A session from before a password or email change is void even if a request in flight
        // during the change wrote it back to the store.
        const voided = user?.sessions_valid_from != null && (session.createdAt ?? 0) < Date.parse(user.sessions_valid_from);
        if (user && !voided) {
          session.lastSeenAt = at;
          request.sessionUser = { id: user.id, email: user.email, name: user.name };
        } else {
          await fastify.endSession(request, reply);
        }
      }

      if (request.url.startsWith(ACCOUNT_PREFIX) || request.url === '/api/account') {
        if (!request.sessionUser) return reply.code(401).send({ message: SIGN_IN_REQUIRED });
        if (!SAFE_METHODS.has(request.method) && !fastify.isValidCsrfRequest(request, request.headers[CSRF_HEADER])) {
          return reply.code(403).send({ message: CSRF_REFUSED });
        }
      }
    });

    fastify.decorate('isValidCsrfRequest', (request: FastifyRequest, submitted: unknown) =>
      isValidCsrf(request.cookies[csrfCookieName(config.nodeEnv === 'production')], submitted, secret),
    );

    fastify.decorate('startSession', async (request: FastifyRequest, userId: string) => {
      await request.session.regenerate();
      const at = now();
      request.session.userId = userId;
      request.session.createdAt = at;
      request.session.lastSeenAt = at;
      if (store === databaseStore) await databaseStore.purgeEnded();
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
      if (request.session && typeof request.session.destroy === 'function') await request.session.destroy();
      reply.clearCookie(SESSION_COOKIE, { path: '/api' });
    });
  },
  { name: 'sessions', dependencies: ['db', 'cookie'], decorators: { fastify: ['config', 'db'] } },
);

