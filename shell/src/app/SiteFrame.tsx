import { lazy, Suspense, useEffect, useMemo, useRef } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { findRouteOwner } from '@bimi/contracts/route-match';
import { SITE_NAME } from '@bimi/contracts/site';
import { RemoteRoute } from '../federation/RemoteRoute';
import { preloadLinkedRemotesWhenIdle } from '../federation/preload';
import { sendPageView } from '../analytics/beacons';
import { NotFoundPage } from '../pages/NotFoundPage';
import { RegistryUnavailablePage } from '../pages/RegistryUnavailablePage';
import { PublicLayout } from '../layout/PublicLayout';
import { CookieConsent } from '../layout/CookieConsent';
import { Toaster } from '../layout/Toaster';
import { PageLoading } from '../pages/PageLoading';
import { SessionTimer } from '../layout/SessionTimer';
import { DashboardButton } from '../layout/DashboardButton';
import { useSignedIn } from '@bimi/session/useSession';
import { RequireSession } from './RequireSession';
import { loadAccountLayout } from '../layout/account/load-account-layout';
import { useShell } from './shell-context';
import { loadThemed } from './load-themed';

// One element for every render, so the memoised RemoteRoute sees the same props.
const notFound = <NotFoundPage />;

const AccountLayout = lazy(loadThemed(() => loadAccountLayout().then((m) => m.AccountLayout)));

/** Picks the remote that owns the path and the frame (spec §2 layout rules) it is shown in. */
export function SiteFrame() {
  const { pathname, search, hash } = useLocation();
  const { registry } = useShell();
  const signedIn = useSignedIn();
  const owner = useMemo(() => findRouteOwner(registry.remotes, pathname), [registry.remotes, pathname]);
  const title = owner ? owner.route.title : registry.status === 'ready' ? 'Page not found' : 'Temporarily unavailable';

  const description = owner?.route.description;
  const redirectTo = owner?.route.redirectTo;
  useEffect(() => {
    // A route that only forwards is not a page view: its target is.
    if (redirectTo) return;
    document.title = `${title} | ${SITE_NAME}`;
    if (description) document.querySelector('meta[name="description"]')?.setAttribute('content', description);
    sendPageView({ path: pathname + search, title, referrer: document.referrer || undefined });
  }, [pathname, search, title, description, redirectTo]);

  // Another page starts at its top. The first stays where it is: a server-rendered page may have
  // been scrolled before it was live (or the browser restored its place on a reload), and going to
  // the top then moved the button under the visitor's finger.
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    window.scrollTo(0, 0);
  }, [pathname]);

  useEffect(() => preloadLinkedRemotesWhenIdle(owner?.remote.name), [owner?.remote.name, pathname]);

  const layout = owner?.route.layout ?? 'public';
  // A route that only forwards: the bff answers its address with a redirect; this is for a link
  // followed in the page. In the content's place, so the frame stays on screen meanwhile.
  const content =
    registry.status !== 'ready' ? (
      <RegistryUnavailablePage />
    ) : redirectTo ? (
      <Navigate to={redirectTo + search + hash} replace />
    ) : owner ? (
      <RemoteRoute remote={owner.remote.name} staticPage={owner.route.static === true} notFound={notFound} />
    ) : (
      notFound
    );

  return (
    <>
      {layout === 'account' ? (
        <RequireSession>
          <Suspense fallback={<PageLoading />}>
            <AccountLayout>{content}</AccountLayout>
          </Suspense>
        </RequireSession>
      ) : (
        <PublicLayout layout={layout} header={owner?.route.header ?? 'white'}>
          {content}
        </PublicLayout>
      )}
      {signedIn && layout !== 'account' && <DashboardButton />}
      <SessionTimer />
      <CookieConsent />
      <Toaster />
    </>
  );
}
