import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createDialect, migrateToLatest } from '../src/plugins/app/db';
import type { StoreDatabase } from '../src/db/schema';
import { createFakeRoot } from './fixtures';

describe('the store database', () => {
  let rootDir: string;
  let dataDir: string;
  beforeEach(() => {
    rootDir = createFakeRoot();
    dataDir = join(mkdtempSync(join(tmpdir(), 'bff-db-')), 'not-yet-created');
  });
  afterEach(() => {
    rmSync(rootDir, { recursive: true, force: true });
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
  });

  it('creates its folder, runs in WAL mode, and keeps data across restarts', async () => {
    const config = loadConfig({ ROOT_DIR: rootDir, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const first = await buildApp(config);
    await first.inject({ url: '/api/newsletter/subscribe?email=kept@example.com&c=cb' });
    const { rows } = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(first.db);
    expect(rows[0]?.journal_mode).toBe('wal');
    await first.close();

    const second = await buildApp(config);
    try {
      await second.ready();
      const stored = await second.db.selectFrom('newsletter_subscribers').select('email').execute();
      expect(stored).toEqual([{ email: 'kept@example.com' }]);
    } finally {
      await second.close();
    }
  });

  it('records each migration once', async () => {
    const db = new Kysely<StoreDatabase>({ dialect: createDialect(loadConfig({ DATA_DIR: dataDir })) });
    try {
      expect(await migrateToLatest(db)).toEqual(['0001_newsletter_and_telemetry', '0002_contact_messages']);
      expect(await migrateToLatest(db)).toEqual([]);
      const tables = await db.introspection.getTables();
      expect(tables.map((table) => table.name).sort()).toEqual(['client_errors', 'contact_messages', 'newsletter_subscribers', 'page_views']);
    } finally {
      await db.destroy();
    }
  });

  it('refuses to start on PostgreSQL until it is supported, rather than split data across replicas', async () => {
    const config = loadConfig({ ROOT_DIR: rootDir, DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://store@db.internal/store' });
    const app = await buildApp(config).catch((error: Error) => error);
    const failure = app instanceof Error ? app : await app.ready().then(() => undefined, (error: Error) => error);
    expect(failure?.message).toMatch(/DATABASE_URL is set, but this bff does not support PostgreSQL yet/);
  });
});
