import type { Kysely, Migration } from 'kysely';

/**
 * Ending a user's sessions when their password or email changes (issue 4): each stored session
 * names its user, indexed, so they can be found and deleted; and each user has a time before which
 * every session of theirs is void, which also ends a session that a request in flight writes back
 * after the deletion, and sessions stored before this migration (their user_id is null).
 */
export const sessionsByUser: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').addColumn('user_id', 'varchar(36)').execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
    await db.schema.alterTable('users').addColumn('sessions_valid_from', 'varchar(30)').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('users').dropColumn('sessions_valid_from').execute();
    await db.schema.dropIndex('sessions_user').execute();
    await db.schema.alterTable('sessions').dropColumn('user_id').execute();
  },
};
