import { useEffect } from 'react';

/**
 * Marks the page as ready to use (`<html data-page-ready="true">`) once the route's remote is on
 * screen and live: rendered in the browser or, on a server-rendered page, hydrated; or its error
 * shown. Until then a server-rendered page shows its content but does not answer clicks yet: the
 * e2e flows wait for this mark after every load (e2e/support/test.ts).
 */
export function PageReady() {
  useEffect(() => {
    document.documentElement.dataset.pageReady = 'true';
  }, []);
  return null;
}
