import fp from 'fastify-plugin';
import type { Kysely, Transaction } from 'kysely';
import type { EmailTokenPurpose, EmailTokensTable, StoreDatabase } from '../../../db/schema';
import { HttpError } from '../../../lib/http-error';
import { hashToken, newLinkToken } from '../../../lib/tokens';
import { iso } from '../../../lib/iso';

type Trx = Transaction<StoreDatabase>;

export interface SignUpCredentials {
  name: string;
  passwordHash: string;
}

const credentialsOf = (row: { signup_name: string | null; signup_password_hash: string | null } | undefined): SignUpCredentials | undefined =>
  row?.signup_name && row.signup_password_hash ? { name: row.signup_name, passwordHash: row.signup_password_hash } : undefined;

/** What a mailed link is for, and for whom. */
export interface EmailLink {
  userId: string;
  purpose: EmailTokenPurpose;
  email: string;
  lifetimeMs: number;
  /** A sign-up link's own name and password, applied when the link is followed. */
  signUp?: SignUpCredentials;
}

/**
 * The single-use tokens of mailed links (sign-up verification, email change, password reset).
 * Only a token's hash is stored; the token itself goes out in the mail.
 */
export interface EmailTokens {
  /** Stores a new token (inside `trx` when given) and answers it, to put in the link, with its hash. */
  issue(link: EmailLink, trx?: Trx): Promise<{ token: string; tokenHash: string }>;
  /** The stored row of a token that was issued for one of `purposes`, is unused and has not expired; else a 400 with `refusal`. */
  live(token: string, purposes: readonly EmailTokenPurpose[], refusal: string): Promise<EmailTokensTable>;
  /** The link of `token` whatever its state (used, expired), or undefined: to say what became of it. */
  find(token: string, purposes: readonly EmailTokenPurpose[]): Promise<EmailTokensTable | undefined>;
  /** Marks the token used inside the caller's transaction; when two requests race, only one claims it and the other gets a 400 with `refusal`. */
  claim(trx: Trx, tokenHash: string, refusal: string): Promise<void>;
  /** Inside the caller's transaction, makes the user's unused links of `purpose` stop working, all but `except`. */
  voidUnused(trx: Trx, userId: string, purpose: EmailTokenPurpose, except?: string): Promise<void>;
  /** The name and password of the user's sign-up link `tokenHash` while it is unused; undefined otherwise. */
  signUpOf(tokenHash: string, userId: string): Promise<SignUpCredentials | undefined>;
  /**
   * The name and password of the user's newest sign-up link not yet used (expired or not: they are
   * still what that sign-up chose), for a fresh link of that sign-up; undefined when none carries any.
   */
  latestSignUp(userId: string): Promise<SignUpCredentials | undefined>;
  /** Forgets a token whose mail did not go. */
  remove(tokenHash: string): Promise<void>;
}

export function createEmailTokens(db: Kysely<StoreDatabase>, now: () => number): EmailTokens {
  return {
    async issue(link, trx) {
      const issued = newLinkToken();
      const at = now();
      await (trx ?? db)
        .insertInto('email_tokens')
        .values({
          token_hash: issued.tokenHash,
          user_id: link.userId,
          purpose: link.purpose,
          email: link.email,
          expires_at: iso(at + link.lifetimeMs),
          used_at: null,
          created_at: iso(at),
          signup_name: link.signUp?.name ?? null,
          signup_password_hash: link.signUp?.passwordHash ?? null,
        })
        .execute();
      return issued;
    },

    async live(token, purposes, refusal) {
      const record = await db.selectFrom('email_tokens').selectAll().where('token_hash', '=', hashToken(token)).where('purpose', 'in', purposes).executeTakeFirst();
      if (!record || record.used_at || record.expires_at <= iso(now())) throw new HttpError(400, refusal);
      return record;
    },

    async find(token, purposes) {
      return db.selectFrom('email_tokens').selectAll().where('token_hash', '=', hashToken(token)).where('purpose', 'in', purposes).executeTakeFirst();
    },

    async claim(trx, tokenHash, refusal) {
      const claimed = await trx
        .updateTable('email_tokens')
        .set({ used_at: iso(now()) })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new HttpError(400, refusal);
    },

    async voidUnused(trx, userId, purpose, except) {
      let unused = trx
        .updateTable('email_tokens')
        .set({ used_at: iso(now()) })
        .where('user_id', '=', userId)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null);
      if (except) unused = unused.where('token_hash', '!=', except);
      await unused.execute();
    },

    async signUpOf(tokenHash, userId) {
      const row = await db
        .selectFrom('email_tokens')
        .select(['signup_name', 'signup_password_hash'])
        .where('token_hash', '=', tokenHash)
        .where('user_id', '=', userId)
        .where('purpose', '=', 'signup')
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return credentialsOf(row);
    },

    async latestSignUp(userId) {
      const row = await db
        .selectFrom('email_tokens')
        .select(['signup_name', 'signup_password_hash'])
        .where('user_id', '=', userId)
        .where('purpose', '=', 'signup')
        .where('used_at', 'is', null)
        .where('signup_password_hash', 'is not', null)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return credentialsOf(row);
    },

    async remove(tokenHash) {
      await db.deleteFrom('email_tokens').where('token_hash', '=', tokenHash).execute();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    emailTokens: EmailTokens;
  }
}

export default fp(
  async function emailTokens(fastify) {
    fastify.decorate('emailTokens', createEmailTokens(fastify.db, fastify.now));
  },
  { name: 'email-tokens', dependencies: ['db', 'clock'] },
);
