import { AcceptedAnswer, AUTH_PATHS, RESEND_VERIFICATION_MESSAGE, ResendVerificationRequest, SignUpAnswer, SignUpRequest, VerifyEmailAnswer, VerifyEmailRequest } from '@bimi/contracts/auth';
import { ApiError } from '@bimi/contracts/api-error';
import { randomBytes } from 'node:crypto';
import { Signer } from '@fastify/cookie';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicBaseUrl } from '../../../config';
import { signUpAttemptMail, verificationMail } from '../../../services/mail/account-mails';
import { hashPassword } from '../../../lib/passwords';
import { hashToken, VERIFICATION_LIFETIME_MS } from '../../../lib/tokens';
import { refusedInOurWords } from '../../../plugins/external/rate-limit';

/** The sign-up answer, the same whether the address has an account or not (see the route). */
const signUpSentMessage = (email: string) => `We sent an email to ${email}. Open it to continue.`;
/** Names the sign-up this browser made (the hash of its link, signed), read only by "send it again". */
export const SIGN_UP_ATTEMPT_COOKIE = 'bimi_signup';
export const SIGN_UP_MAIL_FAILED = 'The email to this address could not be sent just now. Please try again in a few minutes.';

/** Sign-up, the verification of an address by its mailed link (a new account's, or an email change's), and a fresh link. */
const signUp: FastifyPluginAsyncZod = async (fastify) => {
  const baseUrl = publicBaseUrl(fastify.config);
  const production = fastify.config.nodeEnv === 'production';
  // Which sign-up this browser made, for "send it again": signed, opaque, and set after every
  // sign-up (a random value when no link went out), so it tells nobody whether the address has an account.
  const attempts = new Signer(fastify.sessionSecret);
  const attemptCookie = { path: AUTH_PATHS.resendVerification, httpOnly: true, sameSite: 'lax', secure: production, maxAge: VERIFICATION_LIFETIME_MS / 1000 } as const;

  /** The mail a sign-up sends (users.signUp says what changes) and its link's hash; undefined when a sign-up of the same address raced this one in. */
  async function signUpMail(name: string, email: string, passwordHash: string) {
    const signedUp = await fastify.users.signUp({ name, email, passwordHash });
    if (!signedUp) return undefined;
    return 'linkToken' in signedUp
      ? { mail: verificationMail(email, name, baseUrl, signedUp.linkToken), tokenHash: hashToken(signedUp.linkToken) }
      : { mail: signUpAttemptMail(email, signedUp.verifiedOwner, baseUrl), tokenHash: undefined };
  }

  fastify.post(
    AUTH_PATHS.signUp,
    {
      schema: { body: SignUpRequest, response: { 201: SignUpAnswer, 503: ApiError } },
      config: { rateLimit: { max: fastify.config.signUpRateLimitPerHour, timeWindow: '1 hour', errorResponseBuilder: refusedInOurWords } },
    },
    async (request, reply) => {
      const { name, email, password } = request.body;
      // The answer and the work are the same whether or not the address has an account (a hash,
      // a lookup, a mail), so sign-up cannot be used to learn who is a customer. What differs is
      // the mail, which only the address's owner reads.
      const passwordHash = await hashPassword(password);
      const sent = (await signUpMail(name, email, passwordHash)) ?? (await signUpMail(name, email, passwordHash));
      if (!sent) throw new Error('sign-up: the account changed twice while signing up');
      reply.setCookie(SIGN_UP_ATTEMPT_COOKIE, attempts.sign(sent.tokenHash ?? hashToken(randomBytes(32).toString('base64url'))), attemptCookie);
      if (!(await fastify.mailer.trySend(sent.mail, request.log))) {
        // Signing up again is safe: it sends a fresh link to the account made now.
        return reply.code(503).send({ message: SIGN_UP_MAIL_FAILED });
      }
      return reply.code(201).send({ email, message: signUpSentMessage(email) });
    },
  );

  // Each sign-up brings a verification: an address allowed more sign-ups (SIGNUP_RATE_LIMIT_PER_HOUR,
  // which the e2e server raises) is allowed as many verifications; 30 per 15 minutes otherwise.
  const verificationsPer15Minutes = Math.max(30, fastify.config.signUpRateLimitPerHour);
  fastify.post(
    AUTH_PATHS.verify,
    {
      schema: { body: VerifyEmailRequest, response: { 200: VerifyEmailAnswer } },
      config: { rateLimit: { max: verificationsPer15Minutes, timeWindow: '15 minutes', errorResponseBuilder: refusedInOurWords } },
    },
    async (request, reply) => {
      // A sign-up link followed again once the address is verified (a second click, a mail program
      // that opened it first): nothing to get a new one for, so the answer says it is verified.
      const followed = await fastify.emailTokens.find(request.body.token, ['signup']);
      if (followed?.used_at) {
        const user = await fastify.users.verification(followed.user_id);
        // Only a link of the account's own sign-up (its credentials are the account's, or it carries none):
        // another sign-up's link with the same address stays refused, and says nothing of the account.
        const own = !followed.signup_password_hash || followed.signup_password_hash === user?.passwordHash;
        if (user?.emailVerified && user.email === followed.email && own) {
          return { purpose: 'signup' as const, email: followed.email, message: 'This link was already used: your email address is verified. You can sign in.' };
        }
      }
      const link = await fastify.emailTokens.live(request.body.token, ['signup', 'email-change'], 'This verification link is invalid, already used or expired. Sign in to get a new one.');
      const purpose = await fastify.users.followEmailLink(link, 'This verification link was already used.');
      if (purpose === 'signup') return { purpose, email: link.email, message: 'Your email address is verified. You can sign in now.' };
      // The account now answers to another address: its sessions elsewhere end, and a browser
      // signed in as this user, which is following the link, stays signed in.
      await fastify.endSessionsOf(request, reply, link.user_id, { keepCurrent: true });
      return { purpose, email: link.email, message: `Your account's email address is now ${link.email}.` };
    },
  );

  fastify.post(
    AUTH_PATHS.resendVerification,
    { schema: { body: ResendVerificationRequest, response: { 202: AcceptedAnswer } }, config: { rateLimit: { max: 5, timeWindow: '15 minutes', errorResponseBuilder: refusedInOurWords } } },
    async (request, reply) => {
      const user = await fastify.users.byEmail(request.body.email);
      if (user && !user.emailVerified) {
        // This browser's sign-up again (else the newest), with its own name and password. A link
        // without them would verify the account's first sign-up, which may be a stranger's who used
        // the address first; the newest alone may be a stranger's who signed up after the owner.
        const attempt = request.cookies[SIGN_UP_ATTEMPT_COOKIE] ? attempts.unsign(request.cookies[SIGN_UP_ATTEMPT_COOKIE]) : undefined;
        const own = attempt?.valid && attempt.value ? await fastify.emailTokens.signUpOf(attempt.value, user.id) : undefined;
        const signUp = own ?? (await fastify.emailTokens.latestSignUp(user.id));
        const { token } = await fastify.emailTokens.issue({ userId: user.id, purpose: 'signup', email: user.email, lifetimeMs: VERIFICATION_LIFETIME_MS, ...(signUp && { signUp }) });
        await fastify.mailer.trySend(verificationMail(user.email, signUp?.name ?? user.name, baseUrl, token), request.log);
      }
      return reply.code(202).send({ message: RESEND_VERIFICATION_MESSAGE });
    },
  );
};

export default signUp;
