import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import fp from 'fastify-plugin';
import { Kysely, Migrator, PostgresDialect, sql, SqliteAdapter, SqliteDialect, type DatabaseIntrospector, type Dialect, type DialectAdapter } from 'kysely';
import { Pool } from 'pg';
import type { Config } from '../../../config';
import { storeMigrations } from '../../../db/migrations';
import type { StoreDatabase } from '../../../db/schema';
import { SearchPathIntrospector } from './schema-introspector';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<StoreDatabase>;
    /** The readiness check of the database: "SQLite answers" or "PostgreSQL answers"; throws "… does not answer: <why>". */
    databaseAnswers(): Promise<string>;
  }
}

/**
 * How long a request waits for a PostgreSQL connection, a new one or a free one of the pool, before
 * it fails (503, lib/unavailable.ts): a server that is down refuses at once, one that does not
 * answer (a network partition) or a pool that stays full must not hold requests for good.
 */
export const DATABASE_CONNECT_TIMEOUT_MS = 2_000;

/** Where the pool reports a connection it lost while idle. */
type WarnLog = { warn(details: object, message: string): void };

/**
 * The one place that knows which database the store runs on; everything else speaks Kysely, and
 * asks `isSqlite(db)` where the two differ.
 */
export function createDialect(config: Config, log?: WarnLog): Dialect {
  if (config.databaseUrl) {
    // A PostgreSQL server for several bff replicas; `?options=-c search_path=…` selects a schema.
    const pool = new Pool({ connectionString: config.databaseUrl, max: 10, connectionTimeoutMillis: DATABASE_CONNECT_TIMEOUT_MS });
    // A connection the server ends (a restart, an administrator) says so with an 'error' event:
    // the pool's, for an idle one (the pool drops it), the connection's own while a request holds
    // it (its query fails, 503; the pool drops it when it is given back). Unheard, either event
    // would end the process.
    const lost = (error: Error) => log?.warn({ err: error }, 'a PostgreSQL connection was closed by the server; the next request opens a new one');
    pool.on('error', lost);
    pool.on('connect', (client) => client.on('error', lost));
    return new SearchPathPostgresDialect({ pool });
  }
  mkdirSync(config.dataDir, { recursive: true });
  const database = new SqliteDatabase(join(config.dataDir, 'store.sqlite'));
  // WAL lets page views be written while other requests read.
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  return new TransactionalSqliteDialect({ database });
}

/** Kysely's PostgreSQL dialect, introspecting the store's own schema only (SearchPathIntrospector). */
class SearchPathPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SearchPathIntrospector(db);
  }
}

/**
 * SQLite runs schema changes inside transactions, but Kysely's adapter says it does not, and its
 * migrator would then apply a migration step by step: a crash midway would leave a half-built
 * schema that the next start cannot migrate.
 */
class TransactionalSqliteDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new TransactionalSqliteAdapter();
  }
}
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * Whether the store runs on the embedded SQLite database (else PostgreSQL), for what the two do
 * differently: SQLite runs one transaction at a time, so it takes no row locks (`FOR UPDATE`,
 * `SKIP LOCKED`) and batches nothing. The one question of the dialect code outside this file asks.
 */
export function isSqlite(db: Kysely<StoreDatabase>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** Whether the database answers a trivial query (`fastify.databaseAnswers`, the readiness check). */
async function databaseAnswers(db: Kysely<StoreDatabase>): Promise<string> {
  const engine = isSqlite(db) ? 'SQLite' : 'PostgreSQL';
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    throw new Error(`${engine} does not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  return `${engine} answers`;
}

/** A unique-constraint violation, from SQLite or PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export async function migrateToLatest(db: Kysely<StoreDatabase>): Promise<string[]> {
  // Unless told a schema, Kysely takes migration tables found in ANY schema of the database as its
  // own: beside another store's schema (each test run has one) it would skip creating them here.
  const migrationTableSchema = isSqlite(db) ? undefined : (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema;
  const migrator = new Migrator({ db, provider: storeMigrations, migrationTableSchema });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((result) => result.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
  return results.map((result) => result.migrationName);
}

export default fp(
  async function database(fastify) {
    const db = new Kysely<StoreDatabase>({ dialect: createDialect(fastify.config, fastify.log) });
    fastify.addHook('onClose', () => db.destroy());
    let applied: string[];
    try {
      applied = await migrateToLatest(db);
    } catch (error) {
      // The app never finishes building, so onClose will not run: close the pool here, or its
      // connections keep the process (a test run, a failed start) alive.
      await db.destroy();
      throw error;
    }
    if (applied.length > 0) fastify.log.info({ migrations: applied }, 'database migrated');
    fastify.decorate('db', db);
    fastify.decorate('databaseAnswers', () => databaseAnswers(db));
  },
  { name: 'db', decorators: { fastify: ['config'] } },
);
