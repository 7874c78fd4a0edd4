import { use, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type * as z from 'zod/mini';
import { callApi, failureMessage } from '@bimi/session/api';
import { answerShown, renderedAnswer, ServerPageContext } from '@bimi/session/page-state';
import { takePrefetched } from './prefetch-api';

/**
 * The prefetched answer to `path` (taken once, if still fresh), checked against `answer`; or a
 * new request, also when the prefetch failed: the page shows what callApi makes of a failure.
 */
export function takeAnswer<T>(path: string, answer: z.ZodMiniType<T>): Promise<T> {
  const early = takePrefetched(path);
  if (!early) return callApi(path, { answer });
  return early.then(
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
