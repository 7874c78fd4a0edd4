import { expect, type Page } from '@playwright/test';

/**
 * What the flows read of the Module Federation runtime's global (@module-federation/runtime-core
 * 2.9: `__FEDERATION__.__SHARE__[hostId][scope][package][version]`).
 */
interface SharedEntry {
  from?: string;
  useIn?: string[];
  loaded?: boolean;
  lib?: unknown;
}
interface FederationInstance {
  name: string;
  registerPlugins(plugins: Array<{ name: string; onLoad?: (args: { id: string; expose?: string; remote?: { name?: string } }) => unknown }>): void;
}
interface FederationGlobal {
  __INSTANCES__: FederationInstance[];
  __SHARE__: Record<string, Record<string, Record<string, Record<string, SharedEntry>>>>;
}
declare global {
  interface Window {
    __FEDERATION__?: FederationGlobal;
  }
}

/** One shared package key (`react`, `react/jsx-runtime`, `@bimi/cart/store`…) as the runtime holds it. */
export interface SharedKeySummary {
  key: string;
  /** One line per registered version, over every host's share scope map. */
  versions: Array<{ host: string; scope: string; version: string; from: string | null; loaded: boolean; useIn: string[] }>;
}

/** Every shared key that is `pkg` itself or one of its subpaths (`pkg/…`). */
export async function sharedKeys(page: Page, pkg: string): Promise<SharedKeySummary[]> {
  return page.evaluate((name) => {
    const federation = window.__FEDERATION__;
    if (!federation) throw new Error('no Module Federation runtime on the page');
    const byKey = new Map<string, SharedKeySummary>();
    for (const [host, scopes] of Object.entries(federation.__SHARE__)) {
      for (const [scope, packages] of Object.entries(scopes)) {
        for (const [key, versions] of Object.entries(packages)) {
          if (key !== name && !key.startsWith(`${name}/`)) continue;
          const summary = byKey.get(key) ?? { key, versions: [] };
          for (const [version, entry] of Object.entries(versions)) {
            summary.versions.push({
              host,
              scope,
              version,
              from: entry.from ?? null,
              loaded: entry.loaded === true || typeof entry.lib === 'function',
              useIn: [...(entry.useIn ?? [])],
            });
          }
          byKey.set(key, summary);
        }
      }
    }
    return [...byKey.values()];
  }, pkg);
}

/**
 * Registers a runtime plugin on the shell's federation instance whose `onLoad` hands back, for
 * `<remote>/<expose>`, a module whose default component throws while rendering. React.lazy reads
 * `.default`, and the runtime returns what onLoad returns when it is a function.
 */
export async function makeExposedModuleThrow(page: Page, remote: string, expose: string, message: string): Promise<void> {
  await page.evaluate(
    ({ remote, expose, message }) => {
      const shell = window.__FEDERATION__?.__INSTANCES__.find((instance) => instance.name === 'shell');
      if (!shell) throw new Error('the shell federation instance is not on the page');
      shell.registerPlugins([
        {
          name: 'e2e-throw',
          onLoad(args) {
            const id = `${remote}/${expose.replace(/^\.\//, '')}`;
            if (args.id !== id && !(args.remote?.name === remote && args.expose === expose)) return undefined;
            const Throwing = () => {
              throw new Error(message);
            };
            return Object.assign(() => null, { default: Throwing });
          },
        },
      ]);
    },
    { remote, expose, message },
  );
}

/**
 * Whether any of a remote's script files the page received so far holds Zod (its schema classes are
 * named in the minified code). Call before the page loads: it listens from then on. Issue 34: a page
 * that reads no API answer as it opens loads no Zod of its remote's until it does.
 */
export function remoteLoadsZod(page: Page, remote: string): () => Promise<boolean> {
  const code: Promise<string>[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith(`/mfe/${remote}/`) && pathname.endsWith('.js')) code.push(response.text());
  });
  return async () => {
    expect(code.length, `the page loaded ${remote}'s code`).toBeGreaterThan(0);
    return (await Promise.all(code)).some((text) => text.includes('$ZodObject'));
  };
}

/**
 * Whether any script file the page received so far holds MUI (its components name their classes,
 * `"MuiButtonBase"`, in the minified code). Call before the page loads: it listens from then on.
 * Issue 34: the shell's frame draws without MUI, so a first view without a remote loads none.
 */
export function pageLoadsMui(page: Page): () => Promise<boolean> {
  const code: Promise<string>[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.endsWith('.js')) code.push(response.text());
  });
  return async () => (await Promise.all(code)).some((text) => /["'`]Mui[A-Z]/.test(text));
}
