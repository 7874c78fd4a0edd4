import { lazy, memo, Suspense, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import type { RemoteRoutesModule, RemoteRoutesProps } from '@bimi/contracts/remote-modules';
import { ServerMarkup, useKeepsServerMarkup } from '@bimi/ui/StaticRegion';
import { resetRemote } from './registry';
import { useRemoteLoader } from './remote-loader';
import { PageReady } from './PageReady';
import { RemoteBoundary } from './RemoteBoundary';
import { PageLoading } from '../pages/PageLoading';
import { loadThemed } from '../app/load-themed';

/**
 * The remote's page, or on a static page the server rendered (its route says `static`) the
 * server's markup, kept while the visitor stays on it: none of the remote's code loads for it
 * (issue 34). Inside the Suspense boundary: when the server could not render the remote, the
 * browser renders this boundary anew, and then the remote's own page.
 */
function RouteArea({ remote, staticPage, Routes, notFound }: { remote: string; staticPage: boolean; Routes: ComponentType<RemoteRoutesProps>; notFound: ReactNode }) {
  const keepsServerMarkup = useKeepsServerMarkup();
  const { pathname } = useLocation();
  const [firstPath] = useState(pathname);
  if (keepsServerMarkup && staticPage && pathname === firstPath) return <ServerMarkup data-remote={remote} />;
  return <Routes notFound={notFound} />;
}

/**
 * Mounts the route table a remote exposes (`<remote>/routes`), loading it on first use.
 *
 * Memoised: on a server-rendered page the remote's markup waits, dehydrated, for the remote's
 * code, and React draws it anew (the page blinks to PageLoading) if new props reach it before
 * then, as they would each time the frame re-renders (the session's status arriving, say).
 */
export const RemoteRoute = memo(function RemoteRoute({ remote, staticPage = false, notFound }: { remote: string; staticPage?: boolean; notFound: ReactNode }) {
  const { pathname } = useLocation();
  const [attempt, setAttempt] = useState(0);
  const loadRemoteModule = useRemoteLoader();
  const Routes = useMemo(
    () => lazy(loadThemed(() => loadRemoteModule<RemoteRoutesModule>(remote, './routes').then((module) => module.default))),
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
        <RouteArea remote={remote} staticPage={staticPage} Routes={Routes} notFound={notFound} />
        <PageReady />
      </Suspense>
    </RemoteBoundary>
  );
});
