// One rule for which remote owns a path, used by the shell (which page to mount), the bff
// (200 or 404, and the page's head) and the e2e flows: they cannot disagree.
/**
 * Whether a URL path is one of a route's paths, the way react-router matches it: whole segments,
 * `:param` for exactly one segment, a final `*` for the rest (or nothing), a trailing slash ignored.
 * Segments compare case-insensitively because react-router does by default, and the status the
 * bff sends must agree with the page the shell then renders.
 */
export function matchesRoutePath(routePath: string, urlPath: string): boolean {
  const pattern = segmentsOf(routePath);
  const actual = segmentsOf(urlPath).map(decodeSegment);
  if (actual.includes(null)) return false;

  for (const [index, part] of pattern.entries()) {
    if (part === '*' && index === pattern.length - 1) return true;
    const segment = actual[index];
    if (segment === undefined || segment === null) return false;
    if (part.startsWith(':')) continue;
    if (part.toLowerCase() !== segment.toLowerCase()) return false;
  }
  return actual.length === pattern.length;
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * How specific a route path is, so that when several routes match a URL the shell and the
 * bff pick the same one: static segments outrank `:params`, which outrank a trailing `*`.
 */
export function routeSpecificity(path: string): number {
  return path
    .split('/')
    .filter(Boolean)
    .reduce((score, segment) => score + (segment === '*' ? 1 : segment.startsWith(':') ? 10 : 100), 0);
}

/** The remote and route that own a URL path: the most specific matching route of all remotes. */
export function findRouteOwner<Remote extends { name: string; routes: readonly { path: string }[] }>(
  remotes: readonly Remote[],
  urlPath: string,
): { remote: Remote; route: Remote['routes'][number] } | null {
  let best: { remote: Remote; route: Remote['routes'][number]; score: number } | null = null;
  for (const remote of remotes) {
    for (const route of remote.routes) {
      if (!matchesRoutePath(route.path, urlPath)) continue;
      const score = routeSpecificity(route.path);
      if (!best || score > best.score) best = { remote, route, score };
    }
  }
  return best && { remote: best.remote, route: best.route };
}

/** A route path turned into a URL a visitor can open (QA's flows, a remote's contract test): `:domain` → example.com, a final `*` → sample. */
export function concretePath(routePath: string): string {
  return routePath
    .replace(/:domain\b/g, 'example.com')
    .replace(/:[A-Za-z]+/g, 'sample')
    .replace(/\*$/, 'sample');
}
