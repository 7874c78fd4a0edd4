/**
 * Spec §4: the visitor's cookie choice, unset until they choose, kept 365 days in a cookie that the
 * browser writes and both the browser and the bff's server rendering read (the banner is in the
 * first HTML exactly when the browser will show it).
 */
export type ConsentChoice = 'accepted' | 'declined';
export const CONSENT_COOKIE = 'cookie_consent';
/**
 * The id of an empty element that ends the cookie banner. The banner comes last in the page and
 * sits at the bottom of the screen: a server-rendered page that shows it is not painted before this
 * element is parsed (the bff's `<link rel="expect" blocking="render">`, which waits for an element's
 * start only), or a paint made with the banner's text but not yet its buttons would be followed by
 * the banner growing upwards (a layout shift).
 */
export const COOKIE_BANNER_END_ID = 'cookie-consent-end';
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
