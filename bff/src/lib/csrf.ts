import { createHash, randomBytes } from 'node:crypto';
import { sameSecret } from './tokens';

/**
 * NextAuth's double-submit CSRF token: the cookie holds `token|sha256(token + secret)`, the form
 * (or our X-CSRF-Token header) repeats the token. A token is good when the cookie's hash proves the
 * server made it and the submitted copy matches.
 */
/** What a write without a good token hears (403), from /api/account/* and our JSON auth endpoints alike. */
export const CSRF_REFUSED = 'Missing or invalid CSRF token: fetch /api/auth/csrf and send it in the X-CSRF-Token header';

export function csrfCookieName(production: boolean): string {
  return production ? '__Host-next-auth.csrf-token' : 'next-auth.csrf-token';
}

function csrfHash(token: string, secret: string): string {
  return createHash('sha256').update(`${token}${secret}`).digest('hex');
}

export function newCsrfCookieValue(secret: string): { token: string; cookieValue: string } {
  const token = randomBytes(32).toString('hex');
  return { token, cookieValue: `${token}|${csrfHash(token, secret)}` };
}

/** The token of a cookie value this server made, else undefined. */
export function tokenFromCsrfCookie(cookieValue: string | undefined, secret: string): string | undefined {
  if (!cookieValue) return undefined;
  const [token, hash] = cookieValue.split('|');
  if (!token || !hash) return undefined;
  return sameSecret(hash, csrfHash(token, secret)) ? token : undefined;
}

export function isValidCsrf(cookieValue: string | undefined, submitted: unknown, secret: string): boolean {
  const token = tokenFromCsrfCookie(cookieValue, secret);
  return token !== undefined && typeof submitted === 'string' && sameSecret(token, submitted);
}
