import type { ConversationEntry } from '@bimi/contracts/monitors';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { StoreDatabase } from '../../../db/schema';

/** Entries kept in view (and sent as history); older ones stay stored. */
export const CONVERSATION_ENTRIES = 50;

export interface MonitorConversations {
  add(monitorId: string, entry: ConversationEntry): Promise<void>;
  /** Oldest first, the last CONVERSATION_ENTRIES. */
  list(monitorId: string): Promise<ConversationEntry[]>;
}

export function createMonitorConversations(db: Kysely<StoreDatabase>): MonitorConversations {
  return {
    async add(monitorId, entry) {
      await db.insertInto('monitor_conversations').values({ monitor_id: monitorId, role: entry.role, text: entry.text, created_at: entry.timestamp }).execute();
    },
    async list(monitorId) {
      const rows = await db
        .selectFrom('monitor_conversations')
        .select(['role', 'text', 'created_at'])
        .where('monitor_id', '=', monitorId)
        .orderBy('id', 'desc')
        .limit(CONVERSATION_ENTRIES)
        .execute();
      return rows.reverse().map((row) => ({ role: row.role, text: row.text, timestamp: row.created_at }));
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    monitorConversations: MonitorConversations;
  }
}

export default fp(
  async function monitorConversations(fastify) {
    fastify.decorate('monitorConversations', createMonitorConversations(fastify.db));
  },
  { name: 'monitor-conversations', dependencies: ['db'] },
);
