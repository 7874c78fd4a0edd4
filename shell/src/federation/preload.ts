import type { RemoteRoutesModule } from '@bimi/contracts/remote-modules';
import { findRouteOwner } from '@bimi/contracts/route-match';
import { whenIdleAfterVisitorActs } from '@bimi/ui/idle';
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

/**
 * On idle, once the page is ready and the visitor has acted on it (`whenIdleAfterVisitorActs`): the
 * remotes that the page's main content links to.
 */
export function preloadLinkedRemotesWhenIdle(currentRemote: string | undefined): () => void {
  let stopWaitingForIdle = () => {};
  const stopWaitingForPage = whenPageReady(() => {
    stopWaitingForIdle = whenIdleAfterVisitorActs(() => {
      const owners = new Set<string>();
      for (const link of document.querySelectorAll('main a[href]')) {
        const owner = linkTarget(link.getAttribute('href'))?.remote;
        if (owner && owner !== currentRemote) owners.add(owner);
        if (owners.size >= 2) break;
      }
      owners.forEach((owner) => preloadRemoteRoutes(owner));
    });
  });
  return () => {
    stopWaitingForPage();
    stopWaitingForIdle();
  };
}
