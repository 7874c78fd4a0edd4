import { sql, type Kysely, type Migration } from 'kysely';
import { withSerialId } from './columns';

/** Messages sent through the /contact form, kept for the support team to answer. */
export const contactMessages: Migration = {
  async up(db: Kysely<unknown>) {
    await withSerialId(db, db.schema.createTable('contact_messages'))
      .addColumn('name', 'varchar(100)', (column) => column.notNull())
      .addColumn('email', 'varchar(256)', (column) => column.notNull())
      .addColumn('company', 'varchar(200)')
      .addColumn('topic', 'varchar(32)', (column) => column.notNull())
      .addColumn('message', 'text', (column) => column.notNull())
      .addColumn('created_at', 'timestamp', (column) => column.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
      .execute();
    // Support looks up a sender's earlier messages before answering a new one.
    await db.schema.createIndex('contact_messages_email_idx').on('contact_messages').column('email').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('contact_messages').execute();
  },
};
