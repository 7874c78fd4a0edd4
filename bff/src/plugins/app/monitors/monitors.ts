import { CERTIFICATE_EXPIRING_WITHIN_DAYS, MonitorIssue, type MonitorListItem, type MonitorStatus } from '@bimi/contracts/monitors';
import fp from 'fastify-plugin';
import type { Kysely, Selectable } from 'kysely';
import type { MonitorsTable, StoreDatabase } from '../../../db/schema';
import { isSqlite, isUniqueViolation } from '../platform/db';
import { newId } from '../../../lib/tokens';
import { iso } from '../../../lib/iso';

export type MonitorRow = Selectable<MonitorsTable>;
const DAY = 24 * 60 * 60 * 1000;

/** What a finished run leaves on the monitor, for the list. */
export interface RunSummary {
  healthScore: number;
  worstIssue: MonitorIssue | null;
  checkedAt: string;
  certificateExpiresAt: string | null;
}

export interface Monitors {
  /** A new active monitor, due at once; or why not: the user has it already, or has as many as allowed. */
  create(userId: string, domain: string, now: number): Promise<MonitorRow | 'duplicate' | 'limit'>;
  list(userId: string): Promise<MonitorRow[]>;
  /** The user's monitor of `domain`; undefined for another user's. */
  get(userId: string, domain: string): Promise<MonitorRow | undefined>;
  byId(id: string): Promise<MonitorRow | undefined>;
  /** Whether any monitor is active (the queue starts only then). */
  anyActive(): Promise<boolean>;
  remove(userId: string, domain: string): Promise<boolean>;
  setStatus(userId: string, domain: string, status: MonitorStatus, now: number): Promise<MonitorRow | undefined>;
  /** Active monitors whose scheduled run is due at `now`, oldest first, with the next_check_at they are due at. */
  dueRuns(now: number, limit: number): Promise<{ id: string; next_check_at: string }[]>;
  /**
   * Takes the run of the period that was due at `period` (the next_check_at it was queued with) for
   * this process: moves next_check_at to `next` in one conditional update, so of two processes (or
   * two queued jobs) only one gets it. Answers the monitor as claimed, or undefined when it was not
   * this process's to run (claimed elsewhere, paused or deleted): one round trip for both.
   */
  claim(id: string, period: string, next: number): Promise<MonitorRow | undefined>;
  /** Gives a claimed period back after a failed run, so its retry can claim it. */
  releaseClaim(id: string, period: string): Promise<void>;
  /** Marks a run started (and, with `next`, moves the next scheduled run to then) or ended; answers the monitor, undefined when deleted. */
  setChecking(id: string, checking: boolean, next?: number): Promise<MonitorRow | undefined>;
  /** Stores a run's summary; false when the monitor was deleted while it ran. */
  recordRun(id: string, summary: RunSummary): Promise<boolean>;
}

export function monitorListItem(row: MonitorRow, now: number): MonitorListItem {
  let worstIssue: MonitorIssue | null = null;
  if (row.worst_issue) {
    const parsed = MonitorIssue.safeParse(JSON.parse(row.worst_issue));
    if (parsed.success) worstIssue = parsed.data;
  }
  const expires = row.certificate_expires_at;
  return {
    domain: row.domain,
    status: row.status,
    healthScore: row.health_score,
    worstIssue,
    lastCheckedAt: row.last_checked_at,
    certificateExpiresAt: expires,
    certificateDaysLeft: expires ? Math.floor((Date.parse(expires) - now) / DAY) : null,
    checking: row.checking === 1,
    createdAt: row.created_at,
  };
}

/** Expiring within CERTIFICATE_EXPIRING_WITHIN_DAYS (the dashboard's list, the alert). */
export function certificateExpiringSoon(item: Pick<MonitorListItem, 'certificateDaysLeft'>): boolean {
  return item.certificateDaysLeft !== null && item.certificateDaysLeft <= CERTIFICATE_EXPIRING_WITHIN_DAYS;
}

export function createMonitors(db: Kysely<StoreDatabase>, limitPerUser: number): Monitors {
  return {
    async create(userId, domain, now) {
      // Counted and inserted in one transaction, holding the user's row on PostgreSQL (SQLite's one
      // connection runs one transaction at a time): parallel creates take turns, so none passes the
      // limit (issue 31: 20 parallel creates over 20 monitors all got in, 40 against 25).
      return db.transaction().execute(async (trx): Promise<MonitorRow | 'duplicate' | 'limit'> => {
        if (!isSqlite(db)) await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
        const count = await trx
          .selectFrom('monitors')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow();
        const existing = await trx.selectFrom('monitors').select('id').where('user_id', '=', userId).where('domain', '=', domain).executeTakeFirst();
        if (existing) return 'duplicate';
        if (Number(count.n) >= limitPerUser) return 'limit';
        const row: MonitorRow = {
          id: newId(),
          user_id: userId,
          domain,
          status: 'active',
          health_score: null,
          worst_issue: null,
          last_checked_at: null,
          certificate_expires_at: null,
          next_check_at: iso(now),
          checking: 1,
          created_at: iso(now),
          updated_at: iso(now),
        };
        try {
          await trx.insertInto('monitors').values(row).execute();
        } catch (error) {
          if (isUniqueViolation(error)) return 'duplicate';
          throw error;
        }
        return row;
      });
    },
    async list(userId) {
      return db.selectFrom('monitors').selectAll().where('user_id', '=', userId).orderBy('domain').execute();
    },
    async get(userId, domain) {
      return db.selectFrom('monitors').selectAll().where('user_id', '=', userId).where('domain', '=', domain).executeTakeFirst();
    },
    async byId(id) {
      return db.selectFrom('monitors').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async anyActive() {
      return (await db.selectFrom('monitors').select('id').where('status', '=', 'active').limit(1).executeTakeFirst()) !== undefined;
    },
    async remove(userId, domain) {
      const result = await db.deleteFrom('monitors').where('user_id', '=', userId).where('domain', '=', domain).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async setStatus(userId, domain, status, now) {
      await db
        .updateTable('monitors')
        .set({ status, updated_at: iso(now) })
        .where('user_id', '=', userId)
        .where('domain', '=', domain)
        .execute();
      return this.get(userId, domain);
    },
    async dueRuns(now, limit) {
      return db.selectFrom('monitors').select(['id', 'next_check_at']).where('status', '=', 'active').where('next_check_at', '<=', iso(now)).orderBy('next_check_at').limit(limit).execute();
    },
    async claim(id, period, next) {
      return db
        .updateTable('monitors')
        .set({ next_check_at: iso(next), checking: 1 })
        .where('id', '=', id)
        .where('status', '=', 'active')
        .where('next_check_at', '=', period)
        .returningAll()
        .executeTakeFirst();
    },
    async releaseClaim(id, period) {
      await db.updateTable('monitors').set({ next_check_at: period, checking: 0 }).where('id', '=', id).execute();
    },
    async setChecking(id, checking, next) {
      return db
        .updateTable('monitors')
        .set(next === undefined ? { checking: checking ? 1 : 0 } : { checking: checking ? 1 : 0, next_check_at: iso(next) })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },
    async recordRun(id, summary) {
      const result = await db
        .updateTable('monitors')
        .set({
          health_score: summary.healthScore,
          worst_issue: summary.worstIssue ? JSON.stringify(summary.worstIssue) : null,
          last_checked_at: summary.checkedAt,
          certificate_expires_at: summary.certificateExpiresAt,
          checking: 0,
          updated_at: summary.checkedAt,
        })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    monitors: Monitors;
  }
}

export default fp(
  async function monitors(fastify) {
    fastify.decorate('monitors', createMonitors(fastify.db, fastify.config.monitors.limitPerUser));
  },
  { name: 'monitors', dependencies: ['db'] },
);
