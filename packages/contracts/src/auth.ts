import * as z from 'zod/mini';
import { lengthLimit } from './length-limit';
import { humanText } from './human-text';
import { CLIENT_LOG_MESSAGE_LIMIT } from './session';

/**
 * The authentication API of the bff.
 *
 * Spec §7 endpoints, answered exactly as NextAuth (v4) answers its client, so `next-auth/react`
 * (basePath `/api/auth`) or a small client of our own works unchanged:
 * - GET  /api/auth/session               → {} or {user:{name,email,image}, expires}
 * - GET  /api/auth/csrf                  → {csrfToken}; sets the `next-auth.csrf-token` cookie
 *                                          (`__Host-next-auth.csrf-token` in production) holding `token|sha256(token+secret)`
 * - GET  /api/auth/providers             → {credentials:{id,name,type,signinUrl,callbackUrl}}
 * - POST /api/auth/callback/credentials  form-encoded {csrfToken, email, password, callbackUrl, json=true}
 *                                          → 200 {url: callbackUrl (absolute)} and the session cookie;
 *                                          401 {url: …/auth/signin?error=CredentialsSignin}; 403 {url: …?error=EmailNotVerified};
 *                                          429 {url: …?error=TooManyAttempts, message: tooManyAttemptsMessage(wait)} and
 *                                          Retry-After; 403 {url: …?error=MissingCSRF} on a bad token
 * - POST /api/auth/signout               form-encoded {csrfToken, callbackUrl, json=true} → {url}
 * - POST /api/auth/_log                  form-encoded {level, code, …} → 200 (a beacon)
 *
 * Our own JSON endpoints (not in §7). Each takes JSON and the header `X-CSRF-Token` carrying the
 * token from GET /api/auth/csrf (a request without it answers 403); errors are {message}:
 * - POST /api/auth/signup                SignUpRequest → 201 SignUpAnswer, the same answer whether or not the email
 *                                          has an account (it must not tell): a new or unverified account gets a
 *                                          verification mail, a verified one a "someone tried to sign up" mail; 503
 *                                          when the mail could not be sent (signing up again is safe)
 * - POST /api/auth/verify                VerifyEmailRequest → 200 VerifyEmailAnswer; 400 when the token is unknown, used or expired;
 *                                          an email change ends the user's sessions but the caller's (kept under a new cookie)
 * - POST /api/auth/resend-verification   ResendVerificationRequest → 202 AcceptedAnswer (same answer whatever the email)
 * - POST /api/auth/forgot-password       ForgotPasswordRequest → 202 AcceptedAnswer (same answer whatever the email)
 * - POST /api/auth/reset-password        ResetPasswordRequest → 200 AcceptedAnswer; 400 when the token is unknown, used or expired;
 *                                          ends every session of the user, the caller's too
 * - POST /api/auth/partner-signup        PartnerSignUpRequest → 201 AcceptedAnswer (stored for review)
 *
 * Links in mails: `/auth/verify?token=…` (sign-up and email change), `/auth/reset-password?token=…`,
 * `/account/settings/organizations?invite=…` (see account.ts).
 */
export { AUTH_BASE_PATH, AUTH_PATHS } from './api-paths';
export {
  CLIENT_LOG_MESSAGE_LIMIT,
  CSRF_HEADER,
  CsrfAnswer,
  Provider,
  ProvidersAnswer,
  RedirectAnswer,
  SESSION_ABSOLUTE_LIMIT_MS,
  SESSION_IDLE_LIMIT_MS,
  SessionAnswer,
  SessionUser,
  SignedInSession,
} from './session';

/** Values of `error` in the url the credentials callback answers with (NextAuth's names where it has one). */
export const SIGN_IN_ERRORS = {
  CredentialsSignin: 'The email or password is incorrect.',
  EmailNotVerified: 'Please verify your email address first: we sent you a link when you signed up.',
  TooManyAttempts: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  MissingCSRF: 'Your sign-in form expired. Please try again.',
  SessionRequired: 'Please sign in to continue.',
  Configuration: 'Sign-in is not available right now. Please try again in a few minutes.',
} as const;
export type SignInError = keyof typeof SIGN_IN_ERRORS;

/**
 * The answer to a request over one of the bff's limits (sign-in, sign-up, forms), with the wait
 * in whole minutes, at least one: "Too many attempts. Try again in 12 minutes."
 */
export function tooManyAttemptsMessage(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

// ---- shared field rules ----

export const Email = z
  .string({ error: 'Email is required' })
  .check(z.trim(), z.toLowerCase(), z.minLength(1, 'Email is required'), lengthLimit(254, 'Email must be at most 254 characters'), z.email('Enter a valid email address'));

/** A person's name: human text (see human-text.ts), one line, at most 100 characters. */
export const PersonName = humanText({ label: 'Name', max: 100 });

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;

export const PASSWORD_MESSAGES = {
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  tooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  noLetter: 'Password must contain a letter',
  noDigitOrSymbol: 'Password must contain a number or a symbol',
  containsEmail: 'Password must not contain your email address',
} as const;

/**
 * The password strength rule, one message per unmet requirement (empty when the password is
 * acceptable). Sign-up, reset and password change all apply it, in the browser and in the bff.
 */
export function passwordProblems(password: string, context: { email?: string } = {}): string[] {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) problems.push(PASSWORD_MESSAGES.tooShort);
  if (password.length > PASSWORD_MAX_LENGTH) problems.push(PASSWORD_MESSAGES.tooLong);
  if (!/\p{L}/u.test(password)) problems.push(PASSWORD_MESSAGES.noLetter);
  if (!/[\p{N}\p{P}\p{S}\s]/u.test(password)) problems.push(PASSWORD_MESSAGES.noDigitOrSymbol);
  const localPart = context.email?.split('@')[0]?.toLowerCase() ?? '';
  if (localPart.length >= 3 && password.toLowerCase().includes(localPart)) problems.push(PASSWORD_MESSAGES.containsEmail);
  return problems;
}

/** A new password (without the email check, which needs the whole form: see SignUpRequest). */
export const NewPassword = z.string({ error: 'Password is required' }).check(
  lengthLimit(4 * PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES.tooLong),
  z.superRefine((password, context) => {
    for (const message of passwordProblems(password)) context.addIssue({ code: 'custom', message, input: password });
  }),
);

/** A password being checked (sign-in, current password): only bounded, never judged. */
export const GivenPassword = z
  .string({ error: 'Password is required' })
  .check(z.minLength(1, 'Password is required'), lengthLimit(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`));

/** Opaque tokens from mailed links: URL-safe base64. */
export const LinkToken = z
  .string({ error: 'The link is incomplete' })
  .check(lengthLimit(1024, 'The link is invalid or incomplete'), z.trim(), z.regex(/^[A-Za-z0-9_-]{20,128}$/, 'The link is invalid or incomplete'));

/** Form body of POST /api/auth/callback/credentials, as NextAuth's signIn('credentials', {email, password, redirect:false}) sends it. */
export const CredentialsSignInForm = z.looseObject({
  csrfToken: z.string({ error: 'csrfToken is required' }),
  email: Email,
  password: GivenPassword,
  callbackUrl: z.optional(z.string()),
  json: z.optional(z.string()),
});

/** Form body of POST /api/auth/signout. */
export const SignOutForm = z.looseObject({
  csrfToken: z.string({ error: 'csrfToken is required' }),
  callbackUrl: z.optional(z.string()),
  json: z.optional(z.string()),
});

/**
 * Form body of the NextAuth client's log beacon: the fields our session client sends (other keys
 * are dropped, not logged: anyone may post here).
 */
export const ClientLogForm = z.object({
  level: z.enum(['error', 'warn', 'debug']),
  code: z.string().check(lengthLimit(200)),
  message: z.optional(z.string().check(lengthLimit(CLIENT_LOG_MESSAGE_LIMIT))),
  client: z.optional(z.string().check(lengthLimit(16))),
});

// ---- our own endpoints ----

export const SignUpRequest = z.object({ name: PersonName, email: Email, password: NewPassword }).check(
  z.superRefine((form, context) => {
    if (passwordProblems(form.password, { email: form.email }).includes(PASSWORD_MESSAGES.containsEmail)) {
      context.addIssue({ code: 'custom', message: PASSWORD_MESSAGES.containsEmail, path: ['password'], input: form.password });
    }
  }),
);
export type SignUpRequest = z.infer<typeof SignUpRequest>;

/** 201: a mail went to `email` (a verification link, or word that the address has an account). Go to /auth/check-email?email=… */
export const SignUpAnswer = z.object({ email: z.string(), message: z.string() });
export type SignUpAnswer = z.infer<typeof SignUpAnswer>;

export const VerifyEmailRequest = z.object({ token: LinkToken });
/** `signup`: the new account is verified (go sign in); `email-change`: the account's email is now `email`. */
export const VerifyEmailAnswer = z.object({ purpose: z.enum(['signup', 'email-change']), email: z.string(), message: z.string() });
export type VerifyEmailAnswer = z.infer<typeof VerifyEmailAnswer>;

export const ResendVerificationRequest = z.object({ email: Email });
export const ForgotPasswordRequest = z.object({ email: Email });
export const ResetPasswordRequest = z.object({ token: LinkToken, password: NewPassword });

/** Answers that only confirm: show `message`. */
export const AcceptedAnswer = z.object({ message: z.string() });
export type AcceptedAnswer = z.infer<typeof AcceptedAnswer>;

export const FORGOT_PASSWORD_MESSAGE = 'If an account exists for that email, we sent a link to reset its password. The link works once, for one hour.';
export const RESEND_VERIFICATION_MESSAGE = 'If that email has an account waiting for verification, we sent a new link.';
