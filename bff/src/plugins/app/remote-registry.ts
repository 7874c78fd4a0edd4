import { join } from 'node:path';
import { RemoteRouteTable, type Registry, type RegistryEntry } from '@bimi/contracts/registry';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { REMOTE_NAMES, type RemoteName } from '../../config';
import { watchBuildFile, watchRemoteBuildFile, type BuildFileState } from '../../lib/build-file';

const FileName = z.string().regex(/^[\w.-]+$/);

/** The part of Module Federation's mf-manifest.json the registry reads. */
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
   * remote's own chunk loader, which cannot ask for a fresh copy after a failed preload.)
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

    function watchRemote(name: RemoteName) {
      const override = config.remoteUrls[name];
      const base = override ?? `/mfe/${name}/`;
      const where = (file: string) => (override ? `${override}${file}` : join(config.rootDir, `mfe-${name}`, 'dist', file));

      function watch<T>(file: string, schema: z.core.$ZodType<T>, onChange: (state: BuildFileState<T>) => void) {
        return override
          ? watchRemoteBuildFile(`${override}${file}`, parseJsonWith(schema), { timeoutMs: REMOTE_HOST_TIMEOUT_MS, cacheMs: REMOTE_HOST_CACHE_MS }, onChange)
          : watchBuildFile(where(file), parseJsonWith(schema), onChange);
      }

      const routes = watch('routes.json', RemoteRouteTable, (state) => {
        if (state.status === 'missing') log.warn(`remote ${name}: no routes.json at ${where('routes.json')}; it owns no routes until it is deployed`);
        if (state.status === 'invalid') log.warn(`remote ${name}: routes.json at ${where('routes.json')} is unusable (${state.reason}); it owns no routes`);
        if (state.status === 'ok') {
          if (state.value.remote !== name) log.warn(`remote ${name}: routes.json says it belongs to "${state.value.remote}"`);
          log.info(`remote ${name}: ${state.value.routes.length} routes from ${where('routes.json')}`);
        }
      });
      const manifest = watch('mf-manifest.json', RemoteManifest, (state) => {
        if (state.status === 'invalid') log.warn(`remote ${name}: mf-manifest.json at ${where('mf-manifest.json')} is unusable (${state.reason}); no version is published`);
      });

      async function preloads(): Promise<Preload[]> {
        const state = await manifest();
        if (state.status !== 'ok') return [];
        const entryFile = state.value.metaData?.remoteEntry?.name ?? 'remoteEntry.js';
        return [
          { href: `${base}mf-manifest.json`, as: 'fetch' },
          { href: `${base}${entryFile}`, as: 'script' },
        ];
      }

      async function entry(): Promise<RegistryEntry> {
        const [routesState, manifestState] = await Promise.all([routes(), manifest()]);
        const published: RegistryEntry = {
          name,
          entry: `${base}mf-manifest.json`,
          routes: routesState.status === 'ok' ? routesState.value.routes : [],
        };
        const version = manifestState.status === 'ok' ? manifestState.value.metaData?.buildInfo?.buildVersion : undefined;
        if (version) published.version = version;
        return published;
      }

      return { name, entry, preloads };
    }

    const remotes = REMOTE_NAMES.map(watchRemote);
    fastify.decorate('remoteRegistry', {
      async current() {
        return { remotes: await Promise.all(remotes.map((remote) => remote.entry())) };
      },
      async preloadsFor(name) {
        return (await remotes.find((remote) => remote.name === name)?.preloads()) ?? [];
      },
    } satisfies RemoteRegistry);
  },
  { name: 'remote-registry', decorators: { fastify: ['config'] } },
);
