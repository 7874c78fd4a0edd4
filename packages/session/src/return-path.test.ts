import { safeReturnPath } from './return-path';

beforeAll(() => Object.assign(globalThis, { window: { location: { origin: 'http://127.0.0.1:3100' } } }));

describe('safeReturnPath', () => {
  it('keeps a path of this site, with its query', () => {
    expect(safeReturnPath('/account/orders?status=active')).toBe('/account/orders?status=active');
    expect(safeReturnPath('http://127.0.0.1:3100/checkout')).toBe('/checkout');
  });

  it('refuses another site, and falls back to the dashboard', () => {
    expect(safeReturnPath('https://evil.example/phish')).toBe('/account/dashboard');
    expect(safeReturnPath('//evil.example/phish')).toBe('/account/dashboard');
    expect(safeReturnPath(null)).toBe('/account/dashboard');
  });
});
