import { findRouteOwner } from '@bimi/contracts/route-match';
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
  return routePath
    .replace(/:domain\b/g, 'example.com')
    .replace(/:[A-Za-z]+/g, 'sample')
    .replace(/\*$/, 'sample');
}

export function findOwner(remotes: RegistryEntry[], urlPath: string): { remote: string; route: RegistryRoute } | null {
  const owner = findRouteOwner(remotes, urlPath);
  return owner && { remote: owner.remote.name, route: owner.route };
}
