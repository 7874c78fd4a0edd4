import { useCallback, useEffect, useState } from 'react';
import type * as z from 'zod/mini';
import { callApi, failureMessage } from '@bimi/session/api';

/** Loads one GET answer of the account API, with its error message and a way to load it again. */
export function useApi<T>(path: string, answer: z.ZodMiniType<T>) {
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({ data: null, error: null, loading: true });
  const load = useCallback(() => {
    setState((s) => ({ ...s, loading: true }));
    return callApi(path, { answer }).then(
      (data) => setState({ data, error: null, loading: false }),
      (error: unknown) => setState({ data: null, error: failureMessage(error), loading: false }),
    );
  }, [path, answer]);
  useEffect(() => {
    void load();
  }, [load]);
  return { ...state, reload: load, set: (data: T) => setState({ data, error: null, loading: false }) };
}
