import { sql, SqliteAdapter, type Kysely } from 'kysely';
import type { StoreDatabase } from '../src/db/schema';

/** Every row of every table, each table's rows in a stable order: what "nothing was written" is checked against. */
export type DatabaseSnapshot = Record<string, string[]>;

/** The tables, looked up once per database handle: only migrations, at start, add any. */
const tablesByDatabase = new WeakMap<object, Promise<string[]>>();
function tablesOf(db: Kysely<StoreDatabase>): Promise<string[]> {
  let tables = tablesByDatabase.get(db);
  if (!tables) {
    // The store's tables, without Kysely's migration bookkeeping; on PostgreSQL its own schema's only (SearchPathIntrospector).
    tables = db.introspection.getTables().then((found) => found.map((table) => table.name));
    tablesByDatabase.set(db, tables);
  }
  return tables;
}

/**
 * Reads every table the store has (found by introspection, so tables added by later migrations are
 * covered without listing them here). Rows are kept as JSON text, sorted, so two snapshots compare
 * with toEqual whatever order the database returns them in.
 */
export async function snapshotDatabase(db: Kysely<StoreDatabase>): Promise<DatabaseSnapshot> {
  const tables = await tablesOf(db);
  const untyped = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const entries = await Promise.all(
    tables.map(async (name) => {
      const rows = await untyped.selectFrom(name).selectAll().execute();
      return [name, rows.map((row) => JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value))).sort()] as const;
    }),
  );
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

/** The tables whose rows differ between two snapshots, with the rows only one of them has: a readable failure. */
export function snapshotChanges(before: DatabaseSnapshot, after: DatabaseSnapshot): Record<string, { removed: string[]; added: string[] }> {
  const changes: Record<string, { removed: string[]; added: string[] }> = {};
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[table] ?? [];
    const now = after[table] ?? [];
    const removed = was.filter((row) => !now.includes(row));
    const added = now.filter((row) => !was.includes(row));
    if (removed.length > 0 || added.length > 0 || was.length !== now.length) changes[table] = { removed, added };
  }
  return changes;
}

/** PostgreSQL databases where countWrites installed its counter. */
const counted = new WeakSet<object>();

/**
 * Makes databaseFingerprint one tiny query on PostgreSQL: a trigger on every store table counts
 * written rows in a sequence of the test's own schema (hashing every table on each call costs
 * tens of milliseconds on a busy machine). A test instrument only: the triggers do nothing else.
 * Call it once the bff has migrated; SQLite needs nothing (it counts changes itself).
 */
export async function countWrites(db: Kysely<StoreDatabase>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`create sequence if not exists test_write_count`.execute(db);
  await sql`create or replace function test_count_write() returns trigger language plpgsql as $$ begin perform nextval('test_write_count'); return null; end $$`.execute(db);
  for (const table of await tablesOf(db)) {
    await sql`create trigger test_count_row_write after insert or update or delete on ${sql.table(table)} for each row execute function test_count_write()`.execute(db);
    await sql`create trigger test_count_truncate after truncate on ${sql.table(table)} for each statement execute function test_count_write()`.execute(db);
  }
  counted.add(db);
}

/**
 * A cheap fingerprint of everything snapshotDatabase reads, one query: on SQLite the count of rows
 * the connection has written since it opened (the bff's one connection does every write), on
 * PostgreSQL the count countWrites keeps, or else a hash of each table's rows. Equal fingerprints
 * mean nothing was written; different ones call for a snapshot to say what (a write of the same
 * values moves the counts but leaves the rows as they were).
 */
export async function databaseFingerprint(db: Kysely<StoreDatabase>): Promise<string> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    const { rows } = await sql<{ changes: number }>`select total_changes() as changes`.execute(db);
    return String(rows[0]?.changes);
  }
  if (counted.has(db)) {
    const { rows } = await sql<{ writes: string; called: boolean }>`select last_value as writes, is_called as called from test_write_count`.execute(db);
    return `${rows[0]?.writes}:${rows[0]?.called}`;
  }
  const tables = await tablesOf(db);
  const hashes = tables.map((name) => sql`(select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from ${sql.table(name)} t)`);
  const { rows } = await sql<{ fingerprint: string }>`select concat_ws(',', ${sql.join(hashes)}) as fingerprint`.execute(db);
  return rows[0]?.fingerprint ?? '';
}
