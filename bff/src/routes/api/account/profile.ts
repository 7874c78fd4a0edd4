import { ACCOUNT_PATHS, EmailChangeRequest, NotificationPreferences, PasswordChangeRequest, Profile, ProfileUpdate } from '@bimi/contracts/account';
import { ApiError } from '@bimi/contracts/api-error';
import { AcceptedAnswer, passwordProblems } from '@bimi/contracts/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicBaseUrl } from '../../../config';
import { HttpError } from '../../../lib/http-error';
import { emailChangeAttemptMail, emailChangeMail } from '../../../lib/mail-texts';
import { hashPassword, verifyPassword } from '../../../lib/passwords';
import { issueEmailToken } from '../../../lib/email-tokens';
import { VERIFICATION_LIFETIME_MS } from '../../../lib/tokens';
import { currentUser } from './current-user';

/** Profile (name, email change with re-verification, password change) and notification preferences. */
const profile: FastifyPluginAsyncZod = async (fastify) => {
  const iso = () => new Date(fastify.now()).toISOString();

  async function loadProfile(userId: string): Promise<Profile> {
    const user = await fastify.db
      .selectFrom('users')
      .select(['name', 'email', 'email_verified_at', 'pending_email', 'created_at'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return { name: user.name, email: user.email, emailVerified: user.email_verified_at !== null, pendingEmail: user.pending_email, createdAt: user.created_at };
  }

  fastify.get(ACCOUNT_PATHS.profile, { schema: { response: { 200: Profile } } }, async (request) => loadProfile(currentUser(request).id));

  fastify.patch(ACCOUNT_PATHS.profile, { schema: { body: ProfileUpdate, response: { 200: Profile } } }, async (request) => {
    const user = currentUser(request);
    await fastify.db.updateTable('users').set({ name: request.body.name, updated_at: iso() }).where('id', '=', user.id).execute();
    return loadProfile(user.id);
  });

  fastify.post(
    ACCOUNT_PATHS.profileEmail,
    { schema: { body: EmailChangeRequest, response: { 202: Profile, 503: ApiError } }, config: { rateLimit: { max: 10, timeWindow: '15 minutes' } } },
    async (request, reply) => {
      const user = currentUser(request);
      const { newEmail, currentPassword } = request.body;
      const stored = await fastify.db.selectFrom('users').select(['password_hash', 'email', 'name']).where('id', '=', user.id).executeTakeFirstOrThrow();
      if (!(await verifyPassword(stored.password_hash, currentPassword))) throw new HttpError(400, 'currentPassword: The current password is incorrect');
      if (newEmail === stored.email) throw new HttpError(400, 'newEmail: This is already your email address');
      // The answer is the same whether or not another account has the address (it must not tell
      // who has an account, as sign-up does not): that account's owner gets a notice instead of a
      // link, no token is made, and the asker's pending address simply never gets confirmed.
      const owner = await fastify.db.selectFrom('users').select('name').where('email', '=', newEmail).executeTakeFirst();
      const baseUrl = publicBaseUrl(fastify.config);

      // The link's token is stored before the mail goes, so the link works the moment it arrives;
      // the request only takes effect (pending address shown, older links void) once the mail
      // server took the mail, so a failed send leaves the account as it was and a retry starts clean.
      const issued = owner
        ? undefined
        : await issueEmailToken(fastify.db, { userId: user.id, purpose: 'email-change', email: newEmail, now: fastify.now(), lifetimeMs: VERIFICATION_LIFETIME_MS });
      const mail = issued ? emailChangeMail(newEmail, stored.name, baseUrl, issued.token) : emailChangeAttemptMail(newEmail, owner?.name ?? '', baseUrl);
      if (!(await fastify.mailer.trySend(mail, request.log))) {
        if (issued) await fastify.db.deleteFrom('email_tokens').where('token_hash', '=', issued.tokenHash).execute();
        return reply
          .code(503)
          .send({ message: `We could not send the confirmation link to ${newEmail} just now, so your email address was not changed. Try again in a few minutes.` });
      }
      await fastify.db.transaction().execute(async (trx) => {
        // Only the newest address asked for can be confirmed.
        await trx
          .updateTable('email_tokens')
          .set({ used_at: iso() })
          .where('user_id', '=', user.id)
          .where('purpose', '=', 'email-change')
          .where('used_at', 'is', null)
          .where('token_hash', '!=', issued?.tokenHash ?? '')
          .execute();
        await trx.updateTable('users').set({ pending_email: newEmail, updated_at: iso() }).where('id', '=', user.id).execute();
      });
      return reply.code(202).send(await loadProfile(user.id));
    },
  );

  fastify.post(
    ACCOUNT_PATHS.profilePassword,
    { schema: { body: PasswordChangeRequest, response: { 200: AcceptedAnswer } }, config: { rateLimit: { max: 10, timeWindow: '15 minutes' } } },
    async (request, reply) => {
      const user = currentUser(request);
      const { currentPassword, newPassword } = request.body;
      const stored = await fastify.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
      if (!(await verifyPassword(stored.password_hash, currentPassword))) throw new HttpError(400, 'currentPassword: The current password is incorrect');
      const problem = passwordProblems(newPassword, { email: user.email })[0];
      if (problem) throw new HttpError(400, `newPassword: ${problem}`);
      const passwordHash = await hashPassword(newPassword);
      await fastify.db.updateTable('users').set({ password_hash: passwordHash, sessions_valid_from: iso(), updated_at: iso() }).where('id', '=', user.id).execute();
      // Whoever else knew the old password is signed out everywhere; this browser stays signed in.
      await fastify.endSessionsOf(request, reply, user.id, { keepCurrent: true });
      return { message: 'Your password was changed. You were signed out everywhere else.' };
    },
  );

  fastify.get(ACCOUNT_PATHS.notifications, { schema: { response: { 200: NotificationPreferences } } }, async (request) => {
    const row = await fastify.db.selectFrom('users').select('notification_preferences').where('id', '=', currentUser(request).id).executeTakeFirstOrThrow();
    return NotificationPreferences.parse(JSON.parse(row.notification_preferences));
  });

  fastify.put(ACCOUNT_PATHS.notifications, { schema: { body: NotificationPreferences, response: { 200: NotificationPreferences } } }, async (request) => {
    await fastify.db
      .updateTable('users')
      .set({ notification_preferences: JSON.stringify(request.body), updated_at: iso() })
      .where('id', '=', currentUser(request).id)
      .execute();
    return request.body;
  });
};

export default profile;
