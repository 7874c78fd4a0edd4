import { SqliteAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * Adds an auto-numbered `id` primary key. This is the one column SQL spells differently per
 * database (SQLite's AUTOINCREMENT, PostgreSQL's serial), so the difference stays here and every
 * migration stays portable.
 */
export function withSerialId<Table extends string>(db: Kysely<unknown>, table: CreateTableBuilder<Table, never>) {
  return db.getExecutor().adapter instanceof SqliteAdapter
    ? table.addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement())
    : table.addColumn('id', 'serial', (column) => column.primaryKey());
}
