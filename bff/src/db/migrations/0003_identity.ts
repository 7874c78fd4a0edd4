import type { Kysely, Migration } from 'kysely';

/**
 * Accounts, their sessions and mailed tokens, organizations, contacts, support tickets, partner
 * applications and the development outbox. Ids are UUIDs made by the bff and times are ISO 8601
 * strings written by the bff's clock, so both engines store and compare them the same way.
 */
export const identity: Migration = {
  async up(db: Kysely<unknown>) {
    const id = (name = 'id') => [name, 'varchar(36)'] as const;
    const time = 'varchar(30)';

    await db.schema
      .createTable('users')
      .addColumn(...id(), (column) => column.primaryKey())
      .addColumn('email', 'varchar(254)', (column) => column.notNull().unique())
      .addColumn('name', 'varchar(100)', (column) => column.notNull())
      .addColumn('password_hash', 'varchar(255)', (column) => column.notNull())
      .addColumn('email_verified_at', time)
      .addColumn('pending_email', 'varchar(254)')
      .addColumn('notification_preferences', 'text', (column) => column.notNull())
      .addColumn('created_at', time, (column) => column.notNull())
      .addColumn('updated_at', time, (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('email_tokens')
      .addColumn('token_hash', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('user_id', 'varchar(36)', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('purpose', 'varchar(20)', (column) => column.notNull())
      .addColumn('email', 'varchar(254)', (column) => column.notNull())
      .addColumn('expires_at', time, (column) => column.notNull())
      .addColumn('used_at', time)
      .addColumn('created_at', time, (column) => column.notNull())
      .execute();
    await db.schema.createIndex('email_tokens_user').on('email_tokens').columns(['user_id', 'purpose']).execute();

    await db.schema
      .createTable('sessions')
      .addColumn('sid', 'varchar(128)', (column) => column.primaryKey())
      .addColumn('data', 'text', (column) => column.notNull())
      .addColumn('expires_at', time, (column) => column.notNull())
      .execute();
    await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

    await db.schema
      .createTable('partner_applications')
      .addColumn(...id(), (column) => column.primaryKey())
      .addColumn('company', 'varchar(200)', (column) => column.notNull())
      .addColumn('website', 'varchar(2048)', (column) => column.notNull())
      .addColumn('contact_name', 'varchar(100)', (column) => column.notNull())
      .addColumn('email', 'varchar(254)', (column) => column.notNull())
      .addColumn('phone', 'varchar(40)')
      .addColumn('message', 'text')
      .addColumn('status', 'varchar(20)', (column) => column.notNull())
      .addColumn('created_at', time, (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('organizations')
      .addColumn(...id(), (column) => column.primaryKey())
      .addColumn('name', 'varchar(200)', (column) => column.notNull())
      .addColumn('created_at', time, (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('organization_members')
      .addColumn('organization_id', 'varchar(36)', (column) => column.notNull().references('organizations.id').onDelete('cascade'))
      .addColumn('user_id', 'varchar(36)', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role', 'varchar(10)', (column) => column.notNull())
      .addColumn('joined_at', time, (column) => column.notNull())
      .addPrimaryKeyConstraint('organization_members_pk', ['organization_id', 'user_id'])
      .execute();
    await db.schema.createIndex('organization_members_user').on('organization_members').column('user_id').execute();

    await db.schema
      .createTable('organization_invites')
      .addColumn(...id(), (column) => column.primaryKey())
      .addColumn('organization_id', 'varchar(36)', (column) => column.notNull().references('organizations.id').onDelete('cascade'))
      .addColumn('email', 'varchar(254)', (column) => column.notNull())
      .addColumn('role', 'varchar(10)', (column) => column.notNull())
      .addColumn('token_hash', 'varchar(64)', (column) => column.notNull().unique())
      .addColumn('invited_by', 'varchar(36)', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', time, (column) => column.notNull())
      .addColumn('expires_at', time, (column) => column.notNull())
      .addColumn('accepted_at', time)
      .execute();

    await db.schema
      .createTable('contacts')
      .addColumn(...id(), (column) => column.primaryKey())
      .addColumn('user_id', 'varchar(36)', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'varchar(10)', (column) => column.notNull())
      .addColumn('name', 'varchar(100)', (column) => column.notNull())
      .addColumn('email', 'varchar(254)', (column) => column.notNull())
      .addColumn('phone', 'varchar(40)')
      .addColumn('job_title', 'varchar(100)')
      .addColumn('company', 'varchar(200)')
      .addColumn('created_at', time, (column) => column.notNull())
      .addColumn('updated_at', time, (column) => column.notNull())
      .execute();
    await db.schema.createIndex('contacts_user').on('contacts').column('user_id').execute();

    await db.schema
      .createTable('support_tickets')
      .addColumn(...id(), (column) => column.primaryKey())
      .addColumn('user_id', 'varchar(36)', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('reference', 'varchar(20)', (column) => column.notNull().unique())
      .addColumn('category', 'varchar(20)', (column) => column.notNull())
      .addColumn('subject', 'varchar(200)', (column) => column.notNull())
      .addColumn('message', 'text', (column) => column.notNull())
      .addColumn('status', 'varchar(10)', (column) => column.notNull())
      .addColumn('created_at', time, (column) => column.notNull())
      .execute();
    await db.schema.createIndex('support_tickets_user').on('support_tickets').column('user_id').execute();

    await db.schema
      .createTable('outbox_messages')
      .addColumn(...id(), (column) => column.primaryKey())
      .addColumn('recipient', 'varchar(254)', (column) => column.notNull())
      .addColumn('subject', 'varchar(300)', (column) => column.notNull())
      .addColumn('text', 'text', (column) => column.notNull())
      .addColumn('created_at', time, (column) => column.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of [
      'outbox_messages',
      'support_tickets',
      'contacts',
      'organization_invites',
      'organization_members',
      'organizations',
      'partner_applications',
      'sessions',
      'email_tokens',
      'users',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
