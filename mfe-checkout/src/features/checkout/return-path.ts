/**
 * Where a buyer who signs up during checkout returns after verifying their email. The mailed
 * link (/auth/verify?token=…) names no destination, so the page that starts the sign-up keeps it
 * in this browser; mfe-account's verify page reads the same key (a remote never imports another
 * remote's code, so the key is written out in both: see mfe-account/src/features/auth/return-path.ts).
 */
export const RETURN_PATH_KEY = 'bimi.auth.returnPath';

export function rememberReturnPath(path: string): void {
  try {
    window.localStorage.setItem(RETURN_PATH_KEY, path);
  } catch {
    // Storage refused (private mode): the verify page then offers the dashboard instead.
  }
}
