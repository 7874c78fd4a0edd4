import type { Kysely, Migration } from 'kysely';

/**
 * Add-a-card pages of the built-in test payments, stored as their payment pages are (0009), so the
 * page one bff replica served can be posted to another (a review of issue 16's replicas found them
 * kept in one process's memory: the form answered "payment page not found" on the other replica).
 * A page is used once: saving the card deletes its row in one conditional statement, so two clicks
 * or two processes cannot both save it. Pages end 24 hours after they were opened.
 */
export const testPaymentSetups: Migration = {
  async up(db: Kysely<unknown>) {
    const time = 'varchar(30)';
    await db.schema
      .createTable('test_payment_setups')
      .addColumn('ref', 'varchar(255)', (column) => column.primaryKey())
      .addColumn('customer_ref', 'varchar(255)', (column) => column.notNull())
      .addColumn('return_url', 'text', (column) => column.notNull())
      .addColumn('form_token', 'varchar(64)', (column) => column.notNull())
      .addColumn('created_at', time, (column) => column.notNull())
      .addColumn('expires_at', time, (column) => column.notNull())
      .execute();
    // The hourly clean-up's query: pages past their end.
    await db.schema.createIndex('test_payment_setups_expires').on('test_payment_setups').column('expires_at').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('test_payment_setups').execute();
  },
};
