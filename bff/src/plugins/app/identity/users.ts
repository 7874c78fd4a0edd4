import { NOTIFICATION_DEFAULTS, NotificationPreferences, type NotificationTopic, type Profile } from '@bimi/contracts/account';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { EmailTokensTable, StoreDatabase } from '../../../db/schema';
import { HttpError } from '../../../lib/http-error';
import { isUniqueViolation } from '../platform/db';
import { newId, VERIFICATION_LIFETIME_MS } from '../../../lib/tokens';
import type { EmailTokens } from './email-tokens';
import { iso } from '../../../lib/iso';
import { wantsMail } from '../../../services/mail/message';

/** An account as the mailed-link flows see it. */
export interface Account {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
}

/** Who an order or monitor mail goes to, and the mails they want. */
export interface MailRecipient {
  email: string;
  name: string;
  preferences: NotificationPreferences;
}

/** A user's stored notification choices (`users.notification_preferences`); throws when unreadable. */
function readNotificationPreferences(stored: string): NotificationPreferences {
  return NotificationPreferences.parse(JSON.parse(stored));
}

/** Ids per query when reading users by id: well under the engines' limits on bound parameters. */
const IDS_PER_QUERY = 1000;

export interface Users {
  /** The account `email` signs in to: its password hash and whether the address is verified. */
  signInCredentials(email: string): Promise<{ id: string; passwordHash: string; emailVerified: boolean } | undefined>;
  /** The account with the address `email`, verified or not. */
  byEmail(email: string): Promise<Account | undefined>;
  /** The user of a session, with the time (ISO) before which their sessions are void. */
  sessionUser(id: string): Promise<{ id: string; email: string; name: string; sessionsValidFrom: string | null } | undefined>;
  /** The user's address, name and password hash, for the checks of a change. */
  credentials(id: string): Promise<{ email: string; name: string; passwordHash: string }>;
  /** The account's address, whether it is verified and its password hash (a used sign-up link is checked against them); undefined when it is gone. */
  verification(id: string): Promise<{ email: string; emailVerified: boolean; passwordHash: string } | undefined>;
  /**
   * A sign-up of `email`. For a new address, a new account and its verification link's token; for
   * an account not yet verified, a fresh link's token that carries the name and password just
   * given, applied only when that link is followed (nobody has proved the address yet: a stranger
   * signing up again with it must not change the password of the owner who signed up before, nor
   * the other way round); for a verified account, nothing changes and the answer is its owner's
   * name. Undefined when a sign-up of the same address raced this one in (try again: the account
   * now exists).
   */
  signUp(signUp: { name: string; email: string; passwordHash: string }): Promise<{ linkToken: string } | { verifiedOwner: string } | undefined>;
  /**
   * Follows a live sign-up or email-change link (`emailTokens.live`): the account is verified, or
   * answers to the new address (409 when another account took it meanwhile). `alreadyUsed` is the
   * 400 of a link claimed by a request racing this one.
   */
  followEmailLink(link: EmailTokensTable, alreadyUsed: string): Promise<'signup' | 'email-change'>;
  /** Follows a live password-reset link: the new password, every other reset link void, the address verified, sessions void. */
  resetPassword(link: EmailTokensTable, passwordHash: string, alreadyUsed: string): Promise<void>;
  /** Shows `newEmail` as pending, and makes every email-change link but `tokenHash`'s stop working: only the newest address asked for can be confirmed. */
  requestEmailChange(userId: string, newEmail: string, tokenHash: string | undefined): Promise<void>;
  /** The new password, and every session started before now void. */
  changePassword(userId: string, passwordHash: string): Promise<void>;
  profile(userId: string): Promise<Profile>;
  rename(userId: string, name: string): Promise<void>;
  notificationPreferences(userId: string): Promise<NotificationPreferences>;
  setNotificationPreferences(userId: string, preferences: NotificationPreferences): Promise<void>;
  /** The users' addresses, names and mail preferences (NOTIFICATION_DEFAULTS when unreadable), in one query; a user not found is left out. */
  mailRecipients(userIds: readonly string[]): Promise<Map<string, MailRecipient>>;
  /** One user's address and name, and whether they want mail on `topic` (null: a mail of no topic, which always goes). */
  mailRecipient(userId: string, topic: NotificationTopic | null): Promise<{ email: string; name: string; wants: boolean } | undefined>;
  /** The users' names and addresses (the operator's `orders` command); a user not found is left out. */
  namesAndEmails(userIds: readonly string[]): Promise<Map<string, { name: string; email: string }>>;
}

export function createUsers(db: Kysely<StoreDatabase>, options: { now: () => number; emailTokens: EmailTokens }): Users {
  const { now, emailTokens } = options;

  /** The users' addresses, names and mail preferences (NOTIFICATION_DEFAULTS when unreadable), in one query. */
  async function mailRecipients(userIds: readonly string[]): Promise<Map<string, MailRecipient>> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return new Map();
    const users = await db.selectFrom('users').select(['id', 'email', 'name', 'notification_preferences']).where('id', 'in', ids).execute();
    return new Map(
      users.map((user) => {
        let preferences = NOTIFICATION_DEFAULTS;
        try {
          preferences = readNotificationPreferences(user.notification_preferences);
        } catch {
          // An unreadable stored value: the defaults.
        }
        return [user.id, { email: user.email, name: user.name, preferences }];
      }),
    );
  }

  return {
    async signInCredentials(email) {
      const user = await db.selectFrom('users').select(['id', 'password_hash', 'email_verified_at']).where('email', '=', email).executeTakeFirst();
      return user && { id: user.id, passwordHash: user.password_hash, emailVerified: user.email_verified_at !== null };
    },

    async byEmail(email) {
      const user = await db.selectFrom('users').select(['id', 'name', 'email', 'email_verified_at']).where('email', '=', email).executeTakeFirst();
      return user && { id: user.id, name: user.name, email: user.email, emailVerified: user.email_verified_at !== null };
    },

    async sessionUser(id) {
      const user = await db.selectFrom('users').select(['id', 'email', 'name', 'sessions_valid_from']).where('id', '=', id).executeTakeFirst();
      return user && { id: user.id, email: user.email, name: user.name, sessionsValidFrom: user.sessions_valid_from };
    },

    async credentials(id) {
      const user = await db.selectFrom('users').select(['email', 'name', 'password_hash']).where('id', '=', id).executeTakeFirstOrThrow();
      return { email: user.email, name: user.name, passwordHash: user.password_hash };
    },

    async verification(id) {
      const user = await db.selectFrom('users').select(['email', 'email_verified_at', 'password_hash']).where('id', '=', id).executeTakeFirst();
      return user && { email: user.email, emailVerified: user.email_verified_at !== null, passwordHash: user.password_hash };
    },

    async signUp({ name, email, passwordHash }) {
      const existing = await db.selectFrom('users').select(['id', 'name', 'email_verified_at']).where('email', '=', email).executeTakeFirst();
      if (existing?.email_verified_at) return { verifiedOwner: existing.name };
      const userId = existing?.id ?? newId();
      try {
        return await db.transaction().execute(async (trx) => {
          if (!existing) {
            await trx
              .insertInto('users')
              .values({
                id: userId,
                email,
                name,
                password_hash: passwordHash,
                email_verified_at: null,
                pending_email: null,
                notification_preferences: JSON.stringify(NOTIFICATION_DEFAULTS),
                created_at: iso(now()),
                updated_at: iso(now()),
              })
              .execute();
          }
          const link = { userId, purpose: 'signup' as const, email, lifetimeMs: VERIFICATION_LIFETIME_MS, signUp: { name, passwordHash } };
          return { linkToken: (await emailTokens.issue(link, trx)).token };
        });
      } catch (error) {
        if (isUniqueViolation(error)) return undefined;
        throw error;
      }
    },

    followEmailLink(link, alreadyUsed) {
      return db.transaction().execute(async (trx) => {
        await emailTokens.claim(trx, link.token_hash, alreadyUsed);
        if (link.purpose === 'signup') {
          // The link's own sign-up credentials (resend links carry none: the account keeps its own).
          const credentials = link.signup_password_hash && link.signup_name ? { name: link.signup_name, password_hash: link.signup_password_hash } : {};
          await trx
            .updateTable('users')
            .set({ ...credentials, email_verified_at: iso(now()), updated_at: iso(now()) })
            .where('id', '=', link.user_id)
            .execute();
          // Any other sign-up link of the account now stops working, so none can change its password later.
          await emailTokens.voidUnused(trx, link.user_id, 'signup');
          return 'signup';
        }
        const taken = await trx.selectFrom('users').select('id').where('email', '=', link.email).where('id', '!=', link.user_id).executeTakeFirst();
        if (taken) throw new HttpError(409, 'Another account now uses this email address.');
        await trx
          .updateTable('users')
          .set({ email: link.email, pending_email: null, email_verified_at: iso(now()), sessions_valid_from: iso(now()), updated_at: iso(now()) })
          .where('id', '=', link.user_id)
          .execute();
        return 'email-change';
      });
    },

    async resetPassword(link, passwordHash, alreadyUsed) {
      await db.transaction().execute(async (trx) => {
        await emailTokens.claim(trx, link.token_hash, alreadyUsed);
        await emailTokens.voidUnused(trx, link.user_id, 'password-reset');
        // Following the link proves the mailbox is the user's.
        const verifiedAt = (await trx.selectFrom('users').select('email_verified_at').where('id', '=', link.user_id).executeTakeFirstOrThrow()).email_verified_at ?? iso(now());
        await trx
          .updateTable('users')
          .set({ password_hash: passwordHash, email_verified_at: verifiedAt, sessions_valid_from: iso(now()), updated_at: iso(now()) })
          .where('id', '=', link.user_id)
          .execute();
      });
    },

    async requestEmailChange(userId, newEmail, tokenHash) {
      await db.transaction().execute(async (trx) => {
        await emailTokens.voidUnused(trx, userId, 'email-change', tokenHash);
        await trx
          .updateTable('users')
          .set({ pending_email: newEmail, updated_at: iso(now()) })
          .where('id', '=', userId)
          .execute();
      });
    },

    async changePassword(userId, passwordHash) {
      await db
        .updateTable('users')
        .set({ password_hash: passwordHash, sessions_valid_from: iso(now()), updated_at: iso(now()) })
        .where('id', '=', userId)
        .execute();
    },

    async profile(userId) {
      const user = await db.selectFrom('users').select(['name', 'email', 'email_verified_at', 'pending_email', 'created_at']).where('id', '=', userId).executeTakeFirstOrThrow();
      return { name: user.name, email: user.email, emailVerified: user.email_verified_at !== null, pendingEmail: user.pending_email, createdAt: user.created_at };
    },

    async rename(userId, name) {
      await db
        .updateTable('users')
        .set({ name, updated_at: iso(now()) })
        .where('id', '=', userId)
        .execute();
    },

    async notificationPreferences(userId) {
      const row = await db.selectFrom('users').select('notification_preferences').where('id', '=', userId).executeTakeFirstOrThrow();
      return readNotificationPreferences(row.notification_preferences);
    },

    async setNotificationPreferences(userId, preferences) {
      await db
        .updateTable('users')
        .set({ notification_preferences: JSON.stringify(preferences), updated_at: iso(now()) })
        .where('id', '=', userId)
        .execute();
    },

    mailRecipients,

    async mailRecipient(userId, topic) {
      const who = (await mailRecipients([userId])).get(userId);
      return who && { email: who.email, name: who.name, wants: wantsMail(who.preferences, topic) };
    },

    async namesAndEmails(userIds) {
      const ids = [...new Set(userIds)];
      const found = new Map<string, { name: string; email: string }>();
      for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
        const users = await db
          .selectFrom('users')
          .select(['id', 'name', 'email'])
          .where('id', 'in', ids.slice(start, start + IDS_PER_QUERY))
          .execute();
        for (const user of users) found.set(user.id, { name: user.name, email: user.email });
      }
      return found;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    users: Users;
  }
}

export default fp(
  async function users(fastify) {
    fastify.decorate('users', createUsers(fastify.db, { now: fastify.now, emailTokens: fastify.emailTokens }));
  },
  { name: 'users', dependencies: ['db', 'clock', 'email-tokens'] },
);
