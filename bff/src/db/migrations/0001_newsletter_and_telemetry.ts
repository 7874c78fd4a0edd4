import { sql, type Kysely, type Migration } from 'kysely';
import { withSerialId } from './columns';

export const newsletterAndTelemetry: Migration = {
  async up(db: Kysely<unknown>) {
    await withSerialId(db, db.schema.createTable('newsletter_subscribers'))
      .addColumn('email', 'varchar(256)', (column) => column.notNull().unique())
      .addColumn('created_at', 'timestamp', (column) => column.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
      .execute();

    await withSerialId(db, db.schema.createTable('page_views'))
      .addColumn('path', 'varchar(2048)', (column) => column.notNull())
      .addColumn('referrer', 'varchar(2048)')
      .addColumn('title', 'varchar(300)')
      .addColumn('created_at', 'timestamp', (column) => column.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
      .execute();

    await withSerialId(db, db.schema.createTable('client_errors'))
      .addColumn('kind', 'varchar(32)', (column) => column.notNull())
      .addColumn('remote', 'varchar(64)')
      .addColumn('message', 'text', (column) => column.notNull())
      .addColumn('path', 'varchar(2048)')
      .addColumn('stack', 'text')
      .addColumn('created_at', 'timestamp', (column) => column.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('client_errors').execute();
    await db.schema.dropTable('page_views').execute();
    await db.schema.dropTable('newsletter_subscribers').execute();
  },
};
