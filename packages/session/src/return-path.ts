/** Where to return after signing in: a path on this site only (an open redirect otherwise). */
export function safeReturnPath(value: string | null, fallback = '/account/dashboard'): string {
  if (!value) return fallback;
  try {
    const url = new URL(value, window.location.origin);
    if (url.origin !== window.location.origin) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

/**
 * Where someone who signs up on the way to somewhere (checkout) returns after verifying their
 * email. The mailed link (/auth/verify?token=…) names no destination, so the page that starts the
 * sign-up keeps it in this browser under this key: mfe-checkout's inline sign-up and
 * mfe-account's sign-up page write it, mfe-account's verify page reads it.
 */
export const RETURN_PATH_KEY = 'bimi.auth.returnPath';

export function rememberReturnPath(path: string | null): void {
  try {
    if (path) window.localStorage.setItem(RETURN_PATH_KEY, safeReturnPath(path));
    else window.localStorage.removeItem(RETURN_PATH_KEY);
  } catch {
    // Storage refused (private mode): the verify page then offers the dashboard.
  }
}

/** The kept path (same site only), or null. */
export function readReturnPath(): string | null {
  try {
    const kept = window.localStorage.getItem(RETURN_PATH_KEY);
    return kept ? safeReturnPath(kept) : null;
  } catch {
    return null;
  }
}

/** Once used (the account is verified), the path is forgotten so a later sign-up does not inherit it. */
export function forgetReturnPath(): void {
  rememberReturnPath(null);
}
