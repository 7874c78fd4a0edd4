import { concretePath, findRouteOwner } from '@bimi/contracts/route-match';
import type { APIRequestContext } from '@playwright/test';
import { expect } from './test';

/** One rule for turning a route into a URL, shared with the remotes' contract tests. */
export { concretePath };

/** The parts of GET /remotes.json (packages/contracts/src/registry.ts) the flows read. */
export interface RegistryRoute {
  path: string;
  title: string;
  layout: 'public' | 'enrollment' | 'auth' | 'legal' | 'checkout' | 'landing' | 'account';
  header: 'white' | 'fade';
  description?: string;
  /** A route that only forwards: the bff redirects its address there. */
  redirectTo?: string;
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

export function findOwner(remotes: RegistryEntry[], urlPath: string): { remote: string; route: RegistryRoute } | null {
  const owner = findRouteOwner(remotes, urlPath);
  return owner && { remote: owner.remote.name, route: owner.route };
}
