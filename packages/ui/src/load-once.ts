/**
 * `load` (a chunk's import(), say) run once for every caller, and run again by the next call after
 * it failed: a download that failed is asked for anew on Retry, never answered from a rejected promise.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
