import { matchPath } from 'react-router-dom';
import { routeSpecificity, type RegistryEntry, type RemoteRoute } from '@bimi/contracts/registry';

export interface RouteOwner {
  remote: RegistryEntry;
  route: RemoteRoute;
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
      const score = routeSpecificity(route.path);
      if (!best || score > best.score) best = { remote, route, score };
    }
  }
  return best && { remote: best.remote, route: best.route };
}
