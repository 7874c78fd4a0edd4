import { ACCOUNT_PATHS, EmailChangeRequest, NotificationPreferences, PasswordChangeRequest, Profile, ProfileUpdate } from '@bimi/contracts/account';
import { ApiError } from '@bimi/contracts/api-error';
import { AcceptedAnswer, passwordProblems } from '@bimi/contracts/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicBaseUrl } from '../../../config';
import { HttpError } from '../../../lib/http-error';
import { emailChangeAttemptMail, emailChangeMail } from '../../../services/mail/account-mails';
import { hashPassword, verifyPassword } from '../../../lib/passwords';
import { VERIFICATION_LIFETIME_MS } from '../../../lib/tokens';
import { currentUser } from './current-user';
import { readableGet } from './readable';

/** Profile (name, email change with re-verification, password change) and notification preferences. */
const profile: FastifyPluginAsyncZod = async (fastify) => {
  readableGet(fastify, { url: ACCOUNT_PATHS.profile, response: Profile, read: (user) => fastify.users.profile(user.id) });

  fastify.patch(ACCOUNT_PATHS.profile, { schema: { body: ProfileUpdate, response: { 200: Profile } } }, async (request) => {
    const user = currentUser(request);
    await fastify.users.rename(user.id, request.body.name);
    return fastify.users.profile(user.id);
  });

  fastify.post(
    ACCOUNT_PATHS.profileEmail,
    { schema: { body: EmailChangeRequest, response: { 202: Profile, 503: ApiError } }, config: { rateLimit: { max: 10, timeWindow: '15 minutes' } } },
    async (request, reply) => {
      const user = currentUser(request);
      const { newEmail, currentPassword } = request.body;
      const stored = await fastify.users.credentials(user.id);
      if (!(await verifyPassword(stored.passwordHash, currentPassword))) throw new HttpError(400, 'currentPassword: The current password is incorrect');
      if (newEmail === stored.email) throw new HttpError(400, 'newEmail: This is already your email address');
      // The answer is the same whether or not another account has the address (it must not tell
      // who has an account, as sign-up does not): that account's owner gets a notice instead of a
      // link, no token is made, and the asker's pending address simply never gets confirmed.
      const owner = await fastify.users.byEmail(newEmail);
      const baseUrl = publicBaseUrl(fastify.config);

      // The link's token is stored before the mail goes, so the link works the moment it arrives;
      // the request only takes effect (pending address shown, older links void) once the mail
      // server took the mail, so a failed send leaves the account as it was and a retry starts clean.
      const issued = owner ? undefined : await fastify.emailTokens.issue({ userId: user.id, purpose: 'email-change', email: newEmail, lifetimeMs: VERIFICATION_LIFETIME_MS });
      const mail = issued ? emailChangeMail(newEmail, stored.name, baseUrl, issued.token) : emailChangeAttemptMail(newEmail, owner?.name ?? '', baseUrl);
      if (!(await fastify.mailer.trySend(mail, request.log))) {
        if (issued) await fastify.emailTokens.remove(issued.tokenHash);
        return reply.code(503).send({ message: `We could not send the confirmation link to ${newEmail} just now, so your email address was not changed. Try again in a few minutes.` });
      }
      await fastify.users.requestEmailChange(user.id, newEmail, issued?.tokenHash);
      return reply.code(202).send(await fastify.users.profile(user.id));
    },
  );

  fastify.post(
    ACCOUNT_PATHS.profilePassword,
    { schema: { body: PasswordChangeRequest, response: { 200: AcceptedAnswer } }, config: { rateLimit: { max: 10, timeWindow: '15 minutes' } } },
    async (request, reply) => {
      const user = currentUser(request);
      const { currentPassword, newPassword } = request.body;
      const { passwordHash } = await fastify.users.credentials(user.id);
      if (!(await verifyPassword(passwordHash, currentPassword))) throw new HttpError(400, 'currentPassword: The current password is incorrect');
      const problem = passwordProblems(newPassword, { email: user.email })[0];
      if (problem) throw new HttpError(400, `newPassword: ${problem}`);
      await fastify.users.changePassword(user.id, await hashPassword(newPassword));
      // Whoever else knew the old password is signed out everywhere; this browser stays signed in.
      await fastify.endSessionsOf(request, reply, user.id, { keepCurrent: true });
      return { message: 'Your password was changed. You were signed out everywhere else.' };
    },
  );

  readableGet(fastify, { url: ACCOUNT_PATHS.notifications, response: NotificationPreferences, read: (user) => fastify.users.notificationPreferences(user.id) });

  fastify.put(ACCOUNT_PATHS.notifications, { schema: { body: NotificationPreferences, response: { 200: NotificationPreferences } } }, async (request) => {
    await fastify.users.setNotificationPreferences(currentUser(request).id, request.body);
    return request.body;
  });
};

export default profile;
