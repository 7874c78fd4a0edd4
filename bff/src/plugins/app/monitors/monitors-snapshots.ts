import { MonitorSnapshot, type HistoryPoint } from '@bimi/contracts/monitors';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { StoreDatabase } from '../../../db/schema';
import { newId } from '../../../lib/tokens';

/** Points the history chart shows at most. */
export const HISTORY_POINTS = 90;

export interface MonitorSnapshots {
  add(monitorId: string, snapshot: MonitorSnapshot): Promise<void>;
  latest(monitorId: string): Promise<MonitorSnapshot | null>;
  /** The newest `limit` runs, newest first. */
  recent(monitorId: string, limit: number): Promise<MonitorSnapshot[]>;
  /** Oldest first, the last HISTORY_POINTS runs. */
  history(monitorId: string): Promise<HistoryPoint[]>;
}

export function createMonitorSnapshots(db: Kysely<StoreDatabase>): MonitorSnapshots {
  async function recent(monitorId: string, limit: number): Promise<MonitorSnapshot[]> {
    const rows = await db.selectFrom('monitor_snapshots').select('report').where('monitor_id', '=', monitorId).orderBy('checked_at', 'desc').orderBy('id').limit(limit).execute();
    return rows.flatMap((row) => {
      const parsed = MonitorSnapshot.safeParse(JSON.parse(row.report));
      return parsed.success ? [parsed.data] : [];
    });
  }

  return {
    async add(monitorId, snapshot) {
      await db
        .insertInto('monitor_snapshots')
        .values({
          id: newId(),
          monitor_id: monitorId,
          checked_at: snapshot.checkedAt,
          health_score: snapshot.healthScore,
          change_count: snapshot.changes.length,
          report: JSON.stringify(snapshot),
        })
        .execute();
    },
    async latest(monitorId) {
      return (await recent(monitorId, 1))[0] ?? null;
    },
    recent,
    async history(monitorId) {
      const rows = await db
        .selectFrom('monitor_snapshots')
        .select(['checked_at', 'health_score', 'change_count'])
        .where('monitor_id', '=', monitorId)
        .orderBy('checked_at', 'desc')
        .limit(HISTORY_POINTS)
        .execute();
      return rows.reverse().map((row) => ({ at: row.checked_at, score: row.health_score, changes: row.change_count }));
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    monitorSnapshots: MonitorSnapshots;
  }
}

export default fp(
  async function monitorSnapshots(fastify) {
    fastify.decorate('monitorSnapshots', createMonitorSnapshots(fastify.db));
  },
  { name: 'monitor-snapshots', dependencies: ['db'] },
);
