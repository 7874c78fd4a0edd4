/**
 * Spec §4: the visitor's cookie choice, unset until they choose, kept 365 days in a cookie that the
 * browser writes and both the browser and the bff's server rendering read (the banner is in the
 * first HTML exactly when the browser will show it).
 */
export type ConsentChoice = 'accepted' | 'declined';
export const CONSENT_COOKIE = 'cookie_consent';
export const CONSENT_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** The choice a cookie value names; anything else is no choice yet. */
export function consentChoiceOf(value: string | undefined | null): ConsentChoice | null {
  return value === 'accepted' || value === 'declined' ? value : null;
}

/** The choice in a `Cookie` header (`document.cookie` has the same form). */
export function readConsentCookie(cookieHeader: string): ConsentChoice | null {
  for (const part of cookieHeader.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === CONSENT_COOKIE) return consentChoiceOf(value);
  }
  return null;
}
