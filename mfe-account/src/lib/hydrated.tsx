import { Suspense, useSyncExternalStore, type ReactNode } from 'react';

const noSubscription = () => () => {};

/**
 * False on the server and while the browser hydrates the page the server rendered (issue 14);
 * true right after, and in every render the browser makes on its own. For what only the browser
 * knows: the visitor's time zone, the size a chart is drawn at.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/** `children` drawn in the browser only, once hydrated: `fallback` on the server, while hydrating and while their code loads. */
export function BrowserOnly({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  return useHydrated() ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}
