import {
  AcceptedAnswer,
  AUTH_PATHS,
  ClientLogForm,
  CredentialsSignInForm,
  CSRF_HEADER,
  FORGOT_PASSWORD_MESSAGE,
  ForgotPasswordRequest,
  passwordProblems,
  RESEND_VERIFICATION_MESSAGE,
  ResendVerificationRequest,
  ResetPasswordRequest,
  SIGN_IN_ERRORS,
  SignOutForm,
  SignUpAnswer,
  SignUpRequest,
  tooManyAttemptsMessage,
  VerifyEmailAnswer,
  VerifyEmailRequest,
  type SessionAnswer,
  type SignInError,
} from '@bimi/contracts/auth';
import { PartnerSignUpRequest } from '@bimi/contracts/partners';
import { NOTIFICATION_DEFAULTS } from '@bimi/contracts/account';
import { ApiError } from '@bimi/contracts/api-error';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicBaseUrl } from '../../../config';
import { CSRF_REFUSED, csrfCookieName, newCsrfCookieValue, tokenFromCsrfCookie } from '../../../lib/csrf';
import { passwordResetMail, signUpAttemptMail, verificationMail } from '../../../lib/mail-texts';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../../../lib/passwords';
import { claimEmailToken, issueEmailToken, liveEmailToken } from '../../../lib/email-tokens';
import { newId, RESET_LIFETIME_MS, VERIFICATION_LIFETIME_MS } from '../../../lib/tokens';
import { HttpError, isUniqueViolation } from '../../../lib/http-error';
import { signInLimits } from '../../../lib/sign-in-limits';
import { refusedInOurWords } from '../../../plugins/external/rate-limit';
import { sessionEndsAt } from '../../../plugins/app/session-stores';

/** The sign-up answer, the same whether the address has an account or not (see the route). */
const signUpSentMessage = (email: string) => `We sent an email to ${email}. Open it to continue.`;
const SIGN_UP_MAIL_FAILED = 'The email to this address could not be sent just now. Please try again in a few minutes.';

/**
 * /api/auth: the endpoints NextAuth's client calls (spec §7), answered as NextAuth v4 answers
 * them, and the JSON endpoints of sign-up, verification, password reset and partner sign-up.
 */
const auth: FastifyPluginAsyncZod = async (fastify) => {
  const { config } = fastify;
  const production = config.nodeEnv === 'production';
  const baseUrl = publicBaseUrl(config);
  const iso = () => new Date(fastify.now()).toISOString();

  /** Where to send the browser after sign-in or sign-out: only this site, as NextAuth's default redirect callback. */
  function safeCallbackUrl(callbackUrl: unknown, fallbackPath: string): string {
    if (typeof callbackUrl === 'string') {
      if (callbackUrl.startsWith('/') && !callbackUrl.startsWith('//')) return `${baseUrl}${callbackUrl}`;
      try {
        if (new URL(callbackUrl).origin === new URL(baseUrl).origin) return callbackUrl;
      } catch {
        // Not a URL: fall back below.
      }
    }
    return `${baseUrl}${fallbackPath}`;
  }

  const signInErrorUrl = (error: SignInError) => `${baseUrl}/auth/signin?${new URLSearchParams({ error })}`;

  function refuseSignIn(reply: FastifyReply, status: number, error: SignInError) {
    return reply.code(status).send({ url: signInErrorUrl(error), message: SIGN_IN_ERRORS[error] });
  }

  /** Our JSON endpoints take the CSRF token in a header (NextAuth's own forms carry it in the body). */
  async function requireCsrfHeader(request: FastifyRequest, reply: FastifyReply) {
    if (!fastify.isValidCsrfRequest(request, request.headers[CSRF_HEADER])) {
      return reply.code(403).send({ message: CSRF_REFUSED });
    }
  }

  const limits = signInLimits(fastify);

  fastify.get(AUTH_PATHS.session, async (request, reply): Promise<SessionAnswer> => {
    reply.header('cache-control', 'no-store');
    const user = request.sessionUser;
    if (!user) return {};
    return { user: { name: user.name, email: user.email, image: null }, expires: new Date(sessionEndsAt(request.session, fastify.now())).toISOString() };
  });

  fastify.get(AUTH_PATHS.csrf, async (request, reply) => {
    const cookieName = csrfCookieName(production);
    let csrfToken = tokenFromCsrfCookie(request.cookies[cookieName], fastify.sessionSecret);
    if (!csrfToken) {
      const fresh = newCsrfCookieValue(fastify.sessionSecret);
      csrfToken = fresh.token;
      reply.setCookie(cookieName, fresh.cookieValue, { path: '/', httpOnly: true, sameSite: 'lax', secure: production });
    }
    return reply.header('cache-control', 'no-store').send({ csrfToken });
  });

  fastify.get(AUTH_PATHS.providers, async () => ({
    credentials: {
      id: 'credentials',
      name: 'Credentials',
      type: 'credentials',
      signinUrl: `${baseUrl}/api/auth/signin/credentials`,
      callbackUrl: `${baseUrl}${AUTH_PATHS.credentialsCallback}`,
    },
  }));

  // NextAuth's client falls back to its own sign-in and error pages; ours is /auth/signin for both.
  const pageQuery = z.object({ callbackUrl: z.string().max(2048).optional(), error: z.string().max(64).optional() });
  const toSignInPage = (query: z.infer<typeof pageQuery>, reply: FastifyReply) => {
    const target = new URLSearchParams();
    if (query.callbackUrl) target.set('callbackUrl', query.callbackUrl);
    if (query.error !== undefined) target.set('error', query.error in SIGN_IN_ERRORS ? query.error : 'Configuration');
    const search = target.toString();
    return reply.redirect(search ? `/auth/signin?${search}` : '/auth/signin', 302);
  };
  fastify.get(AUTH_PATHS.signInPage, { schema: { querystring: pageQuery } }, async (request, reply) => toSignInPage(request.query, reply));
  fastify.get(`${AUTH_PATHS.signInPage}/:provider`, { schema: { querystring: pageQuery } }, async (request, reply) => toSignInPage(request.query, reply));
  fastify.get(AUTH_PATHS.errorPage, { schema: { querystring: pageQuery } }, async (request, reply) =>
    toSignInPage({ ...request.query, error: request.query.error ?? 'Configuration' }, reply),
  );

  // NextAuth's forms carry the CSRF token in the body, checked here; the sessions plugin checks Origin.
  fastify.post(AUTH_PATHS.credentialsCallback, { config: { csrf: 'form' } }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (!fastify.isValidCsrfRequest(request, body.csrfToken)) return refuseSignIn(reply, 403, 'MissingCSRF');

    // Counted per account as typed (an invalid form counts against the address all the same).
    const email = String(body.email ?? '').trim().toLowerCase().slice(0, 320);
    const limited = await limits.admit(request, email);
    if (limited) {
      return reply
        .header('retry-after', String(Math.ceil(limited.waitMs / 1000)))
        .code(429)
        .send({ url: signInErrorUrl('TooManyAttempts'), message: tooManyAttemptsMessage(limited.waitMs) });
    }

    const form = CredentialsSignInForm.safeParse(body);
    if (!form.success) {
      await limits.failed(request, email);
      return refuseSignIn(reply, 401, 'CredentialsSignin');
    }
    const user = await fastify.db
      .selectFrom('users')
      .select(['id', 'password_hash', 'email_verified_at'])
      .where('email', '=', form.data.email)
      .executeTakeFirst();
    const passwordMatches = await verifyPassword(user?.password_hash ?? (await decoyPasswordHash()), form.data.password);
    if (!user || !passwordMatches) {
      await limits.failed(request, email);
      return refuseSignIn(reply, 401, 'CredentialsSignin');
    }
    // The right password, verified address or not: this pair's failures stop counting.
    await limits.succeeded(request, email);
    if (!user.email_verified_at) return refuseSignIn(reply, 403, 'EmailNotVerified');

    await fastify.startSession(request, user.id);
    request.log.info({ userId: user.id }, 'signed in');
    return { url: safeCallbackUrl(form.data.callbackUrl, '/account/dashboard') };
  });

  fastify.post(AUTH_PATHS.signOut, { config: { csrf: 'form' } }, async (request, reply) => {
    const form = SignOutForm.safeParse(request.body ?? {});
    if (!form.success || !fastify.isValidCsrfRequest(request, form.data.csrfToken)) {
      return reply.code(403).send({ url: `${baseUrl}/auth/signin`, message: 'Missing or invalid CSRF token' });
    }
    await fastify.endSession(request, reply);
    return { url: safeCallbackUrl(form.data.callbackUrl, '/auth/signin') };
  });

  // NextAuth's client logger beacons without a token: same-site Origin only.
  fastify.post(AUTH_PATHS.log, { config: { rateLimit: { max: 60, timeWindow: '1 minute', errorResponseBuilder: refusedInOurWords }, csrf: 'origin' } }, async (request, reply) => {
    const form = ClientLogForm.safeParse(request.body ?? {});
    if (!form.success) return reply.code(400).send({ message: 'level and code are required' });
    const { level, code, ...metadata } = form.data;
    request.log[level === 'debug' ? 'debug' : level]({ code, metadata }, 'authentication client log');
    return {};
  });

  // ---- our JSON endpoints ----

  fastify.post(
    AUTH_PATHS.signUp,
    {
      schema: { body: SignUpRequest, response: { 201: SignUpAnswer, 503: ApiError } },
      preHandler: requireCsrfHeader,
      config: { rateLimit: { max: fastify.config.signUpRateLimitPerHour, timeWindow: '1 hour', errorResponseBuilder: refusedInOurWords } },
    },
    async (request, reply) => {
      const { name, email, password } = request.body;
      // The answer and the work are the same whether or not the address has an account (a hash,
      // a lookup, a mail), so sign-up cannot be used to learn who is a customer. What differs is
      // the mail, which only the address's owner reads.
      const passwordHash = await hashPassword(password);
      const mail = (await signUpMail(name, email, passwordHash)) ?? (await signUpMail(name, email, passwordHash));
      if (!mail) throw new Error('sign-up: the account changed twice while signing up');
      if (!(await fastify.mailer.trySend(mail, request.log))) {
        // Signing up again is safe: it sends a fresh link to the account made now.
        return reply.code(503).send({ message: SIGN_UP_MAIL_FAILED });
      }
      return reply.code(201).send({ email, message: signUpSentMessage(email) });
    },
  );

  /**
   * The mail a sign-up sends: for a new address, a new account and its verification link; for an
   * account not yet verified, a fresh link that carries the name and password just given, applied
   * only when that link is followed (nobody has proved the address yet: a stranger signing up again
   * with it must not change the password of the owner who signed up before, nor the other way
   * round); for a verified account, nothing changes and its owner hears someone tried. Null when a
   * sign-up of the same address raced this one in (try again: the account now exists).
   */
  async function signUpMail(name: string, email: string, passwordHash: string) {
    const existing = await fastify.db.selectFrom('users').select(['id', 'name', 'email_verified_at']).where('email', '=', email).executeTakeFirst();
    if (existing?.email_verified_at) return signUpAttemptMail(email, existing.name, baseUrl);
    const userId = existing?.id ?? newId();
    try {
      const token = await fastify.db.transaction().execute(async (trx) => {
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
              created_at: iso(),
              updated_at: iso(),
            })
            .execute();
        }
        const signUp = { name, passwordHash };
        return (await issueEmailToken(trx, { userId, purpose: 'signup', email, now: fastify.now(), lifetimeMs: VERIFICATION_LIFETIME_MS, signUp })).token;
      });
      return verificationMail(email, name, baseUrl, token);
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  fastify.post(
    AUTH_PATHS.verify,
    { schema: { body: VerifyEmailRequest, response: { 200: VerifyEmailAnswer } }, preHandler: requireCsrfHeader, config: { rateLimit: { max: 30, timeWindow: '15 minutes', errorResponseBuilder: refusedInOurWords } } },
    async (request, reply) => {
      const record = await liveEmailToken(
        fastify.db,
        request.body.token,
        ['signup', 'email-change'],
        fastify.now(),
        'This verification link is invalid, already used or expired. Sign in to get a new one.',
      );
      const answer = await fastify.db.transaction().execute(async (trx) => {
        await claimEmailToken(trx, record.token_hash, fastify.now(), 'This verification link was already used.');
        if (record.purpose === 'signup') {
          // The link's own sign-up credentials (resend links carry none: the account keeps its own).
          const credentials = record.signup_password_hash && record.signup_name ? { name: record.signup_name, password_hash: record.signup_password_hash } : {};
          await trx.updateTable('users').set({ ...credentials, email_verified_at: iso(), updated_at: iso() }).where('id', '=', record.user_id).execute();
          // Any other sign-up link of the account now stops working, so none can change its password later.
          await trx.updateTable('email_tokens').set({ used_at: iso() }).where('user_id', '=', record.user_id).where('purpose', '=', 'signup').where('used_at', 'is', null).execute();
          return { purpose: 'signup' as const, email: record.email, message: 'Your email address is verified. You can sign in now.' };
        }
        const taken = await trx.selectFrom('users').select('id').where('email', '=', record.email).where('id', '!=', record.user_id).executeTakeFirst();
        if (taken) throw new HttpError(409, 'Another account now uses this email address.');
        await trx
          .updateTable('users')
          .set({ email: record.email, pending_email: null, email_verified_at: iso(), sessions_valid_from: iso(), updated_at: iso() })
          .where('id', '=', record.user_id)
          .execute();
        return { purpose: 'email-change' as const, email: record.email, message: `Your account's email address is now ${record.email}.` };
      });
      // The account now answers to another address: its sessions elsewhere end, and a browser
      // signed in as this user, which is following the link, stays signed in.
      if (answer.purpose === 'email-change') await fastify.endSessionsOf(request, reply, record.user_id, { keepCurrent: true });
      return answer;
    },
  );

  fastify.post(
    AUTH_PATHS.resendVerification,
    { schema: { body: ResendVerificationRequest, response: { 202: AcceptedAnswer } }, preHandler: requireCsrfHeader, config: { rateLimit: { max: 5, timeWindow: '15 minutes', errorResponseBuilder: refusedInOurWords } } },
    async (request, reply) => {
      const user = await fastify.db.selectFrom('users').select(['id', 'name', 'email', 'email_verified_at']).where('email', '=', request.body.email).executeTakeFirst();
      if (user && !user.email_verified_at) {
        const { token } = await issueEmailToken(fastify.db, { userId: user.id, purpose: 'signup', email: user.email, now: fastify.now(), lifetimeMs: VERIFICATION_LIFETIME_MS });
        await fastify.mailer.trySend(verificationMail(user.email, user.name, baseUrl, token), request.log);
      }
      return reply.code(202).send({ message: RESEND_VERIFICATION_MESSAGE });
    },
  );

  fastify.post(
    AUTH_PATHS.forgotPassword,
    { schema: { body: ForgotPasswordRequest, response: { 202: AcceptedAnswer } }, preHandler: requireCsrfHeader, config: { rateLimit: { max: 5, timeWindow: '15 minutes', errorResponseBuilder: refusedInOurWords } } },
    async (request, reply) => {
      const user = await fastify.db.selectFrom('users').select(['id', 'name', 'email']).where('email', '=', request.body.email).executeTakeFirst();
      if (user) {
        const { token } = await issueEmailToken(fastify.db, { userId: user.id, purpose: 'password-reset', email: user.email, now: fastify.now(), lifetimeMs: RESET_LIFETIME_MS });
        await fastify.mailer.trySend(passwordResetMail(user.email, user.name, baseUrl, token), request.log);
      }
      return reply.code(202).send({ message: FORGOT_PASSWORD_MESSAGE });
    },
  );

  fastify.post(
    AUTH_PATHS.resetPassword,
    { schema: { body: ResetPasswordRequest, response: { 200: AcceptedAnswer } }, preHandler: requireCsrfHeader, config: { rateLimit: { max: 10, timeWindow: '15 minutes', errorResponseBuilder: refusedInOurWords } } },
    async (request, reply) => {
      const record = await liveEmailToken(fastify.db, request.body.token, ['password-reset'], fastify.now(), 'This reset link is invalid, already used or expired. Ask for a new one.');
      const user = await fastify.db.selectFrom('users').select('email').where('id', '=', record.user_id).executeTakeFirstOrThrow();
      const problem = passwordProblems(request.body.password, { email: user.email })[0];
      if (problem) throw new HttpError(400, `password: ${problem}`);
      const passwordHash = await hashPassword(request.body.password);
      await fastify.db.transaction().execute(async (trx) => {
        await claimEmailToken(trx, record.token_hash, fastify.now(), 'This reset link was already used.');
        // Every other reset link of the account stops working too.
        await trx.updateTable('email_tokens').set({ used_at: iso() }).where('user_id', '=', record.user_id).where('purpose', '=', 'password-reset').where('used_at', 'is', null).execute();
        // Following the link proves the mailbox is the user's.
        const verifiedAt = (await trx.selectFrom('users').select('email_verified_at').where('id', '=', record.user_id).executeTakeFirstOrThrow()).email_verified_at ?? iso();
        await trx
          .updateTable('users')
          .set({ password_hash: passwordHash, email_verified_at: verifiedAt, sessions_valid_from: iso(), updated_at: iso() })
          .where('id', '=', record.user_id)
          .execute();
      });
      // A reset means the old password may be known to someone else: every session ends, this one too.
      await fastify.endSessionsOf(request, reply, record.user_id, { keepCurrent: false });
      return { message: 'Your password was changed. You were signed out everywhere; sign in with the new password.' };
    },
  );

  fastify.post(
    AUTH_PATHS.partnerSignUp,
    { schema: { body: PartnerSignUpRequest, response: { 201: AcceptedAnswer } }, preHandler: requireCsrfHeader, config: { rateLimit: { max: 5, timeWindow: '1 hour', errorResponseBuilder: refusedInOurWords } } },
    async (request, reply) => {
      const { company, website, contactName, email, phone, message } = request.body;
      await fastify.db
        .insertInto('partner_applications')
        .values({
          id: newId(),
          company,
          website: /^https?:\/\//i.test(website) ? website : `https://${website}`,
          contact_name: contactName,
          email,
          phone: phone || null,
          message: message || null,
          status: 'pending',
          created_at: iso(),
        })
        .execute();
      return reply.code(201).send({ message: 'Thank you. Our partner team will review your application and reply by email.' });
    },
  );
};

export default auth;
