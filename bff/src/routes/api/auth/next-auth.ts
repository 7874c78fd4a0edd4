import {
  AUTH_PATHS,
  CLIENT_LOG_MESSAGE_LIMIT,
  ClientLogForm,
  CredentialsSignInForm,
  SIGN_IN_ERRORS,
  SignOutForm,
  tooManyAttemptsMessage,
  type SessionAnswer,
  type SignInError,
} from '@bimi/contracts/auth';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicBaseUrl } from '../../../config';
import { csrfCookieName, newCsrfCookieValue, tokenFromCsrfCookie } from '../../../lib/csrf';
import { decoyPasswordHash, verifyPassword } from '../../../lib/passwords';
import { signInLimits } from '../../../lib/sign-in-limits';
import { refusedInOurWords } from '../../../plugins/external/rate-limit';
import { sessionAnswer } from '../../../plugins/app/identity/sessions';

/** The endpoints NextAuth's client calls (spec §7), answered as NextAuth v4 answers them. */
const nextAuth: FastifyPluginAsyncZod = async (fastify) => {
  const { config } = fastify;
  const production = config.nodeEnv === 'production';
  const baseUrl = publicBaseUrl(config);

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

  const limits = signInLimits(fastify);

  fastify.get(AUTH_PATHS.session, async (request, reply): Promise<SessionAnswer> => {
    reply.header('cache-control', 'no-store');
    const user = request.sessionUser;
    if (!user) return {};
    return sessionAnswer(user, request.session, fastify.now());
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
      signinUrl: `${baseUrl}${AUTH_PATHS.signInPage}/credentials`,
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
    const email = String(body.email ?? '')
      .trim()
      .toLowerCase()
      .slice(0, 320);
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
    const user = await fastify.users.signInCredentials(form.data.email);
    const passwordMatches = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), form.data.password);
    if (!user || !passwordMatches) {
      await limits.failed(request, email);
      return refuseSignIn(reply, 401, 'CredentialsSignin');
    }
    // The right password, verified address or not: this pair's failures stop counting.
    await limits.succeeded(request, email);
    if (!user.emailVerified) return refuseSignIn(reply, 403, 'EmailNotVerified');

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

  // NextAuth's client logger beacons without a token: same-site Origin only. What it sends (a code
  // and a message) fits in 16 KB; a larger body is refused, not written to the log. A browser's
  // report is logged at warn at most, with its own level beside it: anyone can post one, and an
  // error line in the server's log is the server's.
  const logBeacon = { bodyLimit: 16 * 1024, config: { rateLimit: { max: 60, timeWindow: '1 minute', errorResponseBuilder: refusedInOurWords }, csrf: 'origin' as const } };
  fastify.post(AUTH_PATHS.log, logBeacon, async (request, reply) => {
    const form = ClientLogForm.safeParse(request.body ?? {});
    if (!form.success)
      return reply.code(400).send({ message: `level (error, warn or debug) and code are required; a message takes at most ${CLIENT_LOG_MESSAGE_LIMIT.toLocaleString('en-US')} characters` });
    const { level, code, message } = form.data;
    request.log[level === 'debug' ? 'debug' : 'warn']({ code, clientLevel: level, clientMessage: message }, 'authentication client log');
    return {};
  });
};

export default nextAuth;
