import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInstance, type ModuleFederation, type ModuleFederationRuntimePlugin } from '@module-federation/runtime';
import type { ConsentChoice } from '@bimi/contracts/consent';
import type { PublicConfig } from '@bimi/contracts/public-config';
import type { Registry, RegistryEntry } from '@bimi/contracts/registry';
import type { RenderResultOfAnyShell, ShellRenderModule, SignedInRender } from '@bimi/contracts/server-render';
import fp from 'fastify-plugin';

/** A render as the page route uses it: the markup, what failed, and what it cost (the Server-Timing header). */
export type ServerRendered = RenderResultOfAnyShell & {
  /** Wall time of this render in ms, and the process's CPU time meanwhile. */
  ms: number;
  cpuMs: number;
};

export interface ServerRender {
  /**
   * The markup of #root for `url` (path and query), rendered with the server builds of the shell
   * and the remotes the registry names; undefined when the page is left to the browser (server
   * rendering off, the shell's server build missing, a failure or the time limit): the page then
   * renders in the browser as before. Parts that failed on the server are in `errors`: the browser
   * renders those parts. `consent` is the visitor's cookie choice (the cookie banner shows without one);
   * `signedIn`, for a signed-in visitor's account page only, their session and answers.
   */
  render(url: string, registry: Registry, publicConfig: PublicConfig, consent: ConsentChoice | null, signedIn?: SignedInRender): Promise<ServerRendered | undefined>;
  /**
   * What a render depends on besides its URL, the registry and the consent: the server builds in
   * use (their versions, and when each local one was written, as a remote team's rebuild keeps its
   * version). A page kept under another answer is stale.
   */
  buildsOf(registry: Registry): string;
}

declare module 'fastify' {
  interface FastifyInstance {
    serverRender: ServerRender;
  }
}

/**
 * The origin under which the bff names its own build files. It never resolves: an entry under it
 * is read from the build folder on this machine (loadEntry below), never fetched.
 */
const BUILD_ORIGIN = 'http://build.invalid';
/** A server build rebuilt in place (a remote team's dev loop) is seen within this time. */
const BUILD_CHECK_MS = 1_000;
/**
 * After a failure (a container that would not load or threw) the next render starts a new
 * federation instance, at most this often: each instance keeps the code it loaded, so one per
 * request while a remote is broken would eat memory.
 */
const RETRY_AFTER_FAILURE_MS = 10_000;
/**
 * Federation instances made by this process. The runtime keeps loaded containers per entry URL for
 * the whole process, so each instance names its entries with its own number: a new instance (a
 * deploy, a retry after a failure, another bff in the same process) loads them afresh.
 */
let instances = 0;

/**
 * Server-side rendering of the pages (issue 14; an account page whole for its signed-in visitor,
 * else its frame). The bff is a Module Federation host in Node: it loads the shell's server
 * container (`shell/render`) and, through it, each remote's server container (`<remote>/routes`),
 * from the same registry the browser reads: a remote built on this machine from its build folder,
 * a remote on another origin (REMOTE_<NAME>_URL) from that origin's `server/remoteEntry.js`.
 * Never from a URL a request names. A registry change (a deploy) starts a new federation instance,
 * so the next render uses the new code without a bff restart.
 */
export default fp(
  async function serverRender(fastify) {
    const { config, log } = fastify;
    const timeoutMs = config.serverRenderTimeoutMs;
    const shellEntry = join(config.rootDir, 'shell', 'dist', 'server', 'remoteEntry.js');
    const folders = new Map<string, string>([
      ['shell', join(config.rootDir, 'shell', 'dist')],
      ...config.remotes.filter((remote) => !remote.url).map(({ name }) => [name, join(config.rootDir, `mfe-${name}`, 'dist')] as const),
    ]);
    const remoteUrls = new Map(config.remotes.map(({ name, url }) => [name, url]));

    /** Reads a container of this machine's builds with Node's require, fresh each time (a deploy replaces the file). */
    const localBuilds: ModuleFederationRuntimePlugin = {
      name: 'bff-local-builds',
      loadEntry({ remoteInfo }) {
        const url = new URL(remoteInfo.entry);
        if (url.origin !== BUILD_ORIGIN) return undefined;
        const [, app, ...rest] = url.pathname.split('/');
        const folder = app === undefined ? undefined : folders.get(app);
        if (!folder || rest.join('/') !== 'server/remoteEntry.js') throw new Error(`not a server entry of this site: ${url.pathname}`);
        const file = join(folder, 'server', 'remoteEntry.js');
        delete require.cache[file];
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        return require(file);
      },
    };

    function serverEntryOf(entry: RegistryEntry, instance: number): string {
      const override = remoteUrls.get(entry.name);
      const query = `?v=${encodeURIComponent(entry.version ?? '')}&instance=${instance}`;
      return override ? `${override}server/remoteEntry.js${query}` : `${BUILD_ORIGIN}/${entry.name}/server/remoteEntry.js${query}`;
    }

    let current: { key: string; federation: ModuleFederation; shell: Promise<ShellRenderModule>; failedAt?: number } | undefined;
    /** When a server container on this machine was last written: a rebuild that keeps its version (a remote team's dev loop) is new code too. */
    function builtAt(app: string): number {
      const folder = folders.get(app);
      try {
        return folder ? statSync(join(folder, 'server', 'remoteEntry.js')).mtimeMs : 0;
      } catch {
        return 0;
      }
    }

    let builds: { registry: Registry; key: string; at: number } | undefined;
    /** The server builds in use; the build folders are looked at again at most once per BUILD_CHECK_MS. */
    function buildsOf(registry: Registry): string {
      const now = performance.now();
      if (builds?.registry === registry && now - builds.at < BUILD_CHECK_MS) return builds.key;
      const key = JSON.stringify([builtAt('shell'), ...registry.remotes.map((remote) => [remote.name, remote.entry, remote.version, builtAt(remote.name)])]);
      builds = { registry, key, at: now };
      return key;
    }

    /** The federation instance for this registry: a new one when a remote was deployed or rebuilt. */
    function federationFor(registry: Registry) {
      const key = buildsOf(registry);
      if (current?.key === key && (current.failedAt === undefined || fastify.now() - current.failedAt < RETRY_AFTER_FAILURE_MS)) return current;
      instances += 1;
      const federation = createInstance({
        name: `bff_server_render_${instances}`,
        remotes: [
          { name: 'shell', entry: `${BUILD_ORIGIN}/shell/server/remoteEntry.js?instance=${instances}` },
          ...registry.remotes.map((remote) => ({ name: remote.name, entry: serverEntryOf(remote, instances) })),
        ],
        shared: {},
        plugins: [localBuilds],
      });
      const shell = federation.loadRemote<ShellRenderModule>('shell/render').then((module) => {
        if (!module?.renderPage) throw new Error('shell/render exports no renderPage');
        return module;
      });
      const instance: NonNullable<typeof current> = { key, federation, shell };
      // A shell that failed to load is tried again in a new instance (after RETRY_AFTER_FAILURE_MS).
      shell.catch(() => {
        instance.failedAt ??= fastify.now();
      });
      current = instance;
      return instance;
    }

    let warnedMissing = false;

    fastify.decorate('serverRender', {
      buildsOf,
      async render(url, registry, publicConfig, consent, signedIn) {
        if (timeoutMs === 0) return undefined;
        if (!existsSync(shellEntry)) {
          if (!warnedMissing) log.warn(`no server build of the shell at ${shellEntry}: pages render in the browser only (run the build)`);
          warnedMissing = true;
          return undefined;
        }
        const instance = federationFor(registry);
        const { federation, shell } = instance;

        const signal = AbortSignal.timeout(timeoutMs);
        // Whatever the render does with the signal, the page waits no longer than the time limit.
        const timeLimit = new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error(`not rendered within ${timeoutMs} ms (SERVER_RENDER_TIMEOUT_MS)`)), { once: true }),
        );
        timeLimit.catch(() => undefined);
        const started = performance.now();
        const cpu = process.cpuUsage();
        try {
          const { renderPage } = await Promise.race([shell, timeLimit]);
          const rendering = renderPage({
            url,
            remotes: registry.remotes,
            config: publicConfig,
            consent,
            loadRemoteModule: (remote, expose) =>
              federation.loadRemote(`${remote}/${expose.replace(/^\.\//, '')}`).then((module) => {
                if (!module) throw new Error(`${remote}/${expose} exported nothing`);
                return module as never;
              }),
            signal,
            ...(signedIn ? { signedIn } : {}),
          });
          rendering.catch(() => undefined);
          const result = await Promise.race([rendering, timeLimit]);
          // Cut off at the time limit, React leaves the unfinished parts pending, to be revealed by an
          // inline script the Content-Security-Policy refuses: the whole page goes to the browser instead.
          if (signal.aborted) throw new Error('aborted');
          if (result.errors.length > 0) {
            log.warn({ url, errors: result.errors }, 'server rendering: parts of the page failed and are left to the browser');
            // A container that failed to load stays failed in its instance: a later render starts a new one.
            instance.failedAt ??= fastify.now();
          }
          const used = process.cpuUsage(cpu);
          return { ...result, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
        } catch (error) {
          if (signal.aborted) log.warn({ url, timeoutMs }, 'server rendering outlasted its time limit: the page renders in the browser');
          else log.warn({ url, err: error }, 'server rendering failed: the page renders in the browser');
          return undefined;
        }
      },
    } satisfies ServerRender);
  },
  { name: 'server-render', decorators: { fastify: ['config', 'now'] } },
);
