import type { Kysely, Migration } from 'kysely';
import { withSerialId } from './columns';

/**
 * The store takes money (issue 11): provider customers, checkouts, one order per cart item, the
 * validation steps of certificate orders, charges and refunds, the payment events already applied
 * (exactly once), renewal reminders already sent, and the cards of built-in test payments.
 *
 * Ids are UUIDs and times ISO 8601 strings made by the bff (as in 0003). Provider state versions
 * (`*_version`) are the epoch milliseconds of the event that set the state: an older event never
 * overwrites it, whatever order the provider delivers them in. Flags are integers 0/1, which both
 * engines store and return alike.
 */
export const orders: Migration = {
  async up(db: Kysely<unknown>) {
    const id = (name = 'id') => [name, 'varchar(36)'] as const;
    const time = 'varchar(30)';
    const ref = 'varchar(255)';
    const url = 'varchar(2048)';

    await db.schema
      .createTable('payment_customers')
      .addColumn('user_id', 'varchar(36)', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('provider', 'varchar(10)', (column) => column.notNull())
      .addColumn('customer_ref', ref, (column) => column.notNull())
      .addColumn('created_at', time, (column) => column.notNull())
      .addPrimaryKeyConstraint('payment_customers_pk', ['user_id', 'provider'])
      .execute();
    // Events name the provider's customer; this finds whose it is.
    await db.schema.createIndex('payment_customers_ref').on('payment_customers').columns(['provider', 'customer_ref']).unique().execute();

    await db.schema
      .createTable('checkouts')
      .addColumn(...id(), (column) => column.primaryKey())
      .addColumn('user_id', 'varchar(36)', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('provider', 'varchar(10)')
      .addColumn('session_ref', ref)
      .addColumn('session_url', url)
      .addColumn('status', 'varchar(10)', (column) => column.notNull())
      .addColumn('failure_message', 'varchar(500)')
      .addColumn('status_version', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('created_at', time, (column) => column.notNull())
      .addColumn('updated_at', time, (column) => column.notNull())
      .execute();
    await db.schema.createIndex('checkouts_user').on('checkouts').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('checkouts_session_ref').on('checkouts').column('session_ref').execute();

    // "O-000123": numbered from one counter shared by both engines (SQLite has no serial column
    // beside a text primary key).
    await withSerialId(db, db.schema.createTable('order_numbers')).addColumn('created_at', time).execute();

    await db.schema
      .createTable('orders')
      .addColumn(...id(), (column) => column.primaryKey())
      .addColumn('number', 'integer', (column) => column.notNull().unique())
      .addColumn('user_id', 'varchar(36)', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('checkout_id', 'varchar(36)', (column) => column.notNull().references('checkouts.id').onDelete('cascade'))
      .addColumn('product_id', 'varchar(64)', (column) => column.notNull())
      // The configuration as the quote took it.
      .addColumn('domains', 'integer')
      .addColumn('years', 'integer')
      .addColumn('logos', 'integer')
      .addColumn('email_volume', 'integer')
      .addColumn('billing_period', 'varchar(10)')
      .addColumn('copies', 'integer', (column) => column.notNull())
      // What was quoted: units charged, per unit and in all, for one billing period.
      .addColumn('quantity', 'integer', (column) => column.notNull())
      .addColumn('unit_amount', 'integer', (column) => column.notNull())
      .addColumn('amount', 'integer', (column) => column.notNull())
      .addColumn('currency', 'varchar(3)', (column) => column.notNull())
      .addColumn('billing_interval', 'varchar(5)', (column) => column.notNull())
      .addColumn('billing_interval_count', 'integer', (column) => column.notNull())
      .addColumn('description', 'varchar(300)', (column) => column.notNull())
      .addColumn('price_id', ref)
      // Payment: unpaid → paid; failed or past_due when a charge fails; expired when the checkout closed unpaid.
      .addColumn('payment_status', 'varchar(10)', (column) => column.notNull())
      .addColumn('payment_version', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('failure_message', 'varchar(500)')
      // The provider's subscription and this order's item in it.
      .addColumn('subscription_ref', ref)
      .addColumn('item_ref', ref)
      .addColumn('subscription_status', 'varchar(20)')
      .addColumn('subscription_version', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('renews', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('current_period_end', time)
      .addColumn('ended_at', time)
      // Certificate orders: CertificateDetails as JSON, and when the certificate was issued.
      .addColumn('details', 'text')
      .addColumn('issued_at', time)
      // When the issued certificate itself ends, if the operator recorded it: a certificate that
      // ends within 60 days is expiring even while the plan renews.
      .addColumn('certificate_expires_at', time)
      .addColumn('created_at', time, (column) => column.notNull())
      .addColumn('updated_at', time, (column) => column.notNull())
      .execute();
    await db.schema.createIndex('orders_user').on('orders').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('orders_checkout').on('orders').column('checkout_id').execute();
    await db.schema.createIndex('orders_subscription').on('orders').columns(['subscription_ref', 'item_ref']).execute();
    // The reminder job looks for renewals ending soon.
    await db.schema.createIndex('orders_period_end').on('orders').column('current_period_end').execute();

    await db.schema
      .createTable('order_validation_steps')
      .addColumn('order_id', 'varchar(36)', (column) => column.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('step', 'varchar(20)', (column) => column.notNull())
      .addColumn('state', 'varchar(20)', (column) => column.notNull())
      .addColumn('note', 'varchar(1000)')
      .addColumn('updated_at', time, (column) => column.notNull())
      .addPrimaryKeyConstraint('order_validation_steps_pk', ['order_id', 'step'])
      .execute();

    await db.schema
      .createTable('transactions')
      .addColumn(...id(), (column) => column.primaryKey())
      .addColumn('user_id', 'varchar(36)', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('invoice_ref', ref, (column) => column.notNull().unique())
      .addColumn('kind', 'varchar(10)', (column) => column.notNull())
      .addColumn('status', 'varchar(10)', (column) => column.notNull())
      .addColumn('status_version', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('amount', 'integer', (column) => column.notNull())
      .addColumn('currency', 'varchar(3)', (column) => column.notNull())
      .addColumn('description', 'varchar(500)', (column) => column.notNull())
      .addColumn('number', 'varchar(100)')
      .addColumn('failure_message', 'varchar(500)')
      .addColumn('receipt_pdf_url', url)
      .addColumn('hosted_url', url)
      .addColumn('card_brand', 'varchar(20)')
      .addColumn('card_last4', 'varchar(4)')
      .addColumn('test_payment', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('date', time, (column) => column.notNull())
      .addColumn('created_at', time, (column) => column.notNull())
      .execute();
    await db.schema.createIndex('transactions_user').on('transactions').columns(['user_id', 'date']).execute();

    // One invoice pays every order of a subscription: a line per order.
    await db.schema
      .createTable('transaction_lines')
      .addColumn('transaction_id', 'varchar(36)', (column) => column.notNull().references('transactions.id').onDelete('cascade'))
      .addColumn('order_id', 'varchar(36)', (column) => column.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('description', 'varchar(500)', (column) => column.notNull())
      .addColumn('amount', 'integer', (column) => column.notNull())
      .addColumn('period_start', time)
      .addColumn('period_end', time)
      .addPrimaryKeyConstraint('transaction_lines_pk', ['transaction_id', 'order_id'])
      .execute();
    await db.schema.createIndex('transaction_lines_order').on('transaction_lines').column('order_id').execute();

    await db.schema
      .createTable('processed_payment_events')
      .addColumn('event_id', ref, (column) => column.primaryKey())
      .addColumn('kind', 'varchar(40)', (column) => column.notNull())
      .addColumn('applied_at', time, (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('renewal_reminders')
      .addColumn('order_id', 'varchar(36)', (column) => column.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('days_ahead', 'integer', (column) => column.notNull())
      .addColumn('period_end', time, (column) => column.notNull())
      .addColumn('sent_at', time, (column) => column.notNull())
      .addPrimaryKeyConstraint('renewal_reminders_pk', ['order_id', 'days_ahead', 'period_end'])
      .execute();

    // Cards saved on the built-in test payment page (Stripe keeps its own).
    await db.schema
      .createTable('test_payment_methods')
      .addColumn(...id(), (column) => column.primaryKey())
      .addColumn('customer_ref', ref, (column) => column.notNull())
      .addColumn('brand', 'varchar(20)', (column) => column.notNull())
      .addColumn('last4', 'varchar(4)', (column) => column.notNull())
      .addColumn('exp_month', 'integer', (column) => column.notNull())
      .addColumn('exp_year', 'integer', (column) => column.notNull())
      .addColumn('is_default', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('created_at', time, (column) => column.notNull())
      .execute();
    await db.schema.createIndex('test_payment_methods_customer').on('test_payment_methods').column('customer_ref').execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of [
      'test_payment_methods',
      'renewal_reminders',
      'processed_payment_events',
      'transaction_lines',
      'transactions',
      'order_validation_steps',
      'orders',
      'order_numbers',
      'checkouts',
      'payment_customers',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
