import { SESSION_IDLE_LIMIT_MS } from '@bimi/contracts/session';
import { signOut } from '@bimi/session/client';
import { showToast } from '@bimi/ui/toasts';

/** Spec §4, §9: a session ends after 2 hours without activity, checked every 60 s. */
export const IDLE_LIMIT_MS = SESSION_IDLE_LIMIT_MS;
export const IDLE_CHECK_EVERY_MS = 60_000;

/** What counts as activity (spec §4: mouse, key, scroll or touch). */
const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'wheel', 'scroll', 'touchstart'] as const;

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired for security reasons. Your cart items are safely saved!';
const SESSION_EXPIRED_TOAST_MS = 5000;
const REDIRECT_AFTER_MS = 1000;
const SIGN_OUT_AFTER_MS = 1500;
const SESSION_EXPIRED_PATH = '/auth/signin?message=session_expired';

/**
 * Calls onIdle once when no activity was seen on `target` for IDLE_LIMIT_MS, looking every
 * IDLE_CHECK_EVERY_MS. Returns the function that stops watching.
 */
export function watchIdle(onIdle: () => void, target: EventTarget = document): () => void {
  let lastActivity = Date.now();
  const onActivity = () => {
    lastActivity = Date.now();
  };
  // Capture: scroll events of inner scrolling areas do not bubble to the document.
  for (const type of ACTIVITY_EVENTS) target.addEventListener(type, onActivity, { capture: true, passive: true });
  const stop = () => {
    window.clearInterval(timer);
    for (const type of ACTIVITY_EVENTS) target.removeEventListener(type, onActivity, { capture: true });
  };
  const timer = window.setInterval(() => {
    if (Date.now() - lastActivity < IDLE_LIMIT_MS) return;
    stop();
    onIdle();
  }, IDLE_CHECK_EVERY_MS);
  return stop;
}

/**
 * Spec §4, §8: the toast with a Dismiss action for 5 s, the sign-in page with
 * message=session_expired after 1 s, the sign-out after 1.5 s. The cart is not touched: it
 * lives in its own store and storage key.
 */
export function expireSession(goTo: (path: string) => void): void {
  showToast({ message: SESSION_EXPIRED_MESSAGE, severity: 'warning', durationMs: SESSION_EXPIRED_TOAST_MS, action: { label: 'Dismiss' } });
  window.setTimeout(() => goTo(SESSION_EXPIRED_PATH), REDIRECT_AFTER_MS);
  window.setTimeout(() => void signOut({ redirect: false }), SIGN_OUT_AFTER_MS);
}
