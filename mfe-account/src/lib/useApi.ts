import { useCallback, useEffect, useState } from 'react';
import type * as z from 'zod/mini';
import { callApi, failureMessage } from '@bimi/session/api';

/** A prefetched answer not taken within this time is dropped: the page asks again. */
const PREFETCH_KEPT_MS = 10_000;
const prefetched = new Map<string, { at: number; answer: Promise<unknown> }>();

/**
 * Asks for GET answers a page is about to show while its code still loads (its lazy loader, in
 * src/app/pages.tsx): the page's first useApi of each path takes the answer instead of asking
 * once it has rendered, one round trip later.
 */
export function prefetchApi(paths: readonly string[]): void {
  for (const path of paths) {
    // A plain GET: a refusal (401 for a visitor whose session ended) is not acted on here, before
    // the page has rendered; the page then asks itself (takeAnswer) and callApi handles it.
    const answer = fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin' }).then((response) =>
      response.ok ? (response.json() as Promise<unknown>) : Promise.reject(new Error(`${path} answered ${response.status}`)),
    );
    answer.catch(() => {});
    prefetched.set(path, { at: Date.now(), answer });
  }
}

/**
 * The prefetched answer to `path` (taken once, if still fresh), checked against `answer`; or a
 * new request, also when the prefetch failed: the page shows what callApi makes of a failure.
 */
export function takeAnswer<T>(path: string, answer: z.ZodMiniType<T>): Promise<T> {
  const early = prefetched.get(path);
  prefetched.delete(path);
  if (!early || Date.now() - early.at > PREFETCH_KEPT_MS) return callApi(path, { answer });
  return early.answer.then(
    (data) => answer.parse(data),
    () => callApi(path, { answer }),
  );
}

/** Loads one GET answer of the account API, with its error message and a way to load it again. */
export function useApi<T>(path: string, answer: z.ZodMiniType<T>) {
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({ data: null, error: null, loading: true });
  const load = useCallback(() => {
    setState((s) => ({ ...s, loading: true }));
    return takeAnswer(path, answer).then(
      (data) => setState({ data, error: null, loading: false }),
      (error: unknown) => setState({ data: null, error: failureMessage(error), loading: false }),
    );
  }, [path, answer]);
  useEffect(() => {
    void load();
  }, [load]);
  return { ...state, reload: load, set: (data: T) => setState({ data, error: null, loading: false }) };
}
