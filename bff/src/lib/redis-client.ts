import type { Redis, RedisOptions } from 'ioredis';

/** How long one Redis command may take before it fails (Redis up but not answering). */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/**
 * The options of the bff's Redis clients (sessions, plugins/app/identity/sessions.ts; rate-limit counters,
 * plugins/external/rate-limit.ts): no request waits for Redis. A command is refused at once while
 * the connection is down (by default ioredis would queue it until Redis is back), one Redis does
 * not answer fails after REDIS_COMMAND_TIMEOUT_MS, and ioredis keeps reconnecting meanwhile (every
 * 2 s at most). Each client connects explicitly at start (lazyConnect), failing the start with the
 * reason when Redis is unreachable then.
 */
export const REDIS_CLIENT_OPTIONS: RedisOptions = {
  lazyConnect: true,
  connectTimeout: 2_000,
  commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
};

/** Logs a Redis client's connection lost (once, not at every reconnection attempt) and regained. */
export function logRedisConnection(redis: Redis, log: { warn(details: object, message: string): void; info(message: string): void }, what: string): void {
  let lost = false;
  redis.on('error', (error: unknown) => {
    if (lost) return;
    lost = true;
    log.warn({ err: error }, `Redis (${what}) is unreachable; reconnecting`);
  });
  redis.on('ready', () => {
    if (!lost) return;
    lost = false;
    log.info(`Redis (${what}) answers again`);
  });
}
