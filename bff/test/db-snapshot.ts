import type { Kysely } from 'kysely';
import type { StoreDatabase } from '../src/db/schema';

/** Every row of every table, each table's rows in a stable order: what "nothing was written" is checked against. */
export type DatabaseSnapshot = Record<string, string[]>;

/** Kysely's own bookkeeping: not the store's data. */
const NOT_STORE_DATA = new Set(['kysely_migration', 'kysely_migration_lock']);

/**
 * Reads every table the store has (found by introspection, so tables added by later migrations are
 * covered without listing them here). Rows are kept as JSON text, sorted, so two snapshots compare
 * with toEqual whatever order the database returns them in.
 */
export async function snapshotDatabase(db: Kysely<StoreDatabase>): Promise<DatabaseSnapshot> {
  const tables = (await db.introspection.getTables()).map((table) => table.name).filter((name) => !NOT_STORE_DATA.has(name));
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
