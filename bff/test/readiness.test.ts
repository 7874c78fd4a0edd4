import { SITE_API_PATHS } from '@bimi/contracts/api-paths';
import { ReadinessResponse } from '@bimi/contracts/health';
import { startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';

// The readiness check on every storage engine this run has (SQLite; PostgreSQL and Redis when
// TEST_DATABASE_URL and TEST_REDIS_URL are set): what a load balancer asks before it sends traffic.
describe.each(storageEngines())('GET /api/health/ready on $name', (engine) => {
  let store: IdentityStore;
  beforeAll(async () => {
    store = await startIdentityStore(engine);
  });
  afterAll(() => store.cleanUp());

  it('is ready, and names what answered', async () => {
    const response = await store.app.inject({ url: SITE_API_PATHS.ready });
    expect(response.statusCode).toBe(200);
    const { status, checks } = ReadinessResponse.parse(response.json());
    expect(status).toBe('ready');
    expect(checks.database).toEqual({ status: 'ok', detail: engine.postgres ? 'PostgreSQL answers' : 'SQLite answers' });
    expect(checks.redis.status).toBe(engine.redis ? 'ok' : 'not used');
    expect(checks.jobs).toEqual(engine.postgres ? { status: 'ok', detail: expect.stringMatching(/^pg-boss /) } : { status: 'ok', detail: 'in this process (SQLite)' });
  });
});

// With sessions in Redis (only when this run has Redis): a balancer takes the replica out while Redis is gone.
const withRedis = storageEngines().filter((engine) => engine.redis);
if (withRedis.length > 0) {
  describe.each(withRedis)('GET /api/health/ready when Redis goes, on $name', (engine) => {
    let store: IdentityStore;
    beforeAll(async () => {
      store = await startIdentityStore(engine);
    });
    afterAll(() => store.cleanUp());

    it('is not ready while Redis is gone, and ready again when it is back', async () => {
      const redis = store.app.redis;
      if (!redis) throw new Error('this engine keeps sessions in Redis');
      redis.disconnect();
      const down = await store.app.inject({ url: SITE_API_PATHS.ready });
      expect(down.statusCode).toBe(503);
      expect(ReadinessResponse.parse(down.json()).checks.redis.status).toBe('failing');
      // The readiness check answers before the connection has finished closing (it does not wait for Redis).
      if (redis.status !== 'end') await new Promise((resolve) => redis.once('end', resolve));
      await redis.connect();
      expect((await store.app.inject({ url: SITE_API_PATHS.ready })).statusCode).toBe(200);
    });
  });
}
