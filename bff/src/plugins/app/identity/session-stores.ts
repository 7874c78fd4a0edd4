import type { SessionStore } from '@fastify/session';
import type { Session } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { SESSION_ABSOLUTE_LIMIT_MS, SESSION_IDLE_LIMIT_MS } from '@bimi/contracts/auth';
import type { StoreDatabase } from '../../../db/schema';
import { isDatabaseUnavailable, ServiceUnavailableError, type UnavailableService } from '../../../lib/unavailable';
import { iso } from '../../../lib/iso';

declare module 'fastify' {
  interface Session {
    /**
     * Set (only) on the stand-in for a session whose store did not answer (unavailableSession):
     * which service was away. Such a session is never stored.
     */
    storeUnavailable?: UnavailableService;
  }
}

type Callback = (error?: unknown) => void;
type GetCallback = (error: unknown, session?: Session | null) => void;

/** When a stored session stops being usable: idle limit after its last use, capped by the absolute limit. */
export function sessionEndsAt(session: Pick<Session, 'createdAt' | 'lastSeenAt'>, now: number): number {
  const lastSeen = session.lastSeenAt ?? now;
  const created = session.createdAt ?? now;
  return Math.min(lastSeen + SESSION_IDLE_LIMIT_MS, created + SESSION_ABSOLUTE_LIMIT_MS);
}

/**
 * A stored session's data; what cannot be read is no session (and a new sign-in), rather than an
 * exception thrown inside the store's callback, where nothing would catch it.
 */
function readStoredSession(data: string | null | undefined): Session | null {
  if (!data) return null;
  try {
    return JSON.parse(data) as Session;
  } catch {
    return null;
  }
}

/**
 * What a store's `get` answers when the store itself does not answer (PostgreSQL or Redis away): a
 * stand-in under the same session id, marked, instead of an error (which @fastify/session turns
 * into a 500 on every route that has a session) or no session (which would make it replace the
 * browser's cookie with a new one, so the session could not come back with its store). The
 * request then counts as signed out (withSessions) and the cookie is left as it was.
 */
export function unavailableSession(service: UnavailableService): Session {
  return { storeUnavailable: service } as Session;
}

/** A stand-in of unavailableSession must never overwrite the real session once the store is back. */
function refuseStandIn(session: Session): Error | undefined {
  return session.storeUnavailable ? new Error('refused to store the stand-in of a session whose store did not answer') : undefined;
}

/** Redis failed (down, not answering in time): the session store is unavailable. */
const sessionsUnavailable = (error: unknown) => new ServiceUnavailableError('sessions', { cause: error });

/** Told each time a store could not read a session because it did not answer (the sessions plugin logs it). */
export type UnavailableReport = (error: unknown, service: UnavailableService) => void;

/** A session store that can also find and end every session of one user. */
export interface UserSessionStore extends SessionStore {
  /** Deletes every stored session of `userId`; answers how many there were. */
  destroyAllOf(userId: string): Promise<number>;
}

/** Sessions in the store's own database (the default): one row per session, JSON data, indexed by user. */
export class DatabaseSessionStore implements UserSessionStore {
  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly now: () => number,
    private readonly report: UnavailableReport = () => undefined,
  ) {}

  get(sid: string, callback: GetCallback): void {
    this.db
      .selectFrom('sessions')
      .select(['data', 'expires_at'])
      .where('sid', '=', sid)
      .executeTakeFirst()
      .then(
        (row) => callback(null, row && row.expires_at > iso(this.now()) ? readStoredSession(row.data) : null),
        (error: unknown) => {
          // PostgreSQL away: a stand-in (signed out); any other failure stays an error.
          if (!isDatabaseUnavailable(error)) return callback(error);
          this.report(error, 'database');
          callback(null, unavailableSession('database'));
        },
      );
  }

  set(sid: string, session: Session, callback: Callback): void {
    const refused = refuseStandIn(session);
    if (refused) return callback(refused);
    const now = this.now();
    const data = JSON.stringify(session);
    const expiresAt = iso(sessionEndsAt(session, now));
    const userId = session.userId ?? null;
    this.db
      .insertInto('sessions')
      .values({ sid, user_id: userId, data, expires_at: expiresAt })
      .onConflict((conflict) => conflict.column('sid').doUpdateSet({ user_id: userId, data, expires_at: expiresAt }))
      .execute()
      .then(() => callback(), callback);
  }

  destroy(sid: string, callback: Callback): void {
    this.db
      .deleteFrom('sessions')
      .where('sid', '=', sid)
      .execute()
      .then(() => callback(), callback);
  }

  async destroyAllOf(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Drops ended sessions; run now and then so the table does not grow without bound. */
  async purgeEnded(): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('expires_at', '<=', iso(this.now())).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/**
 * Sessions in Redis (REDIS_URL), shared by every bff replica; Redis drops each when it ends. Each
 * user has a sorted set of their session ids scored by when each ends, so ended ones are pruned
 * as new ones are added and the set stays as small as the user's live sessions.
 */
export class RedisSessionStore implements UserSessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly now: () => number,
    private readonly report: UnavailableReport = () => undefined,
  ) {}

  private key(sid: string): string {
    return `${this.prefix}session:${sid}`;
  }

  private userKey(userId: string): string {
    return `${this.prefix}user-sessions:${userId}`;
  }

  get(sid: string, callback: GetCallback): void {
    this.redis.get(this.key(sid)).then(
      (data) => callback(null, readStoredSession(data)),
      (error: unknown) => {
        this.report(error, 'sessions');
        callback(null, unavailableSession('sessions'));
      },
    );
  }

  set(sid: string, session: Session, callback: Callback): void {
    const refused = refuseStandIn(session);
    if (refused) return callback(refused);
    const now = this.now();
    const endsAt = sessionEndsAt(session, now);
    const ttl = Math.max(1, endsAt - now);
    const write = this.redis.multi().set(this.key(sid), JSON.stringify(session), 'PX', ttl);
    if (session.userId) {
      const userKey = this.userKey(session.userId);
      // No session outlives the absolute limit from now, so neither need the set.
      write.zadd(userKey, endsAt, sid).zremrangebyscore(userKey, '-inf', now).pexpire(userKey, SESSION_ABSOLUTE_LIMIT_MS);
    }
    write.exec().then(
      (results) => callback(results?.find(([error]) => error)?.[0] ?? undefined),
      (error: unknown) => callback(sessionsUnavailable(error)),
    );
  }

  destroy(sid: string, callback: Callback): void {
    // Its entry in the user's set goes when the set is next pruned or ended in full.
    this.redis.del(this.key(sid)).then(
      () => callback(),
      (error: unknown) => callback(sessionsUnavailable(error)),
    );
  }

  async destroyAllOf(userId: string): Promise<number> {
    const userKey = this.userKey(userId);
    let results: [Error | null, unknown][];
    try {
      const sids = await this.redis.zrange(userKey, 0, -1);
      if (sids.length === 0) return 0;
      results =
        (await this.redis
          .multi()
          .del(...sids.map((sid) => this.key(sid)))
          .zrem(userKey, ...sids)
          .exec()) ?? [];
    } catch (error) {
      throw sessionsUnavailable(error);
    }
    const failed = results.find(([error]) => error);
    if (failed) throw failed[0];
    return Number(results[0]?.[1] ?? 0);
  }
}
