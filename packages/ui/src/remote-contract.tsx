// A remote's contract test (issue 15): what it exposes, and that its `./routes` module gives every
// route of its routes.json its own page. Each remote's `pnpm test` runs it (src/exposed/contract.test.tsx),
// so a remote team learns it broke the shell's contract before the shell or QA does.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { prerenderToNodeStream } from 'react-dom/static';
import { ThemeProvider } from '@mui/material/styles';
import { matchPath, MemoryRouter } from 'react-router-dom';
import { RemoteRouteTable } from '@bimi/contracts/registry';
import { concretePath } from '@bimi/contracts/route-match';
import { REMOTE_EXPOSES, type RemoteName, type RemoteRoutesModule } from '@bimi/contracts/remote-modules';
import { theme } from './theme';

/** The modules the remote's webpack configuration exposes, read the way the build reads them. */
function exposesOf(appDir: string): string[] {
  const script = `
    const { default: config } = await import(${JSON.stringify(path.join(appDir, 'webpack.config.mjs'))});
    const federation = config.plugins.find((plugin) => plugin.constructor.name === 'ModuleFederationPlugin');
    console.log(JSON.stringify(Object.keys(federation._options.exposes)));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: appDir });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout.trim().split('\n').pop() ?? '[]') as string[];
}

/**
 * The whole HTML of a route, once every lazy page has loaded, inside what the shell gives every
 * remote (its router and the site's theme). No data: a page that fetches shows its loading state.
 */
async function renderRoute(routes: RemoteRoutesModule, url: string): Promise<{ html: string; errors: string[] }> {
  const Routes = routes.default;
  // An error inside a Suspense boundary does not fail the render (its fallback is sent): collected here.
  const errors: string[] = [];
  const { prelude } = await prerenderToNodeStream(
    <ThemeProvider theme={theme}>
      <MemoryRouter initialEntries={[url]}>
        <Routes notFound={<p data-contract-not-found="" />} />
      </MemoryRouter>
    </ThemeProvider>,
    { onError: (error) => void errors.push(error instanceof Error ? error.message : String(error)) },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude.pipe(new PassThrough())) chunks.push(chunk as Buffer);
  return { html: Buffer.concat(chunks).toString('utf8'), errors };
}

export function describeRemoteContract({ remote, appDir, routes, table }: { remote: RemoteName; appDir: string; routes: RemoteRoutesModule; table: unknown }) {
  describe(`${remote}: the contract with the shell`, () => {
    it('exposes exactly the modules of the contract (@bimi/contracts/remote-modules)', () => {
      expect(exposesOf(appDir).sort()).toEqual([...REMOTE_EXPOSES[remote]].sort());
    });

    const published = RemoteRouteTable.parse(table);
    it('publishes its own route table', () => {
      expect(published.remote).toBe(remote);
    });

    // Its own page, not the shell's not-found. A route that only forwards (redirectTo) is the
    // shell's and the bff's to follow: the remote is never asked for it.
    const pages = published.routes.filter((route) => route.redirectTo === undefined);
    it.each(pages.map((route) => [route.path, concretePath(route.path)]))('renders %s (as %s) inside its marked wrapper', async (_path, url) => {
      const { html, errors } = await renderRoute(routes, url);
      expect(errors).toEqual([]);
      expect(html).toContain(`data-remote="${remote}"`);
      expect(html).not.toContain('data-contract-not-found');
    });

    const forwards = published.routes.flatMap((route) => (route.redirectTo ? [[route.path, route.redirectTo]] : []));
    if (forwards.length > 0) {
      it.each(forwards)('forwards %s to %s, a page of its own, and forwards it itself for a shell from before redirectTo', async (path, target) => {
        expect(pages.some((route) => matchPath(route.path, target as string))).toBe(true);
        // Mounted for it by such a shell: neither its not-found nor a page of its title.
        const { html, errors } = await renderRoute(routes, path as string);
        expect(errors).toEqual([]);
        expect(html).toContain(`data-remote="${remote}"`);
        expect(html).not.toContain('data-contract-not-found');
        expect(html).not.toContain('<h1');
      });
    }
  });
}
