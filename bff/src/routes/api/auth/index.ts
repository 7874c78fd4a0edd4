import {
  AcceptedAnswer,
  AUTH_PATHS,
  ClientLogForm,
  CredentialsSignInForm,
  CSRF_HEADER,
  FORGOT_PASSWORD_MESSAGE,
  ForgotPasswordRequest,
  PartnerSignUpRequest,
  passwordProblems,
  RESEND_VERIFICATION_MESSAGE,
  ResendVerificationRequest,
  ResetPasswordRequest,
  SIGN_IN_ERRORS,
  SignOutForm,
  SignUpAnswer,
  SignUpRequest,
  VerifyEmailAnswer,
  VerifyEmailRequest,
  type SessionAnswer,
  type SignInError,
} from '@bimi/contracts/auth';
import { NOTIFICATION_DEFAULTS } from '@bimi/contracts/account';
import { ApiError } from '@bimi/contracts/api-error';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicBaseUrl } from '../../../config';
import { CSRF_REFUSED, csrfCookieName, newCsrfCookieValue, tokenFromCsrfCookie } from '../../../lib/csrf';
import { passwordResetMail, verificationMail } from '../../../lib/mail-texts';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../../../lib/passwords';
import { claimEmailToken, issueEmailToken, liveEmailToken } from '../../../lib/email-tokens';
import { newId, RESET_LIFETIME_MS, VERIFICATION_LIFETIME_MS } from '../../../lib/tokens';
import { HttpError, isUniqueViolation } from '../../../lib/http-error';
import { sessionEndsAt } from '../../../plugins/app/session-stores';

const ACCOUNT_EXISTS = 'An account with this email already exists. Sign in, or reset your password.';
/** Sign-in attempts allowed per account and per client address in each window. */
const SIGN_IN_LIMITS = { perAccount: 5, perAddress: 20, window: '15 minutes' } as const;

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

  const perAddress = fastify.createRateLimit({
    max: SIGN_IN_LIMITS.perAddress,
    timeWindow: SIGN_IN_LIMITS.window,
    keyGenerator: (request) => `sign-in:address:${request.ip}`,
  });
  const perAccount = fastify.createRateLimit({
    max: SIGN_IN_LIMITS.perAccount,
    timeWindow: SIGN_IN_LIMITS.window,
    keyGenerator: (request) => `sign-in:account:${String((request.body as { email?: unknown } | undefined)?.email ?? '').trim().toLowerCase()}`,
  });

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

  fastify.post(AUTH_PATHS.credentialsCallback, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (!fastify.isValidCsrfRequest(request, body.csrfToken)) return refuseSignIn(reply, 403, 'MissingCSRF');

    for (const limiter of [perAddress, perAccount]) {
      const limit = await limiter(request);
      if (!limit.isAllowed && limit.isExceeded) {
        request.log.warn({ key: limit.key }, 'sign-in rate limit reached');
        return reply.header('retry-after', String(limit.ttlInSeconds)).code(429).send({ url: signInErrorUrl('TooManyAttempts'), message: SIGN_IN_ERRORS.TooManyAttempts });
      }
    }

    const form = CredentialsSignInForm.safeParse(body);
    if (!form.success) return refuseSignIn(reply, 401, 'CredentialsSignin');
    const user = await fastify.db
      .selectFrom('users')
      .select(['id', 'password_hash', 'email_verified_at'])
      .where('email', '=', form.data.email)
      .executeTakeFirst();
    const passwordMatches = await verifyPassword(user?.password_hash ?? (await decoyPasswordHash()), form.data.password);
    if (!user || !passwordMatches) return refuseSignIn(reply, 401, 'CredentialsSignin');
    if (!user.email_verified_at) return refuseSignIn(reply, 403, 'EmailNotVerified');

    await fastify.startSession(request, user.id);
    request.log.info({ userId: user.id }, 'signed in');
    return { url: safeCallbackUrl(form.data.callbackUrl, '/account/dashboard') };
  });

  fastify.post(AUTH_PATHS.signOut, async (request, reply) => {
    const form = SignOutForm.safeParse(request.body ?? {});
    if (!form.success || !fastify.isValidCsrfRequest(request, form.data.csrfToken)) {
      return reply.code(403).send({ url: `${baseUrl}/auth/signin`, message: 'Missing or invalid CSRF token' });
    }
    await fastify.endSession(request, reply);
    return { url: safeCallbackUrl(form.data.callbackUrl, '/auth/signin') };
  });

  fastify.post(AUTH_PATHS.log, { config: { rateLimit: { max: 60, timeWindow: '1 minute' } } }, async (request, reply) => {
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
      config: { rateLimit: { max: fastify.config.signUpRateLimitPerHour, timeWindow: '1 hour' } },
    },
    async (request, reply) => {
      const { name, email, password } = request.body;
      const exists = await fastify.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      if (exists) throw new HttpError(409, ACCOUNT_EXISTS);
      const passwordHash = await hashPassword(password);
      const userId = newId();
      let token: string;
      try {
        token = await fastify.db.transaction().execute(async (trx) => {
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
          return (await issueEmailToken(trx, { userId, purpose: 'signup', email, now: fastify.now(), lifetimeMs: VERIFICATION_LIFETIME_MS })).token;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new HttpError(409, ACCOUNT_EXISTS);
        throw error;
      }
      if (!(await fastify.mailer.trySend(verificationMail(email, name, baseUrl, token), request.log))) {
        // The account exists: the user can ask for the mail again from /auth/check-email.
        return reply.code(503).send({ message: 'Your account was created, but the verification email could not be sent. Ask for a new one in a few minutes.' });
      }
      return reply.code(201).send({ email, message: `We sent a verification link to ${email}.` });
    },
  );

  fastify.post(
    AUTH_PATHS.verify,
    { schema: { body: VerifyEmailRequest, response: { 200: VerifyEmailAnswer } }, preHandler: requireCsrfHeader, config: { rateLimit: { max: 30, timeWindow: '15 minutes' } } },
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
          await trx.updateTable('users').set({ email_verified_at: iso(), updated_at: iso() }).where('id', '=', record.user_id).execute();
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
    { schema: { body: ResendVerificationRequest, response: { 202: AcceptedAnswer } }, preHandler: requireCsrfHeader, config: { rateLimit: { max: 5, timeWindow: '15 minutes' } } },
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
    { schema: { body: ForgotPasswordRequest, response: { 202: AcceptedAnswer } }, preHandler: requireCsrfHeader, config: { rateLimit: { max: 5, timeWindow: '15 minutes' } } },
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
    { schema: { body: ResetPasswordRequest, response: { 200: AcceptedAnswer } }, preHandler: requireCsrfHeader, config: { rateLimit: { max: 10, timeWindow: '15 minutes' } } },
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
    { schema: { body: PartnerSignUpRequest, response: { 201: AcceptedAnswer } }, preHandler: requireCsrfHeader, config: { rateLimit: { max: 5, timeWindow: '1 hour' } } },
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
