import { RemoteRoute, Registry } from './registry';

describe('registry contract', () => {
  it('accepts plain, :param and trailing * paths and defaults the header to fade', () => {
    for (const path of ['/', '/faq', '/account/monitors/:domain', '/landing/entrust-to-digicert/*']) {
      expect(RemoteRoute.parse({ path, title: 'T', layout: 'public' }).header).toBe('fade');
    }
  });

  it.each(['faq', '/a b', '/a//b', '/<script>', ''])('rejects the path %p', (path) => {
    expect(RemoteRoute.safeParse({ path, title: 'T', layout: 'public' }).success).toBe(false);
  });

  it('rejects an unknown layout and a remote name that is not an identifier', () => {
    expect(RemoteRoute.safeParse({ path: '/', title: 'T', layout: 'popup' }).success).toBe(false);
    expect(Registry.safeParse({ remotes: [{ name: 'Bad-Name', entry: '/x', routes: [] }] }).success).toBe(false);
  });
});
