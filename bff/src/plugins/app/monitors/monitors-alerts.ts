import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { StoreDatabase } from '../../../db/schema';
import { isUniqueViolation } from '../platform/db';
import { newId } from '../../../lib/tokens';
import { iso } from '../../../lib/iso';

export type MonitorAlertKind = 'score-drop' | 'record-change' | 'certificate-expiry';

export interface MonitorAlerts {
  /**
   * Claims the alert `kind`/`key` of a monitor before it is mailed: false when it was claimed
   * already (by this or another bff process), so each alert goes once.
   */
  claim(monitorId: string, kind: MonitorAlertKind, key: string, subject: string, now: number): Promise<string | null>;
  /** Gives a claim back when its mail did not go, so the next run tries again. */
  release(alertId: string): Promise<void>;
  list(monitorId: string): Promise<{ kind: string; key: string; subject: string; sentAt: string }[]>;
}

export function createMonitorAlerts(db: Kysely<StoreDatabase>): MonitorAlerts {
  return {
    async claim(monitorId, kind, key, subject, now) {
      const id = newId();
      try {
        await db
          .insertInto('monitor_alerts')
          .values({ id, monitor_id: monitorId, kind, alert_key: key.slice(0, 300), subject: subject.slice(0, 300), sent_at: iso(now) })
          .execute();
        return id;
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },
    async release(alertId) {
      await db.deleteFrom('monitor_alerts').where('id', '=', alertId).execute();
    },
    async list(monitorId) {
      const rows = await db.selectFrom('monitor_alerts').select(['kind', 'alert_key', 'subject', 'sent_at']).where('monitor_id', '=', monitorId).orderBy('sent_at').execute();
      return rows.map((row) => ({ kind: row.kind, key: row.alert_key, subject: row.subject, sentAt: row.sent_at }));
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    monitorAlerts: MonitorAlerts;
  }
}

export default fp(
  async function monitorAlerts(fastify) {
    fastify.decorate('monitorAlerts', createMonitorAlerts(fastify.db));
  },
  { name: 'monitor-alerts', dependencies: ['db'] },
);
