import type { RemoteRoutesModule } from '@bimi/contracts/remote-modules';
import { findRouteOwner } from '@bimi/contracts/route-match';
import { loadRemoteModule, registryRemotes } from './registry';

/** The remote that owns a link of this site, and the link's path. */
function linkTarget(href: string | null): { remote: string; pathname: string } | null {
  if (!href) return null;
  const url = new URL(href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  const owner = findRouteOwner(registryRemotes(), url.pathname);
  // A link to a route that only forwards warms the page it forwards to.
  return owner ? { remote: owner.remote.name, pathname: owner.route.redirectTo ?? url.pathname } : null;
}

/**
 * Loads a remote's routes module ahead of its first render, and with `pathname` the page there
 * (the module's optional `preload`); a failure shows when it renders.
 */
export function preloadRemoteRoutes(remote: string, pathname?: string): void {
  loadRemoteModule<RemoteRoutesModule>(remote, './routes')
    .then((module) => {
      if (pathname) module.preload?.(pathname);
    })
    .catch(() => {});
}

/**
 * Loads the remote behind a link, and the page, as soon as the pointer or focus reaches it, and on idle
 * the remotes that the page's main content links to: the next page is usually ready
 * before the click.
 */
export function startPreloading(): () => void {
  const onIntent = (event: Event) => {
    const link = (event.target as Element | null)?.closest?.('a[href]');
    const target = link && linkTarget(link.getAttribute('href'));
    // The page itself too: a remote whose pages load lazily has it by the click.
    if (target) preloadRemoteRoutes(target.remote, target.pathname);
  };
  document.addEventListener('pointerover', onIntent, { passive: true });
  document.addEventListener('focusin', onIntent);
  document.addEventListener('touchstart', onIntent, { passive: true });
  return () => {
    document.removeEventListener('pointerover', onIntent);
    document.removeEventListener('focusin', onIntent);
    document.removeEventListener('touchstart', onIntent);
  };
}

/** Runs `then` once the page is marked ready (PageReady), at once if it already is. */
function whenPageReady(then: () => void): () => void {
  const root = document.documentElement;
  if (root.dataset.pageReady === 'true') {
    then();
    return () => {};
  }
  const observer = new MutationObserver(() => {
    if (root.dataset.pageReady !== 'true') return;
    observer.disconnect();
    then();
  });
  observer.observe(root, { attributes: true, attributeFilter: ['data-page-ready'] });
  return () => observer.disconnect();
}

/** Whether the visitor has moved, scrolled, tapped or typed on this document yet. */
let visitorActed = false;
const VISITOR_ACTS = ['pointermove', 'pointerdown', 'touchstart', 'wheel', 'scroll', 'keydown'] as const;

/** Runs `then` once the visitor first acts on the page, at once if they have. */
function whenVisitorActs(then: () => void): () => void {
  if (visitorActed) {
    then();
    return () => {};
  }
  const stop = () => VISITOR_ACTS.forEach((type) => window.removeEventListener(type, onAct, true));
  const onAct = () => {
    visitorActed = true;
    stop();
    then();
  };
  VISITOR_ACTS.forEach((type) => window.addEventListener(type, onAct, { capture: true, passive: true }));
  return stop;
}

/**
 * On idle, once the page is ready and the visitor has acted on it: on the first page a visitor
 * opens, a preload would otherwise compete with the code the page itself needs (the time-sliced
 * hydration leaves idle moments before it ends), and a phone that has just made the page live is
 * not kept busy starting a remote nobody asked for yet (issue 34: its start-up was a long task of
 * the page's load). The marks stay set for later pages, which preload on idle at once.
 */
export function preloadLinkedRemotesWhenIdle(currentRemote: string | undefined): () => void {
  const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 1500));
  const cancel = window.cancelIdleCallback ?? window.clearTimeout;
  let handle: number | undefined;
  let stopWaitingForVisitor = () => {};
  const stopWaitingForPage = whenPageReady(() => {
    stopWaitingForVisitor = whenVisitorActs(() => {
      handle = idle(() => {
        const owners = new Set<string>();
        for (const link of document.querySelectorAll('main a[href]')) {
          const owner = linkTarget(link.getAttribute('href'))?.remote;
          if (owner && owner !== currentRemote) owners.add(owner);
          if (owners.size >= 2) break;
        }
        owners.forEach((owner) => preloadRemoteRoutes(owner));
      });
    });
  });
  return () => {
    stopWaitingForPage();
    stopWaitingForVisitor();
    if (handle !== undefined) cancel(handle);
  };
}
