import type { Kysely, Transaction } from 'kysely';
import type { EmailTokenPurpose, EmailTokensTable, StoreDatabase } from '../db/schema';
import { HttpError } from './http-error';
import { hashToken, newLinkToken } from './tokens';

type Db = Kysely<StoreDatabase> | Transaction<StoreDatabase>;

/**
 * The single-use tokens of mailed links (sign-up verification, email change, password reset).
 * Only a token's hash is stored; the token itself goes out in the mail.
 */

/** Stores a new token for `email` and answers it (to put in the link) with its hash. */
export async function issueEmailToken(
  db: Db,
  link: { userId: string; purpose: EmailTokenPurpose; email: string; now: number; lifetimeMs: number; signUp?: { name: string; passwordHash: string } },
): Promise<{ token: string; tokenHash: string }> {
  const issued = newLinkToken();
  await db
    .insertInto('email_tokens')
    .values({
      token_hash: issued.tokenHash,
      user_id: link.userId,
      purpose: link.purpose,
      email: link.email,
      expires_at: new Date(link.now + link.lifetimeMs).toISOString(),
      used_at: null,
      created_at: new Date(link.now).toISOString(),
      signup_name: link.signUp?.name ?? null,
      signup_password_hash: link.signUp?.passwordHash ?? null,
    })
    .execute();
  return issued;
}

/** The stored row of a token that was issued for one of `purposes`, is unused and has not expired; else a 400 with `refusal`. */
export async function liveEmailToken(db: Db, token: string, purposes: readonly EmailTokenPurpose[], now: number, refusal: string): Promise<EmailTokensTable> {
  const record = await db.selectFrom('email_tokens').selectAll().where('token_hash', '=', hashToken(token)).where('purpose', 'in', purposes).executeTakeFirst();
  if (!record || record.used_at || record.expires_at <= new Date(now).toISOString()) throw new HttpError(400, refusal);
  return record;
}

/** Marks the token used inside the caller's transaction; when two requests race, only one claims it and the other gets a 400 with `refusal`. */
export async function claimEmailToken(trx: Transaction<StoreDatabase>, tokenHash: string, now: number, refusal: string): Promise<void> {
  const claimed = await trx
    .updateTable('email_tokens')
    .set({ used_at: new Date(now).toISOString() })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw new HttpError(400, refusal);
}
