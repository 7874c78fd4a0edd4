import { startTransition } from 'react';
import { nextTask } from '@bimi/ui/next-task';
import { recordStartUpParts } from './start-up';

/** The app's modules in the order they are first run, the heaviest apart (measured at 4× CPU slowdown). */
const START_UP_PARTS: (() => Promise<unknown>)[] = [
  () => import(/* webpackMode: "eager" */ 'react-dom/client'),
  // Emotion's two packages: the frame's styles (MUI loads with the first remote: load-themed.ts).
  () => import(/* webpackMode: "eager" */ '@emotion/react'),
  () => import(/* webpackMode: "eager" */ '@emotion/styled'),
  () => import(/* webpackMode: "eager" */ 'react-router-dom'),
  // The cart's line schemas (the catalog's), then the cart's store with its hook.
  () => import(/* webpackMode: "eager" */ '@bimi/catalog/cart-items'),
  () => import(/* webpackMode: "eager" */ '@bimi/cart/useCart'),
  () => import(/* webpackMode: "eager" */ '@bimi/session/useSession'),
  () => import(/* webpackMode: "eager" */ './layout/Header'),
  () => import(/* webpackMode: "eager" */ './layout/PublicLayout'),
  () => import(/* webpackMode: "eager" */ './app/App'),
];

async function start() {
  // Each step in a task of its own: together they were one long task. Not in the task that ran this
  // module either (an eager import goes on in its microtasks). First Zod's own modules (the shell's
  // copy, not shared: run a few per task, RunInSlicesPlugin), then the session's schemas, then the
  // session's module, whose request leaves now, not once the app has rendered (see prefetchSession).
  await nextTask();
  await import(/* webpackMode: "eager", webpackExports: ["object"] */ 'zod/mini');
  await nextTask();
  await import(/* webpackMode: "eager" */ '@bimi/contracts/session');
  await nextTask();
  void import(/* webpackMode: "eager" */ '@bimi/session/client').then(({ prefetchSession }) => prefetchSession());
  await nextTask();
  const { initFederation } = await import(/* webpackMode: "eager" */ './federation/registry');
  await nextTask();
  const registryState = await initFederation();
  await nextTask();
  const { readPublicConfig } = await import(/* webpackMode: "eager" */ './app/public-config');
  const config = await readPublicConfig();
  await nextTask();
  const [{ findRouteOwner }, { preloadRemoteRoutes }, { loadAccountLayout }] = await Promise.all([
    import(/* webpackMode: "eager" */ '@bimi/contracts/route-match'),
    import(/* webpackMode: "eager" */ './federation/preload'),
    import(/* webpackMode: "eager" */ './layout/account/load-account-layout'),
  ]);
  // Each library's modules run when first imported: one part per task, so no part of the start-up
  // is one long task that blocks the page (issue 14, total blocking time). Eager: no extra request.
  const startUpParts = (async () => {
    for (const load of START_UP_PARTS) {
      await nextTask();
      await load();
    }
  })();
  recordStartUpParts(startUpParts);
  // An account page shows nothing before the session is known: its frame, its remote's routes and
  // its page (code and answers) load while the session and the start-up's parts come, not one after
  // the other once they have.
  const owner = findRouteOwner(registryState.remotes, window.location.pathname);
  if (owner?.route.layout === 'account') {
    loadAccountLayout().catch(() => {});
    preloadRemoteRoutes(owner.remote.name, window.location.pathname);
  }
  await startUpParts;
  await nextTask();
  const [{ createRoot, hydrateRoot }, { App }] = await Promise.all([import(/* webpackMode: "eager" */ 'react-dom/client'), import(/* webpackMode: "eager" */ './app/App')]);
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  // A signed-in visitor's account page the server rendered with their session and answers: the
  // store starts with that session, and the answers wait for the page's parts (readPageState).
  const [{ readPageState }, { startWithRenderedSession }] = await Promise.all([
    import(/* webpackMode: "eager" */ '@bimi/session/page-state'),
    import(/* webpackMode: "eager" */ '@bimi/session/client'),
  ]);
  const pageState = readPageState();
  if (pageState) startWithRenderedSession(pageState.session);
  const app = <App registry={registryState} config={config} />;
  // The bff rendered the page on the server (issue 14; an account page whole for its signed-in
  // visitor, else its frame): the browser takes the markup over instead of drawing it again. A
  // mismatch is reported; React then renders that part anew.
  if (container.dataset.serverRendered === 'true') {
    // As a transition, hydration yields to the browser every few milliseconds instead of taking
    // the page over in one task.
    startTransition(() => {
      hydrateRoot(container, app, {
        onRecoverableError(error) {
          console.error('[shell] hydration:', error instanceof Error ? error.message : error);
        },
      });
    });
  } else {
    createRoot(container).render(app);
  }
}

start().catch(async (error: unknown) => {
  // The server's page stays as it is, not live: reported where the site's client errors go.
  console.error('[shell] start-up failed:', error);
  const { reportClientError } = await import(/* webpackMode: "eager" */ './analytics/beacons');
  reportClientError({
    kind: 'shell',
    message: `start-up failed: ${error instanceof Error ? error.message : String(error)}`,
    path: window.location.pathname,
    stack: error instanceof Error ? error.stack : undefined,
  });
});
