import { lazy, type ComponentType } from 'react';
import { matchPath } from 'react-router-dom';
import { loadOnce } from './load-once';
import type { PageProps } from './RouteTable';

/** A page that can be loaded ahead of its first render (a lazy page with its loader). */
export type PreloadablePage = ComponentType<PageProps> & { preload?: () => void };

/**
 * A page whose code loads when it is first shown, or earlier when preloaded (a remote's routes
 * module's `preload`, a link the visitor points at), once either way; again after a load that
 * failed. `beforeLoad` runs as its code is asked for: what the page will show is asked for beside
 * its code, not after it.
 */
export function lazyPage<Name extends string>(load: () => Promise<Record<Name, ComponentType<PageProps>>>, name: Name, beforeLoad?: () => void): PreloadablePage {
  const loadPage = loadOnce((): Promise<{ default: ComponentType<PageProps> }> => {
    beforeLoad?.();
    return load().then((module) => ({ default: module[name] }));
  });
  // A preload that failed shows when the page renders, which asks again.
  return Object.assign(lazy(loadPage), { preload: () => void loadPage().catch(() => {}) });
}

/** A remote's routes module's `preload`: the page of `pages` whose route matches `pathname` starts loading. */
export function preloadPage(pages: Record<string, PreloadablePage>, routes: readonly { path: string }[], pathname: string): void {
  const route = routes.find((entry) => matchPath(entry.path, pathname));
  if (route) pages[route.path]?.preload?.();
}
