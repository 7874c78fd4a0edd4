import type { Kysely, Migration } from 'kysely';

/**
 * A sign-up's name and password travel with its verification link (issue 10, sign-up hardening).
 * Signing up again with an address that is not verified yet must not change the account: whoever
 * typed last is not necessarily the address's owner. Each link carries the credentials given with
 * the sign-up that sent it, and following it (which proves the mailbox) applies exactly those.
 */
export const signupCredentials: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('email_tokens').addColumn('signup_name', 'varchar(200)').execute();
    await db.schema.alterTable('email_tokens').addColumn('signup_password_hash', 'varchar(255)').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('email_tokens').dropColumn('signup_password_hash').execute();
    await db.schema.alterTable('email_tokens').dropColumn('signup_name').execute();
  },
};
