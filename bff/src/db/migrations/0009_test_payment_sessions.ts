import type { Kysely, Migration } from 'kysely';

/**
 * Open payment pages of the built-in test payments, stored so a restart of the bff (or another bff
 * process on the same database) still serves and takes them, and so one left unpaid expires after
 * 24 hours with a checkout.expired event, as a Stripe Checkout Session does. The checkout's own row
 * keeps the session ref and URL; this one keeps what the page needs: the lines and URLs it was
 * opened with (`checkout`, the ProviderCheckout as JSON), the form's token and the page's state.
 * A page moves from `open` exactly once (a conditional update), so two clicks or two processes
 * cannot both pay it, nor pay one that expired.
 */
export const testPaymentSessions: Migration = {
  async up(db: Kysely<unknown>) {
    const time = 'varchar(30)';
    await db.schema
      .createTable('test_payment_sessions')
      .addColumn('ref', 'varchar(255)', (column) => column.primaryKey())
      .addColumn('checkout_id', 'varchar(36)', (column) => column.notNull().references('checkouts.id').onDelete('cascade'))
      .addColumn('user_id', 'varchar(36)', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('form_token', 'varchar(64)', (column) => column.notNull())
      // open, paid, failed, expired
      .addColumn('status', 'varchar(10)', (column) => column.notNull())
      .addColumn('checkout', 'text', (column) => column.notNull())
      .addColumn('created_at', time, (column) => column.notNull())
      .addColumn('expires_at', time, (column) => column.notNull())
      .execute();
    // The hourly expiry's query: open pages past their end.
    await db.schema.createIndex('test_payment_sessions_open').on('test_payment_sessions').columns(['status', 'expires_at']).execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('test_payment_sessions').execute();
  },
};
