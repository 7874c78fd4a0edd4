import type { SessionStore } from '@fastify/session';
import type { Session } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { SESSION_ABSOLUTE_LIMIT_MS, SESSION_IDLE_LIMIT_MS } from '@bimi/contracts/auth';
import type { StoreDatabase } from '../../db/schema';

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
  ) {}

  get(sid: string, callback: GetCallback): void {
    this.db
      .selectFrom('sessions')
      .select(['data', 'expires_at'])
      .where('sid', '=', sid)
      .executeTakeFirst()
      .then((row) => callback(null, row && row.expires_at > new Date(this.now()).toISOString() ? readStoredSession(row.data) : null), callback);
  }

  set(sid: string, session: Session, callback: Callback): void {
    const now = this.now();
    const data = JSON.stringify(session);
    const expiresAt = new Date(sessionEndsAt(session, now)).toISOString();
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
    const result = await this.db.deleteFrom('sessions').where('expires_at', '<=', new Date(this.now()).toISOString()).executeTakeFirst();
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
  ) {}

  private key(sid: string): string {
    return `${this.prefix}session:${sid}`;
  }

  private userKey(userId: string): string {
    return `${this.prefix}user-sessions:${userId}`;
  }

  get(sid: string, callback: GetCallback): void {
    this.redis.get(this.key(sid)).then((data) => callback(null, readStoredSession(data)), callback);
  }

  set(sid: string, session: Session, callback: Callback): void {
    const now = this.now();
    const endsAt = sessionEndsAt(session, now);
    const ttl = Math.max(1, endsAt - now);
    const write = this.redis.multi().set(this.key(sid), JSON.stringify(session), 'PX', ttl);
    if (session.userId) {
      const userKey = this.userKey(session.userId);
      // No session outlives the absolute limit from now, so neither need the set.
      write.zadd(userKey, endsAt, sid).zremrangebyscore(userKey, '-inf', now).pexpire(userKey, SESSION_ABSOLUTE_LIMIT_MS);
    }
    write.exec().then((results) => callback(results?.find(([error]) => error)?.[0] ?? undefined), callback);
  }

  destroy(sid: string, callback: Callback): void {
    // Its entry in the user's set goes when the set is next pruned or ended in full.
    this.redis.del(this.key(sid)).then(() => callback(), callback);
  }

  async destroyAllOf(userId: string): Promise<number> {
    const userKey = this.userKey(userId);
    const sids = await this.redis.zrange(userKey, 0, -1);
    if (sids.length === 0) return 0;
    const results =
      (await this.redis
        .multi()
        .del(...sids.map((sid) => this.key(sid)))
        .zrem(userKey, ...sids)
        .exec()) ?? [];
    const failed = results.find(([error]) => error);
    if (failed) throw failed[0];
    return Number(results[0]?.[1] ?? 0);
  }
}
