import type { Kysely, Migration } from 'kysely';

/**
 * What applied payment events lead to (order confirmation, receipt, payment-failed mail, handing an
 * order to fulfilment), recorded in the same transaction as the event's change and carried out after
 * the webhook has answered by a background sender (plugins/app/mail/order-notifications.ts). A sender
 * claims a row by setting `claimed_at` where it is null (so two bff processes never both take it),
 * sets `done_at` once it went, or releases it with `next_attempt_at` moved on when it failed.
 */
export const orderNotifications: Migration = {
  async up(db: Kysely<unknown>) {
    const time = 'varchar(30)';
    await db.schema
      .createTable('order_notifications')
      .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
      // The effect's kind and its fields, as JSON (OrderEffect in plugins/app/orders/orders.ts).
      .addColumn('kind', 'varchar(40)', (column) => column.notNull())
      .addColumn('payload', 'text', (column) => column.notNull())
      .addColumn('created_at', time, (column) => column.notNull())
      // Within one event: the confirmation before the receipt it announces.
      .addColumn('position', 'integer', (column) => column.notNull())
      .addColumn('next_attempt_at', time, (column) => column.notNull())
      .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('claimed_at', time)
      .addColumn('done_at', time)
      .addColumn('last_error', 'varchar(500)')
      .execute();
    // The sender's query: what is not done yet and due.
    await db.schema.createIndex('order_notifications_due').on('order_notifications').columns(['done_at', 'next_attempt_at']).execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('order_notifications').execute();
  },
};
