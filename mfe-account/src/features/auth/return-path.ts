import { safeReturnPath } from '../../lib/api';

/**
 * Where someone who signs up on the way to somewhere (checkout) returns after verifying their
 * email. The mailed link (/auth/verify?token=…) names no destination, so the page that starts the
 * sign-up keeps it in this browser under this key; mfe-checkout's inline sign-up writes the same
 * key (remotes never import each other: see mfe-checkout/src/features/checkout/return-path.ts).
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

/** A link to an auth page that carries the place to return to, when there is one. */
export function withCallback(path: string, callbackUrl: string | null, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams(extra);
  if (callbackUrl) query.set('callbackUrl', callbackUrl);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
