// @fastify/rate-limit's two stores, which it builds itself and does not export; the rate-limit
// plugin (plugins/external/rate-limit.ts) wraps them so counting goes on in memory while Redis is away.
declare module '@fastify/rate-limit/store/LocalStore' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  interface LocalStore extends FastifyRateLimitStore {
    read(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number, max: number): void;
  }
  const LocalStore: new (continueExceeding?: boolean, exponentialBackoff?: boolean, cache?: number) => LocalStore;
  export default LocalStore;
}

declare module '@fastify/rate-limit/store/RedisStore' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  import type { Redis } from 'ioredis';
  interface RedisStore extends FastifyRateLimitStore {
    read(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number, max: number): void;
  }
  const RedisStore: new (continueExceeding: boolean | undefined, exponentialBackoff: boolean | undefined, redis: Redis, key?: string) => RedisStore;
  export default RedisStore;
}
