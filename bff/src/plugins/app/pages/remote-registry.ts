import { join } from 'node:path';
import { RemoteRouteTable, type Registry, type RegistryEntry } from '@bimi/contracts/registry';
import { admissionProblems, FederationManifest, SharingFile } from '@bimi/contracts/remote-admission';
import fp from 'fastify-plugin';
import { z } from 'zod';
import type { RemoteConfig } from '../../../config';
import { watchBuildFile, watchRemoteBuildFile, type BuildFileState } from '../../../lib/build-file';

const FileName = z.string().regex(/^[\w.-]+$/);

/** The part of Module Federation's mf-manifest.json the registry reads (the admission reads more). */
const RemoteManifest = z.looseObject({
  metaData: z
    .looseObject({
      buildInfo: z.looseObject({ buildVersion: z.string().min(1).optional() }).optional(),
      remoteEntry: z.looseObject({ name: FileName }).optional(),
    })
    .optional(),
});

/** A file the page will need at once, announced in its head so the browser fetches it in parallel. */
export interface Preload {
  href: string;
  as: 'fetch' | 'script';
}

/** A remote hosted on another origin: its build files are fetched, and a slow host must not stall page views. */
const REMOTE_HOST_TIMEOUT_MS = 3_000;
const REMOTE_HOST_CACHE_MS = 30_000;

export interface RemoteRegistry {
  /** The registry as the builds on disk (or on their hosts) are now. */
  current(): Promise<Registry>;
  /**
   * What a page of this remote loads before it can render: its manifest and its entry.
   * Without these hints the browser discovers them one after another, each a round trip,
   * after the shell's code has run. (Not the chunks of `./routes`: they are loaded by the
   * remote's own chunk loader, which cannot ask for a fresh copy after a failed preload. Tried
   * again in issue 14: a Retry after the remote was down then failed on "Loading chunk … failed"
   * now and then, the browser handing the failed preload to the chunk loader.)
   */
  preloadsFor(remote: string): Promise<Preload[]>;
}

function parseJsonWith<T>(schema: z.core.$ZodType<T>) {
  return (text: string): T => {
    const result = z.safeParse(schema, JSON.parse(text));
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    throw new Error(issue ? `${issue.path.join('.') || 'file'}: ${issue.message}` : 'does not match the schema');
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    remoteRegistry: RemoteRegistry;
  }
}

export default fp(
  async function remoteRegistry(fastify) {
    const { config, log } = fastify;

    function watchRemote({ name, url, prefixes }: RemoteConfig) {
      const base = url ?? `/mfe/${name}/`;
      const where = (file: string) => (url ? `${url}${file}` : join(config.rootDir, `mfe-${name}`, 'dist', file));

      function watch<T>(file: string, schema: z.core.$ZodType<T>, onChange: (state: BuildFileState<T>) => void = () => {}) {
        return url
          ? watchRemoteBuildFile(`${url}${file}`, parseJsonWith(schema), { timeoutMs: REMOTE_HOST_TIMEOUT_MS, cacheMs: REMOTE_HOST_CACHE_MS }, onChange)
          : watchBuildFile(where(file), parseJsonWith(schema), onChange);
      }

      const routes = watch('routes.json', RemoteRouteTable, (state) => {
        if (state.status === 'missing') log.warn(`remote ${name}: no routes.json at ${where('routes.json')}; it owns no routes until it is deployed`);
        if (state.status === 'invalid') log.warn(`remote ${name}: routes.json at ${where('routes.json')} is unusable (${state.reason}); it owns no routes`);
        if (state.status === 'ok') log.info(`remote ${name}: ${state.value.routes.length} routes from ${where('routes.json')}`);
      });
      const manifest = watch('mf-manifest.json', RemoteManifest, (state) => {
        if (state.status === 'invalid') log.warn(`remote ${name}: mf-manifest.json at ${where('mf-manifest.json')} is unusable (${state.reason}); no version is published`);
      });
      const sharing = watch('sharing.json', SharingFile);

      async function preloads(): Promise<Preload[]> {
        const state = await manifest();
        if (state.status !== 'ok') return [];
        const entryFile = state.value.metaData?.remoteEntry?.name ?? 'remoteEntry.js';
        return [
          { href: `${base}mf-manifest.json`, as: 'fetch' },
          { href: `${base}${entryFile}`, as: 'script' },
        ];
      }

      /** The remote's build files as they are now, read together (a remote on another origin answers within REMOTE_HOST_TIMEOUT_MS). */
      const read = () => Promise.all([routes(), manifest(), sharing()]);

      let refusedFor = '';
      /**
       * The remote as the registry publishes it. Its routes go live only once its build passes the
       * admission rule (@bimi/contracts/remote-admission, as `pnpm deploy:remote` checks it);
       * otherwise it owns no routes and the reason is logged (once per reason).
       */
      function entry(
        [routesState, manifestState, sharingState]: Awaited<ReturnType<typeof read>>,
        shellManifest: FederationManifest | undefined,
        ownedElsewhere: ReadonlyMap<string, string>,
      ): RegistryEntry {
        const published: RegistryEntry = { name, entry: `${base}mf-manifest.json`, routes: [] };
        const version = manifestState.status === 'ok' ? manifestState.value.metaData?.buildInfo?.buildVersion : undefined;
        if (version) published.version = version;
        if (routesState.status !== 'ok') return published;

        const federationManifest = manifestState.status === 'ok' ? z.safeParse(FederationManifest, manifestState.value) : undefined;
        const problems = !federationManifest?.success
          ? [`its mf-manifest.json at ${where('mf-manifest.json')} is missing or not a federation manifest`]
          : sharingState.status !== 'ok'
            ? [`its sharing.json at ${where('sharing.json')} is ${sharingState.status === 'missing' ? 'missing' : `unusable (${sharingState.reason})`}: what it shares cannot be checked`]
            : admissionProblems({ name, manifest: federationManifest.data, routes: routesState.value, sharing: sharingState.value, shellManifest, prefixes, ownedElsewhere });
        const reasons = problems.join('; ');
        if (reasons && reasons !== refusedFor) log.warn(`remote ${name}: refused, it owns no routes: ${reasons}`);
        refusedFor = reasons;
        if (!reasons) published.routes = routesState.value.routes;
        return published;
      }

      return { name, read, entry, preloads };
    }

    const shellManifest = watchBuildFile(join(config.rootDir, 'shell', 'dist', 'mf-manifest.json'), parseJsonWith(FederationManifest), () => {});
    const remotes = config.remotes.map(watchRemote);
    /**
     * The last registry built and the file states it was built from. A file's state is the same
     * object until the file changes, so while no build changed every request gets the same registry
     * object, without running the admission rule again; the page cache (routes/pages.ts) keys on it.
     */
    let last: { states: readonly unknown[]; registry: Registry } | undefined;
    fastify.decorate('remoteRegistry', {
      async current() {
        const [shell, builds] = await Promise.all([shellManifest(), Promise.all(remotes.map(async (remote) => ({ remote, files: await remote.read() })))]);
        const states = [shell, ...builds.flatMap(({ files }) => files)];
        if (last && last.states.length === states.length && last.states.every((state, i) => state === states[i])) return last.registry;
        // In order: a path belongs to the first remote that claims it, and a later claim is refused.
        const owned = new Map<string, string>();
        const registry: Registry = {
          remotes: builds.map(({ remote, files }) => {
            const published = remote.entry(files, shell.status === 'ok' ? shell.value : undefined, owned);
            for (const route of published.routes) owned.set(route.path, remote.name);
            return published;
          }),
        };
        last = { states, registry };
        return registry;
      },
      async preloadsFor(name) {
        return (await remotes.find((remote) => remote.name === name)?.preloads()) ?? [];
      },
    } satisfies RemoteRegistry);
  },
  { name: 'remote-registry', decorators: { fastify: ['config'] } },
);
