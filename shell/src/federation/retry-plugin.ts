import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

const retries = new Map<string, number>();

/** Counts a visitor's Retry of a remote: its next entry request must not reuse an earlier failure. */
export function countRetry(remote: string): void {
  retries.set(remote, (retries.get(remote) ?? 0) + 1);
}

/**
 * The page's head preloads the route's remote entry (see the bff's shell page). When that
 * remote was down, the browser keeps the failed preload and hands it to the next request
 * for the same URL: after a Retry the entry is requested under a fresh URL instead.
 */
export function retryPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'bimi-retry-fresh-entry',
    createScript({ url, remoteInfo }) {
      const attempt = remoteInfo && retries.get(remoteInfo.name);
      if (!attempt) return undefined;
      const script = document.createElement('script');
      script.src = `${url}${url.includes('?') ? '&' : '?'}retry=${attempt}`;
      return script;
    },
  };
}
