import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createFakeRoot, LogLines } from './fixtures';

export interface StorageEngine {
  name: string;
  /** Whether this engine uses PostgreSQL and whether sessions live in Redis. */
  postgres: boolean;
  redis: boolean;
}

/**
 * `describe` for suites that run on PostgreSQL alone (TEST_DATABASE_URL, which .ci/run sets: there
 * they always run); skipped, and reported as skipped, on a machine without it.
 */
export const describePostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

/** SQLite always; PostgreSQL, and PostgreSQL with Redis sessions, when .ci/run points the tests at them. */
export function storageEngines(): StorageEngine[] {
  const engines: StorageEngine[] = [{ name: 'SQLite', postgres: false, redis: false }];
  if (process.env.TEST_DATABASE_URL) engines.push({ name: 'PostgreSQL', postgres: true, redis: false });
  if (process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL) engines.push({ name: 'PostgreSQL with Redis sessions', postgres: true, redis: true });
  return engines;
}

export interface IdentityStore {
  app: FastifyInstance;
  logs: LogLines;
  clock: { now: number };
  /** Moves the bff's clock forward. */
  advance(ms: number): void;
  /** Closes the bff and builds a new one on the same database, Redis prefix, settings and clock, as a restart does. */
  restart(): Promise<void>;
  cleanUp(): Promise<void>;
}

/** A PostgreSQL URL whose connections use `schema` (created here) instead of public. */
function withSchema(databaseUrl: string, schema: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/**
 * The bff on `env` over the tests' own settings, with a fake build root and a data folder of its
 * own: `restart` builds a new one on the same settings and clock, `cleanUp` closes it, removes both
 * folders and then whatever `removeAlso` removes (a schema, Redis keys).
 */
export async function startStoreOn(
  env: NodeJS.ProcessEnv,
  { clock, advance, removeAlso = async () => {} }: { clock: { readonly now: number }; advance(ms: number): void; removeAlso?: () => Promise<void> },
): Promise<IdentityStore> {
  const rootDir = createFakeRoot();
  const dataDir = mkdtempSync(join(tmpdir(), 'bff-store-'));
  const logs = new LogLines();
  const config = loadConfig({ ROOT_DIR: rootDir, DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: 'test', PUBLIC_URL: 'http://store.test', ...env });
  const start = async () => {
    const app = await buildApp(config, { logStream: logs, now: () => clock.now });
    await app.ready();
    return app;
  };
  const store: IdentityStore = {
    app: await start(),
    logs,
    clock,
    advance,
    async restart() {
      await store.app.close();
      store.app = await start();
    },
    async cleanUp() {
      await store.app.close();
      rmSync(rootDir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
      await removeAlso();
    },
  };
  return store;
}

/**
 * The bff on the given engine: a fresh SQLite file, or a PostgreSQL schema of its own, and Redis
 * keys under a prefix of its own; all of it removed by cleanUp.
 */
export async function startIdentityStore(engine: StorageEngine, env: NodeJS.ProcessEnv = {}): Promise<IdentityStore> {
  const unique = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const schema = `bff_test_${unique}`;
  const redisPrefix = `bff-test:${unique}:`;
  const engineEnv: NodeJS.ProcessEnv = {};
  if (engine.postgres) {
    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    engineEnv.DATABASE_URL = withSchema(process.env.TEST_DATABASE_URL ?? '', schema);
  }
  if (engine.redis) {
    engineEnv.REDIS_URL = process.env.TEST_REDIS_URL;
    engineEnv.REDIS_KEY_PREFIX = redisPrefix;
  }
  const clock = { now: Date.parse('2030-01-15T09:00:00.000Z') };
  return startStoreOn(
    { ...engineEnv, ...env },
    {
      clock,
      advance(ms) {
        clock.now += ms;
      },
      async removeAlso() {
        if (engine.postgres) {
          // Closed whatever happens: an open connection would keep jest (and CI) running after a failure.
          const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
          await admin.connect();
          try {
            await admin.query(`drop schema if exists ${schema} cascade`);
            // pg-boss's, made by the first job this store queued (plugins/app/platform/pg-boss-queue.ts).
            await admin.query(`drop schema if exists ${schema}_queue cascade`);
          } finally {
            await admin.end();
          }
        }
        if (engine.redis) {
          const redis = new Redis(process.env.TEST_REDIS_URL ?? '');
          try {
            const keys = await redis.keys(`${redisPrefix}*`);
            if (keys.length > 0) await redis.del(...keys);
          } finally {
            await redis.quit();
          }
        }
      },
    },
  );
}

let addressesGiven = 0;
/**
 * A client address no request of this test process used before (10.0.0.1, 10.0.0.2, …): the rate
 * limits count per address, so a suite that sends many requests on purpose sends each from a new one.
 */
export function freshClientAddress(): string {
  addressesGiven += 1;
  return `10.${(addressesGiven >> 16) & 255}.${(addressesGiven >> 8) & 255}.${addressesGiven & 255}`;
}

/** A browser's cookie jar over fastify.inject: keeps what the bff sets and sends it back. */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    readonly ip = '203.0.113.10',
  ) {}

  private remember(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies as { name: string; value: string; expires?: Date; maxAge?: number }[]) {
      const gone = cookie.value === '' || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now()) || cookie.maxAge === 0;
      if (gone) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /**
   * `ip` sends this one request from another client address (the cookies stay the browser's);
   * `payload` is a body sent as it is, with whatever content type `headers` give it.
   */
  async request(options: {
    method?: string;
    url: string;
    json?: unknown;
    form?: Record<string, string>;
    payload?: string | Buffer;
    headers?: Record<string, string>;
    ip?: string;
  }): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { cookie: this.cookieHeader(), ...options.headers };
    let payload: string | Buffer | undefined = options.payload;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(options.form).toString();
    } else if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(options.json);
    }
    const response = await this.app.inject({ method: (options.method ?? 'GET') as 'GET', url: options.url, headers, payload, remoteAddress: options.ip ?? this.ip });
    this.remember(response);
    return response;
  }

  async csrfToken(): Promise<string> {
    const response = await this.request({ url: '/api/auth/csrf' });
    return (response.json() as { csrfToken: string }).csrfToken;
  }

  /** A JSON write as the account client makes it: with the X-CSRF-Token header. */
  async write(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, json?: unknown): Promise<LightMyRequestResponse> {
    const token = await this.csrfToken();
    return this.request({ method, url, json, headers: { 'x-csrf-token': token } });
  }

  /** Sign-in exactly as NextAuth's signIn('credentials', {email, password, redirect: false}) posts it. */
  async signIn(email: string, password: string, callbackUrl = 'http://store.test/account/dashboard'): Promise<LightMyRequestResponse> {
    const csrfToken = await this.csrfToken();
    return this.request({
      method: 'POST',
      url: '/api/auth/callback/credentials',
      form: { email, password, redirect: 'false', callbackUrl, csrfToken, json: 'true' },
    });
  }

  async session(): Promise<Record<string, unknown>> {
    return (await this.request({ url: '/api/auth/session' })).json();
  }
}

/** The last link to `path` mailed to `to` in the development outbox. */
export async function linkFromOutbox(app: FastifyInstance, to: string, path: string): Promise<string> {
  const rows = await app.db.selectFrom('outbox_messages').select(['text']).where('recipient', '=', to).orderBy('created_at', 'desc').execute();
  for (const row of rows) {
    const link = row.text.match(/https?:\/\/\S+/g)?.find((candidate) => new URL(candidate).pathname === path);
    if (link) return link;
  }
  throw new Error(`no mail to ${to} with a link to ${path}`);
}

export const GOOD_PASSWORD = 'correct horse 42';

/** Signs up and verifies through the outbox; returns a browser signed in as that user. */
export async function signedInUser(store: IdentityStore, name: string, email: string, ip = '203.0.113.10'): Promise<Browser> {
  const browser = new Browser(store.app, ip);
  const signUp = await browser.write('POST', '/api/auth/signup', { name, email, password: GOOD_PASSWORD });
  if (signUp.statusCode !== 201) throw new Error(`sign-up failed: ${signUp.body}`);
  const link = await linkFromOutbox(store.app, email, '/auth/verify');
  const verify = await browser.write('POST', '/api/auth/verify', { token: new URL(link).searchParams.get('token') });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  const signIn = await browser.signIn(email, GOOD_PASSWORD);
  if (signIn.statusCode !== 200) throw new Error(`sign-in failed: ${signIn.body}`);
  return browser;
}
