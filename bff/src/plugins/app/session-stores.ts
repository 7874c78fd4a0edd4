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

/** Sessions in the store's own database (the default): one row per session, JSON data. */
export class DatabaseSessionStore implements SessionStore {
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
      .then((row) => callback(null, row && row.expires_at > new Date(this.now()).toISOString() ? (JSON.parse(row.data) as Session) : null), callback);
  }

  set(sid: string, session: Session, callback: Callback): void {
    const now = this.now();
    const data = JSON.stringify(session);
    const expiresAt = new Date(sessionEndsAt(session, now)).toISOString();
    this.db
      .insertInto('sessions')
      .values({ sid, data, expires_at: expiresAt })
      .onConflict((conflict) => conflict.column('sid').doUpdateSet({ data, expires_at: expiresAt }))
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

  /** Drops ended sessions; run now and then so the table does not grow without bound. */
  async purgeEnded(): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('expires_at', '<=', new Date(this.now()).toISOString()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** Sessions in Redis (REDIS_URL), shared by every bff replica; Redis drops each when it ends. */
export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly now: () => number,
  ) {}

  private key(sid: string): string {
    return `${this.prefix}session:${sid}`;
  }

  get(sid: string, callback: GetCallback): void {
    this.redis.get(this.key(sid)).then((data) => callback(null, data ? (JSON.parse(data) as Session) : null), callback);
  }

  set(sid: string, session: Session, callback: Callback): void {
    const ttl = Math.max(1, sessionEndsAt(session, this.now()) - this.now());
    this.redis.set(this.key(sid), JSON.stringify(session), 'PX', ttl).then(() => callback(), callback);
  }

  destroy(sid: string, callback: Callback): void {
    this.redis.del(this.key(sid)).then(() => callback(), callback);
  }
}
