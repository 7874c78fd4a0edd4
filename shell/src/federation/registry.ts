import { registerPlugins, registerRemotes, loadRemote } from '@module-federation/enhanced/runtime';
import { Registry, type RegistryEntry } from '@bimi/contracts/registry';
import { countRetry, retryPlugin } from './retry-plugin';

export type RegistryState = { status: 'ready'; remotes: RegistryEntry[] } | { status: 'unavailable'; remotes: RegistryEntry[]; message: string };

let state: RegistryState = { status: 'unavailable', remotes: [], message: 'not loaded' };

function toRuntimeRemote(entry: RegistryEntry) {
  return { name: entry.name, entry: new URL(entry.entry, window.location.href).href };
}

/** The registry comes inlined in the page by the bff; /remotes.json is the fallback. */
async function readRegistry(): Promise<unknown> {
  const inline = document.getElementById('remote-registry')?.textContent;
  if (inline) return JSON.parse(inline);
  const response = await fetch('/remotes.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`GET /remotes.json answered ${response.status}`);
  return response.json();
}

/** Reads the runtime registry and registers every remote; nothing is downloaded yet. */
export async function initFederation(): Promise<RegistryState> {
  try {
    const registry = Registry.parse(await readRegistry());
    registerPlugins([retryPlugin()]);
    registerRemotes(registry.remotes.map(toRuntimeRemote));
    state = { status: 'ready', remotes: registry.remotes };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error('[shell] the remote registry is unavailable:', message);
    state = { status: 'unavailable', remotes: [], message };
  }
  return state;
}

export class RemoteLoadError extends Error {
  constructor(
    readonly remote: string,
    cause: unknown,
  ) {
    super(`The ${remote} remote could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'RemoteLoadError';
  }
}

const pending = new Map<string, Promise<unknown>>();

/**
 * Loads an exposed module (`storefront/routes`, `checkout/CartDrawer`) once; hover and
 * idle preloads share the same promise. A failure is forgotten so Retry can try again.
 */
export function loadRemoteModule<T>(remote: string, expose: string): Promise<T> {
  const id = `${remote}/${expose.replace(/^\.\//, '')}`;
  let promise = pending.get(id);
  if (!promise) {
    promise = loadRemote<T>(id).then((module) => {
      if (!module) throw new Error(`${id} exported nothing`);
      return module;
    });
    promise.catch(() => pending.delete(id));
    pending.set(id, promise);
  }
  return promise.catch((error: unknown) => {
    throw error instanceof RemoteLoadError ? error : new RemoteLoadError(remote, error);
  }) as Promise<T>;
}

/** Forgets a remote that failed, so the next load fetches its entry again. */
export function resetRemote(remote: string): void {
  const entry = state.remotes.find((r) => r.name === remote);
  if (!entry) return;
  for (const id of pending.keys()) if (id.startsWith(`${remote}/`)) pending.delete(id);
  countRetry(remote);
  registerRemotes([toRuntimeRemote(entry)], { force: true });
}

export function registryRemotes(): readonly RegistryEntry[] {
  return state.remotes;
}
