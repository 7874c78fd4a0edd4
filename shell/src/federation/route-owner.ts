import { matchPath } from 'react-router-dom';
import type { RegistryEntry, RemoteRoute } from '@bimi/contracts/registry';

export interface RouteOwner {
  remote: RegistryEntry;
  route: RemoteRoute;
}

/** Static segments outrank `:params`, which outrank a trailing `*`. */
function specificity(path: string): number {
  return path
    .split('/')
    .filter(Boolean)
    .reduce((score, segment) => score + (segment === '*' ? 1 : segment.startsWith(':') ? 10 : 100), 0);
}

/**
 * Which remote owns a path, from the routes each remote publishes in the registry. The
 * shell holds no route table of its own: a remote adding a page needs no shell change.
 */
export function findRouteOwner(remotes: readonly RegistryEntry[], pathname: string): RouteOwner | null {
  let best: (RouteOwner & { score: number }) | null = null;
  for (const remote of remotes) {
    for (const route of remote.routes) {
      if (!matchPath({ path: route.path, end: true }, pathname)) continue;
      const score = specificity(route.path);
      if (!best || score > best.score) best = { remote, route, score };
    }
  }
  return best && { remote: best.remote, route: best.route };
}
