import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RemoteRouteTable, type RemoteRoute } from './registry';
import { REMOTE_NAMES } from './remote-modules';
import { SPEC_ROUTE_OWNERS } from './spec-routes';

/**
 * The remotes' published route tables against DESIGN.md's ownership table and spec §2:
 * every route of the spec resolves to the remote that owns it, and no path is owned twice.
 */
const ROOT = path.resolve(__dirname, '../../..');
const tables = Object.fromEntries(
  REMOTE_NAMES.map((name) => {
    const raw: unknown = JSON.parse(readFileSync(path.join(ROOT, `mfe-${name}/src/app/routes.json`), 'utf8'));
    return [name, RemoteRouteTable.parse(raw)];
  }),
);

function owners(pathPattern: string): string[] {
  return Object.entries(tables)
    .filter(([, table]) => table.routes.some((route: RemoteRoute) => route.path === pathPattern))
    .map(([name]) => name);
}

describe('route ownership (DESIGN.md, spec §2)', () => {
  it.each(SPEC_ROUTE_OWNERS)('%s is owned by %s alone', (route, remote) => {
    expect(owners(route)).toEqual([remote]);
  });

  it('no path is published by two remotes', () => {
    const all = Object.values(tables).flatMap((table) => table.routes.map((route) => route.path));
    expect(all.length).toBe(new Set(all).size);
  });

  it('each table names its own remote', () => {
    for (const [name, table] of Object.entries(tables)) expect(table.remote).toBe(name);
  });

  it('spec §2 layout rules: auth, legal, checkout, landing and account pages get their frames', () => {
    const layoutOf = (p: string) =>
      Object.values(tables)
        .flatMap((t) => t.routes)
        .find((r) => r.path === p)?.layout;
    expect(layoutOf('/auth/signin')).toBe('auth');
    expect(layoutOf('/forgot-password')).toBe('auth');
    expect(layoutOf('/terms')).toBe('legal');
    expect(layoutOf('/checkout')).toBe('checkout');
    expect(layoutOf('/landing/verified-mark-certificate')).toBe('landing');
    expect(layoutOf('/digicert-enrollment')).toBe('enrollment');
    expect(layoutOf('/account/tools/spf-lookup')).toBe('account');
    expect(layoutOf('/bimi-checker')).toBe('public');
  });

  it('spec §2: the header is white on about, the BIMI tools, dmarc-inspector, vmc-validator, faq, articles, help-center and glossary', () => {
    const headerOf = (p: string) =>
      Object.values(tables)
        .flatMap((t) => t.routes)
        .find((r) => r.path === p)?.header;
    for (const p of ['/about', '/bimi-checker', '/dmarc-inspector', '/vmc-validator', '/faq', '/articles', '/help-center', '/glossary']) {
      expect(headerOf(p)).toBe('white');
    }
    expect(headerOf('/')).toBe('fade');
  });
});
