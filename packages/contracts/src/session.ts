import * as z from 'zod/mini';

/**
 * What the site's session client needs of the authentication API (auth.ts, spec §7): the answers
 * it reads and the constants it sends with. A module of its own, so every page's start-up (and
 * the dashboard's monitors) builds these few schemas, not every form of auth.ts (sign-up,
 * password rules, mailed links). auth.ts re-exports all of it. The shell no longer provides
 * auth.ts: a remote page that imports it (sign-in, the checkout's account step) loads its own
 * copy, which holds its own copy of this module (the package's modules reach each other by
 * relative path, which no share key matches); they hold no state.
 */

/** The header every JSON write (auth and /api/account/*) carries: the csrfToken from GET /api/auth/csrf. */
export const CSRF_HEADER = 'x-csrf-token';

/** Server-side session limits (the client's idle timer of spec §4 uses the same idle figure). */
export const SESSION_IDLE_LIMIT_MS = 7_200_000;
export const SESSION_ABSOLUTE_LIMIT_MS = 12 * 60 * 60 * 1000;

/** The longest message the session client's log beacon sends (auth.ts, ClientLogForm). */
export const CLIENT_LOG_MESSAGE_LIMIT = 2000;

export const SessionUser = z.object({
  name: z.string(),
  email: z.string(),
  image: z.nullable(z.string()),
});
export type SessionUser = z.infer<typeof SessionUser>;

/** GET /api/auth/session: {} when signed out. `expires` is an ISO date: when the session ends unless used again. */
export const SignedInSession = z.object({ user: SessionUser, expires: z.string() });
export const SessionAnswer = z.union([SignedInSession, z.strictObject({})]);
export type SessionAnswer = z.infer<typeof SessionAnswer>;

export const CsrfAnswer = z.object({ csrfToken: z.string() });
export type CsrfAnswer = z.infer<typeof CsrfAnswer>;

export const Provider = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  signinUrl: z.string(),
  callbackUrl: z.string(),
});
export const ProvidersAnswer = z.record(z.string(), Provider);
export type ProvidersAnswer = z.infer<typeof ProvidersAnswer>;

/** The answer of the credentials callback and of signout: where to go next (absolute URL). */
export const RedirectAnswer = z.object({ url: z.string(), message: z.optional(z.string()) });
export type RedirectAnswer = z.infer<typeof RedirectAnswer>;
