import { useContext, useEffect, useSyncExternalStore } from 'react';
import { subscribe, useSnapshot } from 'valtio';
import { getSession, session, type Session, type SessionStatus } from './client';
import { ServerPageContext } from './page-state';

/** The site's sign-in page (mfe-account). */
export const SIGN_IN_PAGE = '/auth/signin';

/**
 * Where a visitor without a session goes (spec §7): the sign-in page, told where to return
 * and why. Only a same-site path is kept as the place to return to.
 */
export function sessionRequiredPath(returnTo: string): string {
  const callbackUrl = returnTo.startsWith('/') && !returnTo.startsWith('//') ? returnTo : '/account/dashboard';
  return `${SIGN_IN_PAGE}?${new URLSearchParams({ callbackUrl, error: 'SessionRequired' })}`;
}

export interface UseSessionOptions {
  /** The page needs a session: while there is none, status stays "loading" and onUnauthenticated runs. */
  required?: boolean;
  onUnauthenticated?: () => void;
}

export interface SessionState {
  data: Session | null;
  status: SessionStatus;
  /** Refetches the session (after a profile change, for example). */
  update: () => Promise<Session | null>;
}

/**
 * NextAuth's `useSession`, over the shared store; on the server, the session a signed-in page is
 * rendered with (ServerPageContext: the store is the whole process's, never one visitor's).
 */
export function useSession(options: UseSessionOptions = {}): SessionState {
  const serverPage = useContext(ServerPageContext);
  const snap = useSnapshot(session);
  const { required = false, onUnauthenticated } = options;
  const missing = required && snap.status === 'unauthenticated';
  useEffect(() => {
    if (!missing) return;
    if (onUnauthenticated) onUnauthenticated();
    else window.location.href = sessionRequiredPath(window.location.pathname + window.location.search);
  }, [missing, onUnauthenticated]);
  if (serverPage) return { data: serverPage.session, status: 'authenticated', update: getSession };
  return {
    data: snap.data as Session | null,
    status: missing ? 'loading' : snap.status,
    update: getSession,
  };
}

const subscribeToSession = (onChange: () => void) => subscribe(session, onChange);

const signedInNow = () => session.status === 'authenticated';

/**
 * Whether the visitor is signed in, for a component that needs only that: unlike `useSession`,
 * it draws the component again only when the answer changes, not when "loading" becomes "no
 * session" (on a public page, the first answer of every visitor without one). While the browser
 * hydrates it reads the store as `useSession` does: an account page rendered for its visitor
 * starts with their session, and answering otherwise then would draw the page again before it
 * has hydrated.
 */
export function useSignedIn(): boolean {
  const serverPage = useContext(ServerPageContext);
  const signedIn = useSyncExternalStore(subscribeToSession, signedInNow, signedInNow);
  return serverPage !== null || signedIn;
}
