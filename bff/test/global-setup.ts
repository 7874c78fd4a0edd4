import { Redis } from 'ioredis';
import { Client } from 'pg';

/**
 * The storage, session and account suites run on SQLite always, and also on PostgreSQL (with
 * Redis sessions) when .ci/run sets TEST_DATABASE_URL and TEST_REDIS_URL. A run told to use them
 * fails here when they are unreachable; a run without them says which runs it leaves out.
 */
export default async function checkTestServices(): Promise<void> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const redisUrl = process.env.TEST_REDIS_URL;
  if (databaseUrl) {
    const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('select 1');
    } catch (error) {
      throw new Error(`TEST_DATABASE_URL is set but PostgreSQL is unreachable (${error instanceof Error ? error.message : String(error)}): the PostgreSQL suites cannot run`);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  if (redisUrl) {
    const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      throw new Error(`TEST_REDIS_URL is set but Redis is unreachable (${error instanceof Error ? error.message : String(error)}): the Redis session suites cannot run`);
    } finally {
      redis.disconnect();
    }
  }
  const leftOut = [
    ...(databaseUrl ? [] : ['TEST_DATABASE_URL not set: the storage, session and account suites run on SQLite only; their PostgreSQL runs are LEFT OUT']),
    ...(redisUrl ? [] : ['TEST_REDIS_URL not set: the session and account suites with sessions in Redis are LEFT OUT']),
  ];
  for (const line of leftOut) process.stdout.write(`\n${line}\n`);
}
