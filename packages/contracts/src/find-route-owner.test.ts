import type { RegistryEntry } from './registry';
import { findRouteOwner } from './route-match';

const remote = (name: string, paths: string[]): RegistryEntry => ({
  name,
  entry: `/mfe/${name}/mf-manifest.json`,
  routes: paths.map((path) => ({ path, title: path, layout: 'public', header: 'fade' })),
});

const remotes = [
  remote('storefront', ['/', '/faq', '/landing/entrust-to-digicert/*', '/landing/entrust-to-digicert-vmc']),
  remote('account', ['/account', '/account/dashboard', '/account/monitors/:domain']),
  remote('tools', ['/bimi-checker', '/account/tools/spf-lookup', '/account/tools/:tool']),
];

describe('findRouteOwner', () => {
  it.each([
    ['/', 'storefront', '/'],
    ['/faq', 'storefront', '/faq'],
    ['/faq/', 'storefront', '/faq'],
    ['/account', 'account', '/account'],
    ['/account/monitors/example.com', 'account', '/account/monitors/:domain'],
    ['/account/tools/spf-lookup', 'tools', '/account/tools/spf-lookup'],
    ['/landing/entrust-to-digicert/step-2', 'storefront', '/landing/entrust-to-digicert/*'],
    ['/landing/entrust-to-digicert', 'storefront', '/landing/entrust-to-digicert/*'],
    ['/landing/entrust-to-digicert-vmc', 'storefront', '/landing/entrust-to-digicert-vmc'],
  ])('%s belongs to %s (%s)', (pathname, owner, path) => {
    const found = findRouteOwner(remotes, pathname);
    expect(found?.remote.name).toBe(owner);
    expect(found?.route.path).toBe(path);
  });

  it('prefers a static segment over a :param, whatever the registry order', () => {
    const reversed = [remote('tools', ['/account/tools/:tool', '/account/tools/spf-lookup'])];
    expect(findRouteOwner(reversed, '/account/tools/spf-lookup')?.route.path).toBe('/account/tools/spf-lookup');
  });

  it.each(['/nope', '/account/monitors', '/account/monitors/a/b', '/faqs'])('%s has no owner', (pathname) => {
    expect(findRouteOwner(remotes, pathname)).toBeNull();
  });

  it('finds nothing when the registry is empty (registry unavailable)', () => {
    expect(findRouteOwner([], '/')).toBeNull();
  });
});
