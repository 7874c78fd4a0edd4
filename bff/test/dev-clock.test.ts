import { ConfigError, loadConfig } from '../src/config';
import { startTestStore, type TestStore } from './fixtures';

const DAY_MS = 86_400_000;

describe('DEV_CLOCK', () => {
  it('is refused in production and off by default', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40), TRUST_PROXY: 'loopback', DEV_CLOCK: 'true' })).toThrow(ConfigError);
    expect(loadConfig({}).devClock).toBe(false);
  });

  it('has no route unless set', async () => {
    const store = await startTestStore();
    try {
      expect((await store.app.inject({ method: 'GET', url: '/dev/clock' })).statusCode).toBe(404);
    } finally {
      await store.cleanUp();
    }
  });

  describe('when set', () => {
    let store: TestStore;
    beforeAll(async () => {
      store = await startTestStore({ DEV_CLOCK: 'true' });
    });
    afterAll(async () => {
      await store.cleanUp();
    });

    it('moves the store clock forward, never back, and refuses a foreign origin', async () => {
      const before = store.app.now();
      const moved = await store.app.inject({ method: 'POST', url: '/dev/clock', payload: { advanceMs: 300 * DAY_MS } });
      expect(moved.statusCode).toBe(200);
      expect(Date.parse(moved.json().now) - before).toBeGreaterThanOrEqual(300 * DAY_MS);
      expect(store.app.now() - Date.now()).toBeGreaterThanOrEqual(300 * DAY_MS - 1000);
      expect((await store.app.inject({ method: 'POST', url: '/dev/clock', payload: { advanceMs: -1 } })).statusCode).toBe(400);
      const foreign = await store.app.inject({ method: 'POST', url: '/dev/clock', headers: { origin: 'https://evil.example' }, payload: { advanceMs: 1 } });
      expect(foreign.statusCode).toBe(403);
    });
  });
});
