import { useCallback, useEffect, useState } from 'react';
import * as z from 'zod/mini';
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
    const answer = callApi(path, { answer: z.unknown() });
    answer.catch(() => {});
    prefetched.set(path, { at: Date.now(), answer });
  }
}

/** The prefetched answer to `path` (taken once, if still fresh), checked against `answer`, or a new request. */
export function takeAnswer<T>(path: string, answer: z.ZodMiniType<T>): Promise<T> {
  const early = prefetched.get(path);
  prefetched.delete(path);
  if (!early || Date.now() - early.at > PREFETCH_KEPT_MS) return callApi(path, { answer });
  return early.answer.then((data) => answer.parse(data));
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
