import { AcceptedAnswer, AUTH_PATHS, FORGOT_PASSWORD_MESSAGE, ForgotPasswordRequest, passwordProblems, ResetPasswordRequest } from '@bimi/contracts/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicBaseUrl } from '../../../config';
import { HttpError } from '../../../lib/http-error';
import { passwordResetMail } from '../../../services/mail/account-mails';
import { hashPassword } from '../../../lib/passwords';
import { RESET_LIFETIME_MS } from '../../../lib/tokens';
import { refusedInOurWords } from '../../../plugins/external/rate-limit';

/** A forgotten password: the reset link by mail, and the new password it sets. */
const passwordReset: FastifyPluginAsyncZod = async (fastify) => {
  const baseUrl = publicBaseUrl(fastify.config);

  fastify.post(
    AUTH_PATHS.forgotPassword,
    { schema: { body: ForgotPasswordRequest, response: { 202: AcceptedAnswer } }, config: { rateLimit: { max: 5, timeWindow: '15 minutes', errorResponseBuilder: refusedInOurWords } } },
    async (request, reply) => {
      const user = await fastify.users.byEmail(request.body.email);
      if (user) {
        const { token } = await fastify.emailTokens.issue({ userId: user.id, purpose: 'password-reset', email: user.email, lifetimeMs: RESET_LIFETIME_MS });
        await fastify.mailer.trySend(passwordResetMail(user.email, user.name, baseUrl, token), request.log);
      }
      return reply.code(202).send({ message: FORGOT_PASSWORD_MESSAGE });
    },
  );

  fastify.post(
    AUTH_PATHS.resetPassword,
    { schema: { body: ResetPasswordRequest, response: { 200: AcceptedAnswer } }, config: { rateLimit: { max: 10, timeWindow: '15 minutes', errorResponseBuilder: refusedInOurWords } } },
    async (request, reply) => {
      const link = await fastify.emailTokens.live(request.body.token, ['password-reset'], 'This reset link is invalid, already used or expired. Ask for a new one.');
      const { email } = await fastify.users.credentials(link.user_id);
      const problem = passwordProblems(request.body.password, { email })[0];
      if (problem) throw new HttpError(400, `password: ${problem}`);
      await fastify.users.resetPassword(link, await hashPassword(request.body.password), 'This reset link was already used.');
      // A reset means the old password may be known to someone else: every session ends, this one too.
      await fastify.endSessionsOf(request, reply, link.user_id, { keepCurrent: false });
      return { message: 'Your password was changed. You were signed out everywhere; sign in with the new password.' };
    },
  );
};

export default passwordReset;
