import { SITE_API_PATHS } from '@bimi/contracts/api-paths';
import { HealthResponse, ReadinessResponse } from '@bimi/contracts/health';
import { startTestStore, type TestStore } from './fixtures';

describe('the API', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await startTestStore();
    store.app.get('/api/test/failing-handler', async () => {
      throw new Error('database password is hunter2');
    });
  });
  afterAll(() => store.cleanUp());

  describe('GET /api/health', () => {
    it('reports ok with the bff version', async () => {
      const response = await store.app.inject({ url: '/api/health' });
      expect(response.statusCode).toBe(200);
      const health = HealthResponse.parse(response.json());
      expect(health.status).toBe('ok');
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- package.json itself, not the bff's own reading of it
      expect(health.version).toBe(require('../package.json').version);
      expect(health.uptimeSeconds).toBeGreaterThanOrEqual(0);
    });
  });

  describe('GET /api/health/ready', () => {
    it('is ready when the database answers, and says what it uses', async () => {
      const response = await store.app.inject({ url: SITE_API_PATHS.ready });
      expect(response.statusCode).toBe(200);
      expect(ReadinessResponse.parse(response.json())).toEqual({
        status: 'ready',
        checks: {
          database: { status: 'ok', detail: 'SQLite answers' },
          redis: { status: 'not used', detail: 'sessions and rate-limit counters are in the database and in memory' },
          jobs: { status: 'ok', detail: 'in this process (SQLite)' },
        },
      });
    });

    it('is not ready, with the reason, when the database does not answer', async () => {
      const broken = await startTestStore();
      try {
        await broken.app.db.destroy();
        const response = await broken.app.inject({ url: SITE_API_PATHS.ready });
        expect(response.statusCode).toBe(503);
        const readiness = ReadinessResponse.parse(response.json());
        expect(readiness.status).toBe('not ready');
        expect(readiness.checks.database.status).toBe('failing');
        expect(readiness.checks.database.detail.length).toBeGreaterThan(0);
        // Alive all the same: the process answers.
        expect((await broken.app.inject({ url: SITE_API_PATHS.health })).statusCode).toBe(200);
      } finally {
        await broken.cleanUp().catch(() => undefined);
      }
    });
  });

  describe('GET /api/public-config', () => {
    it('points the newsletter at the bff when no provider is configured', async () => {
      const response = await store.app.inject({ url: '/api/public-config' });
      expect(response.json()).toEqual({ newsletterUrl: '/api/newsletter/subscribe', tagManagerId: null, priceSettings: {} });
    });

    it('passes on the configured provider and tag manager', async () => {
      const configured = await startTestStore({ NEWSLETTER_URL: 'https://lists.example.com/subscribe/post-json?u=1', TAG_MANAGER_ID: 'GTM-ABC1234' });
      try {
        const response = await configured.app.inject({ url: '/api/public-config' });
        expect(response.json()).toEqual({ newsletterUrl: 'https://lists.example.com/subscribe/post-json?u=1', tagManagerId: 'GTM-ABC1234', priceSettings: {} });
      } finally {
        await configured.cleanUp();
      }
    });
  });

  describe('POST /api/analytics/pageview', () => {
    it('stores a JSON beacon', async () => {
      const response = await store.app.inject({
        method: 'POST',
        url: '/api/analytics/pageview',
        payload: { path: '/faq', referrer: 'https://search.example.com/', title: 'FAQ' },
      });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      const rows = await store.app.db.selectFrom('page_views').select(['path', 'referrer', 'title']).where('path', '=', '/faq').execute();
      expect(rows).toEqual([{ path: '/faq', referrer: 'https://search.example.com/', title: 'FAQ' }]);
    });

    it('stores a sendBeacon body sent as text/plain', async () => {
      const response = await store.app.inject({
        method: 'POST',
        url: '/api/analytics/pageview',
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        payload: JSON.stringify({ path: '/checkout' }),
      });
      expect(response.statusCode).toBe(204);
      const rows = await store.app.db.selectFrom('page_views').select(['path', 'referrer', 'title']).where('path', '=', '/checkout').execute();
      expect(rows).toEqual([{ path: '/checkout', referrer: null, title: null }]);
    });

    it('refuses a beacon without a path, naming the field', async () => {
      const response = await store.app.inject({ method: 'POST', url: '/api/analytics/pageview', payload: { title: 'No path' } });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^path: /);
    });

    it('refuses a path that is not a site path', async () => {
      const response = await store.app.inject({ method: 'POST', url: '/api/analytics/pageview', payload: { path: 'https://elsewhere.example/' } });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^path: /);
    });

    it('refuses a text/plain body that is not JSON', async () => {
      const response = await store.app.inject({
        method: 'POST',
        url: '/api/analytics/pageview',
        headers: { 'content-type': 'text/plain' },
        payload: 'path=/faq',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'Body is not valid JSON' });
    });

    it('refuses a malformed JSON body with 400', async () => {
      const response = await store.app.inject({
        method: 'POST',
        url: '/api/analytics/pageview',
        headers: { 'content-type': 'application/json' },
        payload: '{"path":',
      });
      expect(response.statusCode).toBe(400);
      expect(typeof response.json().message).toBe('string');
    });

    it('refuses a body too large for a beacon', async () => {
      const response = await store.app.inject({
        method: 'POST',
        url: '/api/analytics/pageview',
        payload: { path: '/faq', title: 'x'.repeat(64 * 1024) },
      });
      expect(response.statusCode).toBe(413);
    });
  });

  describe('POST /api/client-errors', () => {
    it('logs the report at warn level and stores it', async () => {
      const report = { kind: 'remote-load', remote: 'tools', message: 'ChunkLoadError: Loading chunk 42 failed', path: '/bimi-checker', stack: 'at load (remoteEntry.js:1:1)' };
      const response = await store.app.inject({
        method: 'POST',
        url: '/api/client-errors',
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        payload: JSON.stringify(report),
      });
      expect(response.statusCode).toBe(204);
      const rows = await store.app.db.selectFrom('client_errors').select(['kind', 'remote', 'message', 'path', 'stack']).execute();
      expect(rows).toEqual([report]);
      const logged = store.logs.entries.find((entry) => entry.msg === 'client error: ChunkLoadError: Loading chunk 42 failed');
      expect(logged?.level).toBe(40);
    });

    it('refuses an unknown kind, naming the field', async () => {
      const response = await store.app.inject({ method: 'POST', url: '/api/client-errors', payload: { kind: 'meltdown', message: 'x' } });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^kind: /);
    });

    it('refuses a missing body', async () => {
      const response = await store.app.inject({ method: 'POST', url: '/api/client-errors' });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^body: /);
    });
  });

  describe('errors', () => {
    it('answers an unknown /api path with 404 JSON', async () => {
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        const response = await store.app.inject({ method, url: '/api/no-such-thing' });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ message: 'Not found' });
      }
    });

    it('answers a malformed URL with 400 JSON', async () => {
      const response = await store.app.inject({ url: '/%E0%A4%A' });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json())).toEqual(['message']);
    });

    it('hides the details of a failing handler from the client, keeping them in the log', async () => {
      const response = await store.app.inject({ url: '/api/test/failing-handler' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ message: 'Internal server error' });
      expect(response.body).not.toContain('hunter2');
      const logged = store.logs.entries.find((entry) => entry.level === 50 && JSON.stringify(entry).includes('hunter2'));
      expect(logged).toBeDefined();
    });
  });
});
