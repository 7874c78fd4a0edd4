import { lazy, memo, Suspense, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import type { RemoteRoutesModule } from '@bimi/contracts/remote-modules';
import { resetRemote } from './registry';
import { useRemoteLoader } from './remote-loader';
import { PageReady } from './PageReady';
import { RemoteBoundary } from './RemoteBoundary';
import { PageLoading } from '../pages/PageLoading';

/**
 * Mounts the route table a remote exposes (`<remote>/routes`), loading it on first use.
 *
 * Memoised: on a server-rendered page the remote's markup waits, dehydrated, for the remote's
 * code, and React draws it anew (the page blinks to PageLoading) if new props reach it before
 * then, as they would each time the frame re-renders (the session's status arriving, say).
 */
export const RemoteRoute = memo(function RemoteRoute({ remote, notFound }: { remote: string; notFound: ReactNode }) {
  const { pathname } = useLocation();
  const [attempt, setAttempt] = useState(0);
  const loadRemoteModule = useRemoteLoader();
  const Routes = useMemo(
    () => lazy(() => loadRemoteModule<RemoteRoutesModule>(remote, './routes')),
    // A new attempt needs a new lazy component: React keeps a rejected one rejected.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `attempt` is a deliberate extra dependency
    [loadRemoteModule, remote, attempt],
  );
  return (
    <RemoteBoundary
      key={remote}
      remote={remote}
      variant="route"
      resetKey={pathname}
      onRetry={() => {
        resetRemote(remote);
        setAttempt((n) => n + 1);
      }}
    >
      <Suspense fallback={<PageLoading />}>
        <Routes notFound={notFound} />
        <PageReady />
      </Suspense>
    </RemoteBoundary>
  );
});
