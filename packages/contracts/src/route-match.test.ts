import { matchesRoutePath } from './route-match';

describe('matchesRoutePath', () => {
  it.each([
    ['/', '/', true],
    ['/', '/faq', false],
    ['/faq', '/faq', true],
    ['/faq', '/faq/', true],
    ['/faq', '/FAQ', true],
    ['/faq', '/faqs', false],
    ['/faq', '/faq/more', false],
    ['/account/monitors/:domain', '/account/monitors/example.com', true],
    ['/account/monitors/:domain', '/account/monitors/', false],
    ['/account/monitors/:domain', '/account/monitors/a/b', false],
    ['/landing/*', '/landing', true],
    ['/landing/*', '/landing/', true],
    ['/landing/*', '/landing/a/b/c', true],
    ['/landing/*', '/landings', false],
    ['/*', '/anything/at/all', true],
    ['/glossary', '/gl%6Fssary', true],
    ['/glossary', '/gl%E0%A4%A', false],
  ])('%s against %s → %s', (routePath, urlPath, expected) => {
    expect(matchesRoutePath(routePath, urlPath)).toBe(expected);
  });
});
