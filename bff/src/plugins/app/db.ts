import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import fp from 'fastify-plugin';
import { Kysely, Migrator, PostgresDialect, sql, SqliteAdapter, SqliteDialect, type Dialect, type DialectAdapter } from 'kysely';
import { Pool } from 'pg';
import type { Config } from '../../config';
import { storeMigrations } from '../../db/migrations';
import type { StoreDatabase } from '../../db/schema';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<StoreDatabase>;
  }
}

/** The one place that knows which database the store runs on; everything else speaks Kysely. */
export function createDialect(config: Config): Dialect {
  if (config.databaseUrl) {
    // A PostgreSQL server for several bff replicas; `?options=-c search_path=…` selects a schema.
    return new PostgresDialect({ pool: new Pool({ connectionString: config.databaseUrl, max: 10 }) });
  }
  mkdirSync(config.dataDir, { recursive: true });
  const database = new SqliteDatabase(join(config.dataDir, 'store.sqlite'));
  // WAL lets page views be written while other requests read.
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  return new TransactionalSqliteDialect({ database });
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

export async function migrateToLatest(db: Kysely<StoreDatabase>): Promise<string[]> {
  // Unless told a schema, Kysely takes migration tables found in ANY schema of the database as its
  // own: beside another store's schema (each test run has one) it would skip creating them here.
  const migrationTableSchema = db.getExecutor().adapter instanceof SqliteAdapter ? undefined : (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema;
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
    const db = new Kysely<StoreDatabase>({ dialect: createDialect(fastify.config) });
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
  },
  { name: 'db', decorators: { fastify: ['config'] } },
);
