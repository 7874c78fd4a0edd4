import { renderedAnswer } from '@bimi/session/page-state';

/** A prefetched answer not taken within this time is dropped: the page asks again. */
const PREFETCH_KEPT_MS = 10_000;
const prefetched = new Map<string, { at: number; answer: Promise<unknown> }>();

/**
 * Asks for GET answers a page is about to show while its code still loads (its lazy loader, in
 * src/app/pages.tsx): the page's first useApi of each path takes the answer instead of asking
 * once it has rendered, one round trip later. A module of its own, without the API client and its
 * Zod: the routes module imports it, and this remote's Zod runs with the page that reads the
 * answers (load-dashboard-page.ts), not with the routes.
 */
export function prefetchApi(paths: readonly string[]): void {
  // On the server the page's answers come with the render (ServerPageContext).
  if (typeof window === 'undefined') return;
  for (const path of paths) {
    // The page was rendered with it: hydration shows that one.
    if (renderedAnswer(path) !== undefined) continue;
    // A plain GET: a refusal (401 for a visitor whose session ended) is not acted on here, before
    // the page has rendered; the page then asks itself (takeAnswer) and callApi handles it.
    const answer = fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin' }).then((response) =>
      response.ok ? (response.json() as Promise<unknown>) : Promise.reject(new Error(`${path} answered ${response.status}`)),
    );
    answer.catch(() => {});
    prefetched.set(path, { at: Date.now(), answer });
  }
}

/** The answer prefetched for `path`, once, if it is still fresh (useApi's takeAnswer checks it). */
export function takePrefetched(path: string): Promise<unknown> | undefined {
  const early = prefetched.get(path);
  prefetched.delete(path);
  return early && Date.now() - early.at <= PREFETCH_KEPT_MS ? early.answer : undefined;
}
