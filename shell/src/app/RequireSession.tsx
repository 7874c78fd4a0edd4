import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { sessionRequiredPath, useSession } from '@bimi/session/useSession';
import { PageLoading } from '../pages/PageLoading';

/**
 * Spec §6: account routes are shown only with a session. Without one the visitor goes to
 * the sign-in page with callbackUrl and error=SessionRequired, and comes back after signing in.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const { status } = useSession();
  const { pathname, search } = useLocation();
  if (status === 'loading') return <PageLoading />;
  if (status === 'unauthenticated') return <Navigate to={sessionRequiredPath(pathname + search)} replace />;
  return children;
}
