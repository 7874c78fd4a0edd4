import { proxy } from 'valtio';
import { CONSENT_COOKIE, CONSENT_MAX_AGE_SECONDS, readConsentCookie, type ConsentChoice } from '@bimi/contracts/consent';

/** Spec §4: consent is unset until the visitor chooses; the choice is kept 365 days. */
export const consent = proxy<{ choice: ConsentChoice | null }>({
  choice: typeof document === 'undefined' ? null : readConsentCookie(document.cookie),
});

export function chooseConsent(choice: ConsentChoice): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${CONSENT_COOKIE}=${choice}; Max-Age=${CONSENT_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`;
  consent.choice = choice;
}

/** The tag manager loads only after the visitor accepted analytics cookies. */
export function loadTagManager(tagManagerId: string): void {
  if (document.getElementById('tag-manager')) return;
  const w = window as unknown as { dataLayer?: unknown[] };
  w.dataLayer = w.dataLayer ?? [];
  w.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = document.createElement('script');
  script.id = 'tag-manager';
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(tagManagerId)}`;
  document.head.appendChild(script);
}
