// What a remote's build must be before it goes live: checked by `pnpm deploy:remote` before it
// swaps a release in, and by the bff's registry for every remote it is configured with (one on
// another origin is never deployed by the script). Both use this one rule.
import semver from 'semver';
import * as z from 'zod/mini';
import type { RemoteRouteTable } from './registry';
import { findRouteOwner } from './route-match';

/**
 * sharing.json, published beside every build by packages/webpack-config: the share keys the
 * build uses as strict singletons (`@bimi/cart/`, a trailing slash for every subpath) and the
 * version range each accepts.
 */
export const SharingFile = z.object({ singletons: z.record(z.string(), z.string()) });
export type SharingFile = z.infer<typeof SharingFile>;

/** The part of Module Federation's mf-manifest.json the admission reads. */
export const FederationManifest = z.looseObject({
  name: z.string(),
  metaData: z.looseObject({ buildInfo: z.looseObject({ buildVersion: z.string() }) }),
  exposes: z.array(z.looseObject({ path: z.string() })),
  shared: z.array(z.looseObject({ name: z.string(), version: z.string(), requiredVersion: z.optional(z.string()) })),
});
export type FederationManifest = z.infer<typeof FederationManifest>;

export interface AdmissionInput {
  /** The name the remote is configured (or deployed) under. */
  name: string;
  manifest: FederationManifest;
  routes: RemoteRouteTable;
  sharing: SharingFile;
  /** The live shell's manifest, what it provides; absent when the shell is served from elsewhere. */
  shellManifest?: FederationManifest;
  /** Where the remote may have pages (`/partners`), when its configuration limits it. */
  prefixes?: readonly string[];
  /** Paths other live remotes already own, with their owner. */
  ownedElsewhere?: ReadonlyMap<string, string>;
}

const insidePrefix = (path: string, prefix: string) => {
  const base = prefix.replace(/\/+$/, '');
  return path === base || path.startsWith(`${base}/`) || base === '';
};

/** Whether a module is shared under a key: the key itself, or a module under a trailing-slash key. */
const sharedUnder = (key: string, module: string) => module === key || (key.endsWith('/') && module.startsWith(key));

/**
 * Why the build cannot go live, one sentence each; [] when it can. A singleton module the shell
 * does not provide is no problem (the first remote that loads it provides it to the others); one
 * the shell provides at a version outside the remote's range would make the federation runtime
 * refuse the remote's pages (strictVersion).
 */
export function admissionProblems(input: AdmissionInput): string[] {
  const { name, manifest, routes, sharing, shellManifest } = input;
  const problems: string[] = [];
  if (manifest.name !== name) problems.push(`its manifest is the build of "${manifest.name}", not of "${name}"`);
  if (!manifest.exposes.some((expose) => expose.path === './routes')) problems.push('it does not expose ./routes');
  if (routes.remote !== name) problems.push(`its routes.json belongs to "${routes.remote}"`);
  for (const route of routes.routes) {
    if (input.prefixes && !input.prefixes.some((prefix) => insidePrefix(route.path, prefix))) {
      problems.push(`its route ${route.path} is outside its prefixes (${input.prefixes.join(', ')})`);
    }
    const owner = input.ownedElsewhere?.get(route.path);
    if (owner && owner !== name) problems.push(`its route ${route.path} is already ${owner}'s`);
    // A route that only forwards leads to a page of the remote's own: never to nothing, another
    // remote's page or another forward (a loop the browser would follow until it gives up).
    if (route.redirectTo) {
      const target = findRouteOwner([{ name, routes: routes.routes }], route.redirectTo)?.route;
      if (!target) problems.push(`its route ${route.path} forwards to ${route.redirectTo}, which is none of its pages`);
      else if (target.redirectTo) problems.push(`its route ${route.path} forwards to ${route.redirectTo}, which forwards again`);
    }
  }
  // Every module of a singleton package the shell provides, not only those this remote imports:
  // the remote's own copy of another module of the package would meet the shell's at run time.
  for (const [key, range] of Object.entries(sharing.singletons)) {
    for (const provided of shellManifest?.shared.filter((entry) => sharedUnder(key, entry.name)) ?? []) {
      if (!semver.satisfies(provided.version, range)) {
        problems.push(`it needs ${provided.name} ${range}, and the shell provides ${provided.version} (deploy a shell built with it first)`);
      }
    }
  }
  return [...new Set(problems)];
}
