import { use, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type * as z from 'zod/mini';
import { callApi, failureMessage } from '@bimi/session/api';
import { answerShown, renderedAnswer, ServerPageContext } from '@bimi/session/page-state';

/** A prefetched answer not taken within this time is dropped: the page asks again. */
const PREFETCH_KEPT_MS = 10_000;
const prefetched = new Map<string, { at: number; answer: Promise<unknown> }>();

/**
 * Asks for GET answers a page is about to show while its code still loads (its lazy loader, in
 * src/app/pages.tsx): the page's first useApi of each path takes the answer instead of asking
 * once it has rendered, one round trip later.
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

interface ApiState<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
}

/** The first state of a useApi: the answer the page is rendered with, when there is one that fits its contract. */
function firstState<T>(rendered: unknown, answer: z.ZodMiniType<T>): ApiState<T> {
  const parsed = rendered === undefined ? undefined : answer.safeParse(rendered);
  return parsed?.success ? { data: parsed.data, error: null, loading: false } : { data: null, error: null, loading: true };
}

/**
 * Loads one GET answer of the account API, with its error message and a way to load it again. A
 * signed-in page rendered on the server (issue 14) has it at once: on the server the render waits
 * for it (the bff asks its own API with the visitor's cookie), and the browser's hydration takes
 * the same answer from the page, once; without one, the page shows its loading state and asks.
 */
export function useApi<T>(path: string, answer: z.ZodMiniType<T>) {
  const serverPage = useContext(ServerPageContext);
  const rendered = serverPage ? use(serverPage.answer(path)) : renderedAnswer(path);
  const [state, setState] = useState(() => firstState(rendered, answer));
  const fromPage = useRef(!state.loading);
  const load = useCallback(() => {
    setState((s) => ({ ...s, loading: true }));
    return takeAnswer(path, answer).then(
      (data) => setState({ data, error: null, loading: false }),
      (error: unknown) => setState({ data: null, error: failureMessage(error), loading: false }),
    );
  }, [path, answer]);
  useEffect(() => {
    if (fromPage.current) {
      fromPage.current = false;
      answerShown(path);
      return;
    }
    void load();
  }, [load, path]);
  return { ...state, reload: load, set: (data: T) => setState({ data, error: null, loading: false }) };
}
