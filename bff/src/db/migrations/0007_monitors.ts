import type { Kysely, Migration } from 'kysely';
import { withSerialId } from './columns';

/**
 * Domain monitors (issue 13): one monitor per domain per user, a snapshot per finished run (the
 * whole report as JSON, with its score and number of changes beside it for the history chart), the
 * alert mails already sent (each once: the key says which score drop, record change or certificate
 * expiry it was about), and the assistant's conversation per monitor.
 *
 * `next_check_at` is when the next scheduled run is due; a run claims the monitor by moving it
 * forward in one conditional update, so two bff processes never both run the same period's check.
 * Ids are UUIDs and times ISO 8601 strings made by the bff (as in 0003); flags are integers 0/1.
 * (Named 0007: 0006 was taken by signup_credentials while this issue was open.)
 */
export const monitors: Migration = {
  async up(db: Kysely<unknown>) {
    const id = 'varchar(36)';
    const time = 'varchar(30)';

    await db.schema
      .createTable('monitors')
      .addColumn('id', id, (column) => column.primaryKey())
      .addColumn('user_id', id, (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('domain', 'varchar(253)', (column) => column.notNull())
      .addColumn('status', 'varchar(10)', (column) => column.notNull())
      .addColumn('health_score', 'integer')
      // JSON of the worst MonitorIssue of the latest run, for the list.
      .addColumn('worst_issue', 'text')
      .addColumn('last_checked_at', time)
      .addColumn('certificate_expires_at', time)
      .addColumn('next_check_at', time, (column) => column.notNull())
      // Set while a run is queued or under way (the list shows "checking").
      .addColumn('checking', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('created_at', time, (column) => column.notNull())
      .addColumn('updated_at', time, (column) => column.notNull())
      .execute();
    await db.schema.createIndex('monitors_user_domain').on('monitors').columns(['user_id', 'domain']).unique().execute();
    await db.schema.createIndex('monitors_due').on('monitors').columns(['status', 'next_check_at']).execute();

    await db.schema
      .createTable('monitor_snapshots')
      .addColumn('id', id, (column) => column.primaryKey())
      .addColumn('monitor_id', id, (column) => column.notNull().references('monitors.id').onDelete('cascade'))
      .addColumn('checked_at', time, (column) => column.notNull())
      .addColumn('health_score', 'integer', (column) => column.notNull())
      .addColumn('change_count', 'integer', (column) => column.notNull())
      // JSON of the MonitorSnapshot (packages/contracts/src/monitors.ts).
      .addColumn('report', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('monitor_snapshots_monitor').on('monitor_snapshots').columns(['monitor_id', 'checked_at']).execute();

    await db.schema
      .createTable('monitor_alerts')
      .addColumn('id', id, (column) => column.primaryKey())
      .addColumn('monitor_id', id, (column) => column.notNull().references('monitors.id').onDelete('cascade'))
      .addColumn('kind', 'varchar(20)', (column) => column.notNull())
      .addColumn('alert_key', 'varchar(300)', (column) => column.notNull())
      .addColumn('subject', 'varchar(300)', (column) => column.notNull())
      .addColumn('sent_at', time, (column) => column.notNull())
      .execute();
    await db.schema.createIndex('monitor_alerts_once').on('monitor_alerts').columns(['monitor_id', 'kind', 'alert_key']).unique().execute();

    // Numbered: a question and its answer can share a timestamp, and the order must hold.
    await withSerialId(db, db.schema.createTable('monitor_conversations'))
      .addColumn('monitor_id', id, (column) => column.notNull().references('monitors.id').onDelete('cascade'))
      .addColumn('role', 'varchar(10)', (column) => column.notNull())
      .addColumn('text', 'text', (column) => column.notNull())
      .addColumn('created_at', time, (column) => column.notNull())
      .execute();
    await db.schema.createIndex('monitor_conversations_monitor').on('monitor_conversations').columns(['monitor_id', 'id']).execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('monitor_conversations').execute();
    await db.schema.dropTable('monitor_alerts').execute();
    await db.schema.dropTable('monitor_snapshots').execute();
    await db.schema.dropTable('monitors').execute();
  },
};
