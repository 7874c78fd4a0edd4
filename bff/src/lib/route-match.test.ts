import { looksLikeFilePath } from './route-match';

describe('looksLikeFilePath', () => {
  it.each([
    ['/favicon.ico', true],
    ['/docs/Mark-Certificate-Validation-Guide.pdf', true],
    ['/account/monitors/example.com', true],
    ['/faq', false],
    ['/', false],
    ['/landing/entrust-to-digicert/', false],
  ])('%s → %s', (urlPath, expected) => {
    expect(looksLikeFilePath(urlPath)).toBe(expected);
  });
});
