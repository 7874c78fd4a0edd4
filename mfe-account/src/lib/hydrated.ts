import { useSyncExternalStore } from 'react';

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
