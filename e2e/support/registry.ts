import type { APIRequestContext } from '@playwright/test';
import { expect } from './test';

/** The parts of GET /remotes.json (packages/contracts/src/registry.ts) the flows read. */
export interface RegistryRoute {
  path: string;
  title: string;
  layout: 'public' | 'enrollment' | 'auth' | 'legal' | 'checkout' | 'landing' | 'account';
  header: 'white' | 'fade';
  description?: string;
}
export interface RegistryEntry {
  name: string;
  entry: string;
  version?: string;
  routes: RegistryRoute[];
}

export async function fetchRegistry(request: APIRequestContext): Promise<RegistryEntry[]> {
  const response = await request.get('/remotes.json');
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { remotes: RegistryEntry[] };
  return body.remotes;
}

/** A route path turned into a URL a visitor can open: `:domain` → example.com, a final `*` → sample. */
export function concretePath(routePath: string): string {
  return routePath.replace(/:domain\b/g, 'example.com').replace(/:[A-Za-z]+/g, 'sample').replace(/\*$/, 'sample');
}

function matches(routePath: string, urlPath: string): boolean {
  const pattern = routePath.split('/').filter(Boolean);
  const actual = urlPath.split('/').filter(Boolean);
  for (const [index, part] of pattern.entries()) {
    if (part === '*' && index === pattern.length - 1) return true;
    const segment = actual[index];
    if (segment === undefined) return false;
    if (!part.startsWith(':') && part.toLowerCase() !== segment.toLowerCase()) return false;
  }
  return actual.length === pattern.length;
}

/** The documented rule (shell route-owner, bff pages): static segments outrank :params, which outrank a final *. */
function specificity(routePath: string): number {
  return routePath
    .split('/')
    .filter(Boolean)
    .reduce((score, segment) => score + (segment === '*' ? 1 : segment.startsWith(':') ? 10 : 100), 0);
}

export function findOwner(remotes: RegistryEntry[], urlPath: string): { remote: string; route: RegistryRoute } | null {
  let best: { remote: string; route: RegistryRoute; score: number } | null = null;
  for (const remote of remotes) {
    for (const route of remote.routes) {
      if (!matches(route.path, urlPath)) continue;
      const score = specificity(route.path);
      if (!best || score > best.score) best = { remote: remote.name, route, score };
    }
  }
  return best && { remote: best.remote, route: best.route };
}
