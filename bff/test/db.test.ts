import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresIntrospector, sql } from 'kysely';
import { Client } from 'pg';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createDialect, isUniqueViolation, migrateToLatest } from '../src/plugins/app/platform/db';
import { storeMigrations } from '../src/db/migrations';
import type { StoreDatabase } from '../src/db/schema';
import { createFakeRoot } from './fixtures';
import { Browser, describePostgres, GOOD_PASSWORD, signedInUser, startIdentityStore, storageEngines } from './identity-fixtures';

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
      expect(await migrateToLatest(db)).toEqual(MIGRATIONS);
      expect(await migrateToLatest(db)).toEqual([]);
      const tables = await db.introspection.getTables();
      expect(tables.map((table) => table.name).sort()).toEqual(expect.arrayContaining([...IDENTITY_AND_EARLIER_TABLES, ...ORDERS_TABLES]));
    } finally {
      await db.destroy();
    }
  });
});

/**
 * Every migration the store ships, in the order they run: read from the store's own list, so a
 * migration added by another change is expected here without editing this file; the ones these
 * tests know the tables of come first.
 */
let MIGRATIONS: string[] = [];
beforeAll(async () => {
  MIGRATIONS = Object.keys(await storeMigrations.getMigrations()).sort();
  expect(MIGRATIONS.slice(0, 5)).toEqual(['0001_newsletter_and_telemetry', '0002_contact_messages', '0003_identity', '0004_sessions_by_user', '0005_orders']);
});

/** Migration 0005: checkouts, orders and payments (issue 11). */
const ORDERS_TABLES = [
  'checkouts',
  'order_numbers',
  'order_validation_steps',
  'orders',
  'payment_customers',
  'processed_payment_events',
  'renewal_reminders',
  'test_payment_methods',
  'transaction_lines',
  'transactions',
];

const IDENTITY_AND_EARLIER_TABLES = [
  'client_errors',
  'contact_messages',
  'contacts',
  'email_tokens',
  'newsletter_subscribers',
  'organization_invites',
  'organization_members',
  'organizations',
  'outbox_messages',
  'page_views',
  'partner_applications',
  'sessions',
  'support_tickets',
  'users',
];

describe.each(storageEngines())('the store database on $name', (engine) => {
  it('runs every migration and enforces unique emails', async () => {
    const store = await startIdentityStore(engine);
    try {
      const tables = await store.app.db.introspection.getTables();
      expect(tables.map((table) => table.name).sort()).toEqual(expect.arrayContaining([...IDENTITY_AND_EARLIER_TABLES, ...ORDERS_TABLES]));
      const migrations = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.app.db);
      expect(migrations.rows.map((row) => row.name)).toEqual(MIGRATIONS);

      const user = {
        email: 'a@example.com',
        name: 'A',
        password_hash: 'x',
        email_verified_at: null,
        pending_email: null,
        notification_preferences: '{}',
        created_at: 'now',
        updated_at: 'now',
      };
      await store.app.db
        .insertInto('users')
        .values({ id: '00000000-0000-4000-8000-000000000001', ...user })
        .execute();
      const duplicate = await store.app.db
        .insertInto('users')
        .values({ id: '00000000-0000-4000-8000-000000000002', ...user })
        .execute()
        .catch((error: unknown) => error);
      expect(isUniqueViolation(duplicate)).toBe(true);
    } finally {
      await store.cleanUp();
    }
  });

  it('keeps data across restarts: a new bff on the same database reads it back and signs the user in', async () => {
    const store = await startIdentityStore(engine);
    try {
      await store.app.inject({ url: '/api/newsletter/subscribe?email=kept@example.com&c=cb' });
      await signedInUser(store, 'Kept User', 'kept@example.com');
      const contact = await new Browser(store.app).write('POST', '/api/contact', { name: 'Kept', email: 'kept@example.com', topic: 'other', message: 'Still here after a restart?' });
      expect(contact.statusCode).toBe(201);
      const before = store.app;

      await store.restart();
      expect(store.app).not.toBe(before);

      expect(await store.app.db.selectFrom('newsletter_subscribers').select('email').execute()).toEqual([{ email: 'kept@example.com' }]);
      expect(await store.app.db.selectFrom('contact_messages').select('message').execute()).toEqual([{ message: 'Still here after a restart?' }]);
      // The account, its password hash and its verification survived: the new bff signs the user in.
      const browser = new Browser(store.app);
      expect((await browser.signIn('kept@example.com', GOOD_PASSWORD)).statusCode).toBe(200);
      expect(await browser.session()).toMatchObject({ user: { name: 'Kept User', email: 'kept@example.com' } });
      // Migrations are not run again.
      const migrations = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.app.db);
      expect(migrations.rows).toHaveLength(MIGRATIONS.length);
    } finally {
      await store.cleanUp();
    }
  });
});

/**
 * Two stores in one PostgreSQL database (a schema each, as every test run has): one store's
 * migrator asks which tables exist while the other's schema is dropped. The drop is made to land in
 * the middle of the question: the question runs in a transaction whose snapshot was taken before the
 * drop, so the catalog still lists the dropped schema while a lookup by its name fails.
 */
describePostgres('the store database beside another store dropped on PostgreSQL', () => {
  const unique = `${process.pid}_${Date.now().toString(36)}`;
  // Capitals, so the schema is named only when quoted: the store must not fold its name.
  const own = `Bff_Test_Own_${unique}`;
  const other = `bff_test_other_${unique}`;
  let admin: Client;
  let db: Kysely<StoreDatabase>;

  beforeAll(async () => {
    admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema "${own}"`);
    const url = new URL(process.env.TEST_DATABASE_URL ?? '');
    url.searchParams.set('options', `-c search_path="${own}"`);
    db = new Kysely<StoreDatabase>({ dialect: createDialect(loadConfig({ DATABASE_URL: url.toString() })) });
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.destroy();
    await admin.query(`drop schema if exists "${own}" cascade`);
    await admin.query(`drop schema if exists ${other} cascade`);
    await admin.end();
  });

  /** Asks `question` in a transaction that saw `other` before another connection dropped it. */
  async function askWhileOtherIsDropped<T>(question: (trx: Kysely<StoreDatabase>) => Promise<T>): Promise<T> {
    await admin.query(`create schema ${other}; create table ${other}.users (id serial primary key)`);
    return db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await admin.query(`drop schema ${other} cascade`);
        return question(trx);
      });
  }

  it("lists its own schema's tables only, and answers while another schema is dropped", async () => {
    // Kysely's own introspection of every schema fails the same way (the migrator used it).
    await expect(askWhileOtherIsDropped((trx) => new PostgresIntrospector(trx).getTables())).rejects.toThrow(`schema "${other}" does not exist`);

    const tables = await askWhileOtherIsDropped((trx) => trx.introspection.getTables({ withInternalKyselyTables: true }));
    expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([own]));
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['kysely_migration', 'users', 'orders']));
    const id = tables.find((table) => table.name === 'users')?.columns.find((column) => column.name === 'id');
    expect(id).toMatchObject({ dataType: expect.any(String), isNullable: false });
    expect(await migrateToLatest(db)).toEqual([]);
  });
});
