import { renderableAnswerPath } from './page-state';

describe('renderableAnswerPath', () => {
  it('gives the account API paths, with their query', () => {
    expect(renderableAnswerPath('/api/account/monitors')).toBe('/api/account/monitors');
    expect(renderableAnswerPath('/api/account/orders?status=incomplete')).toBe('/api/account/orders?status=incomplete');
    expect(renderableAnswerPath('/api/account/monitors/example.com')).toBe('/api/account/monitors/example.com');
  });

  it('refuses every other path, however it is spelt', () => {
    for (const path of [
      '/api/auth/csrf',
      '/dev/outbox',
      '/api/account',
      'api/account/monitors',
      '//evil.example/api/account/monitors',
      'http://evil.example/api/account/monitors',
      '/api/account/../auth/csrf',
      '/api/account/.%2e/.%2e/dev/outbox',
      '/api/account/%2e%2e/auth/csrf',
      '/api/account/%2E./auth/csrf',
      '/api/account/x%2fy',
      '/api/account\\..\\auth',
      '/api/account/monitors#fragment',
    ]) {
      expect([path, renderableAnswerPath(path)]).toEqual([path, undefined]);
    }
  });
});
