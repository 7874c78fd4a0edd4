import { lazy, type ComponentType } from 'react';
import { matchPath } from 'react-router-dom';
import type { PageProps } from '@bimi/ui/RouteTable';
import { CheckoutPage } from '../features/checkout/CheckoutPage';

/** A page that can be loaded ahead of its first render (a lazy page with its loader). */
type PreloadablePage = ComponentType<PageProps> & { preload?: () => void };

/**
 * The pages a payment comes back to, with the orders' contract they read it with (and Zod): their
 * own chunk, which `/checkout` does without. The shell preloads the page of a visit with this
 * remote's routes (exposed/routes.tsx), so it comes in the same round trip.
 */
function page<Name extends string>(load: () => Promise<Record<Name, ComponentType<PageProps>>>, name: Name): PreloadablePage {
  let loading: Promise<{ default: ComponentType<PageProps> }> | undefined;
  const preload = () => {
    loading ??= load().then((module) => ({ default: module[name] }));
    loading.catch(() => (loading = undefined));
    return loading;
  };
  return Object.assign(lazy(preload), { preload: () => void preload() });
}

export const pages: Record<string, PreloadablePage> = {
  '/checkout': CheckoutPage,
  '/checkout/success': page(() => import('../features/checkout/SuccessPage'), 'SuccessPage'),
  '/checkout/cancel': page(() => import('../features/checkout/CancelPage'), 'CancelPage'),
};

/** `preload` of this remote's routes module: the page at `pathname` starts loading. */
export function preloadPage(routes: readonly { path: string }[], pathname: string): void {
  const route = routes.find((entry) => matchPath(entry.path, pathname));
  if (route) pages[route.path]?.preload?.();
}
