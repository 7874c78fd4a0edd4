import { sql, type Insertable, type OperationNode, type RawBuilder, type Updateable } from 'kysely';
import type { CheckoutsTable, OrdersTable, PaymentProviderName, StoreDatabase, TransactionsTable } from '../../../db/schema';
import { iso } from '../../../lib/iso';
import { newId } from '../../../lib/tokens';
import type { PaymentEvent } from '../../../services/payments/provider';
import { compareKeys, effectsInOrder, lockKeyOf, type CheckoutRow, type OrderEffect, type OrderRow, type TransactionRow, type Trx } from '../../../services/orders/order-rows';

/** What applying payment events needs to know besides the transaction: the engine and the clock. */
export interface ApplierContext {
  sqlite: boolean;
  now: () => number;
  /** The active provider's name, for rows that record who charged them. */
  providerName?: () => PaymentProviderName | undefined;
}

/** An order's rows, locked until the transaction ends (SQLite runs one transaction at a time). */
export async function lockOrders(trx: Trx, ids: string[], sqlite: boolean): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  const query = trx
    .selectFrom('orders')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .orderBy('id');
  return sqlite ? query.execute() : query.forUpdate().execute();
}

/**
 * One statement the events of a batch write: run alone, or on PostgreSQL with the batch's other
 * writes as one statement. `expectRows`: how many rows it must return (else the batch is undone).
 */
export interface Write {
  query: { execute(): Promise<unknown[]>; toOperationNode(): OperationNode };
  expectRows?: number;
}

/**
 * Rows' own changes in ONE statement (a CASE per column over the ids), not one UPDATE per row: a
 * round trip to the database is most of what an event costs.
 */
function rowUpdates(trx: Trx, table: 'orders' | 'checkouts' | 'transactions', changesById: Map<string, Record<string, unknown>>, at: string): Write[] {
  const entries = [...changesById].filter(([, changes]) => Object.keys(changes).length > 0);
  if (entries.length === 0) return [];
  const stamp = table === 'transactions' ? {} : { updated_at: at };
  // The three tables share the shape this needs (an id, columns set by value): typed as orders.
  const update = trx.updateTable(table as 'orders');
  const [first] = entries;
  if (entries.length === 1 && first) {
    return [{ query: update.set({ ...(first[1] as Updateable<OrdersTable>), ...stamp }).where('id', '=', first[0]) }];
  }
  const columns = [...new Set(entries.flatMap(([, changes]) => Object.keys(changes)))];
  const set: Record<string, RawBuilder<unknown>> = {};
  for (const column of columns) {
    const cases = entries.filter(([, changes]) => column in changes).map(([id, changes]) => sql`when ${id} then ${changes[column] ?? null}`);
    set[column] = sql`case ${sql.ref('id')} ${sql.join(cases, sql` `)} else ${sql.ref(column)} end`;
  }
  return [
    {
      query: update.set({ ...(set as Updateable<OrdersTable>), ...stamp }).where(
        'id',
        'in',
        entries.map(([id]) => id),
      ),
    },
  ];
}

/** Cannot happen while the batch holds its checkouts' locks; should it, the batch is undone and each event applied alone. */
const UNEXPECTED_WRITE = 'a batch write stored fewer rows than it should (an invoice stored by another transaction meanwhile)';

/** Runs writes one after another, in order. */
async function runWrites(writes: Write[]) {
  for (const write of writes) {
    const rows = await write.query.execute();
    if (write.expectRows !== undefined && rows.length !== write.expectRows) throw new Error(UNEXPECTED_WRITE);
  }
}

/**
 * Runs writes as ONE statement on PostgreSQL: each a data-modifying WITH query (every one runs
 * once, to completion, and foreign keys are checked when the statement ends), so a batch's
 * inserts and updates cost one round trip instead of one each. SQLite runs them one by one.
 */
async function runWritesTogether(trx: Trx, writes: Write[], sqlite: boolean) {
  if (sqlite || writes.length < 2) return runWrites(writes);
  const name = (index: number) => sql.id(`write_${index}`);
  const checks = writes.flatMap((write, index) => (write.expectRows === undefined ? [] : [sql`(select count(*) from ${name(index)}) = ${write.expectRows}`]));
  const { rows } = await sql<{ ok: boolean }>`with ${sql.join(
    writes.map((write, index) => sql`${name(index)} as (${write.query})`),
  )} select ${checks.length > 0 ? sql.join(checks, sql` and `) : sql`true`} as ok`.execute(trx);
  if (rows[0]?.ok !== true) throw new Error(UNEXPECTED_WRITE);
}

/** What an invoice's transaction row says of its state. */
export type InvoiceState = Pick<TransactionRow, 'id' | 'status' | 'status_version'>;

/**
 * What the events of one database transaction read and change. A row is locked and read once and
 * then kept: a batch locks every checkout its events name, those checkouts' orders and their
 * invoices' transactions in three statements up front. A change goes to the kept row at once, so
 * the next event sees it, and to the database with the others when the events are applied: one
 * statement per table, whatever the number of events. A query that searches rows by a column an
 * event may change (`raw()`) first writes what is pending.
 */
export class EventWork {
  readonly effects: OrderEffect[] = [];
  readonly #checkouts = new Map<string, CheckoutRow | undefined>();
  readonly #orders = new Map<string, OrderRow>();
  readonly #checkoutOrders = new Map<string, string[]>();
  /** Invoices whose transaction was looked up under their checkout's lock: the row, or undefined when there is none yet. */
  readonly #invoices = new Map<string, InvoiceState | undefined>();
  readonly #orderChanges = new Map<string, Updateable<OrdersTable>>();
  readonly #checkoutChanges = new Map<string, Updateable<CheckoutsTable>>();
  readonly #transactionChanges = new Map<string, Updateable<TransactionsTable>>();
  readonly #newTransactions: { row: Insertable<TransactionsTable>; lines: Insertable<StoreDatabase['transaction_lines']>[] }[] = [];

  constructor(
    readonly trx: Trx,
    readonly ctx: ApplierContext,
  ) {}

  /**
   * Locks the checkouts the events name (in id order, as every transaction locks checkouts, then
   * their orders), all their orders, and the transactions of the invoices they pay.
   */
  async preload(events: PaymentEvent[]) {
    const checkoutIds = [...new Set(events.map(lockKeyOf).filter((id): id is string => id !== undefined && !this.#checkouts.has(id)))].sort(compareKeys);
    if (checkoutIds.length === 0) return;
    const checkoutQuery = this.trx.selectFrom('checkouts').selectAll().where('id', 'in', checkoutIds).orderBy('id');
    const checkouts = await (this.ctx.sqlite ? checkoutQuery.execute() : checkoutQuery.forUpdate().execute());
    for (const id of checkoutIds)
      this.#checkouts.set(
        id,
        checkouts.find((checkout) => checkout.id === id),
      );
    const found = checkoutIds.filter((id) => this.#checkouts.get(id));
    if (found.length > 0) {
      const orderQuery = this.trx.selectFrom('orders').selectAll().where('checkout_id', 'in', found).orderBy('id');
      this.#keepCheckoutOrders(found, await (this.ctx.sqlite ? orderQuery.execute() : orderQuery.forUpdate().execute()));
    }
    const invoiceRefs = [
      ...new Set(
        events.flatMap((event) =>
          (event.kind === 'invoice.paid' || event.kind === 'invoice.payment_failed') && event.checkoutId && this.#checkouts.get(event.checkoutId) && !this.#invoices.has(event.invoiceRef)
            ? [event.invoiceRef]
            : [],
        ),
      ),
    ].sort(compareKeys);
    if (invoiceRefs.length > 0) {
      const query = this.trx.selectFrom('transactions').select(['id', 'status', 'status_version', 'invoice_ref']).where('invoice_ref', 'in', invoiceRefs).orderBy('invoice_ref');
      const rows = await (this.ctx.sqlite ? query.execute() : query.forUpdate().execute());
      for (const ref of invoiceRefs)
        this.#invoices.set(
          ref,
          rows.find((row) => row.invoice_ref === ref),
        );
    }
  }

  #keepCheckoutOrders(checkoutIds: string[], rows: OrderRow[]) {
    for (const id of checkoutIds) this.#checkoutOrders.set(id, []);
    for (const row of rows) {
      // A kept row may carry changes not yet written: it stays.
      if (!this.#orders.has(row.id)) this.#orders.set(row.id, row);
      this.#checkoutOrders.get(row.checkout_id)?.push(row.id);
    }
  }

  /** The checkout, locked. */
  async checkout(id: string): Promise<CheckoutRow | undefined> {
    if (!this.#checkouts.has(id)) {
      const query = this.trx.selectFrom('checkouts').selectAll().where('id', '=', id);
      this.#checkouts.set(id, await (this.ctx.sqlite ? query.executeTakeFirst() : query.forUpdate().executeTakeFirst()));
    }
    return this.#checkouts.get(id);
  }

  /** A checkout's orders, locked (after the checkout itself), in id order. */
  async checkoutOrders(checkoutId: string): Promise<OrderRow[]> {
    if (!this.#checkoutOrders.has(checkoutId)) {
      await this.checkout(checkoutId);
      const query = this.trx.selectFrom('orders').selectAll().where('checkout_id', '=', checkoutId).orderBy('id');
      this.#keepCheckoutOrders([checkoutId], await (this.ctx.sqlite ? query.execute() : query.forUpdate().execute()));
    }
    return (this.#checkoutOrders.get(checkoutId) ?? []).flatMap((id) => this.#orders.get(id) ?? []);
  }

  /** Orders by id, locked, in id order (unknown ids left out). */
  async ordersById(ids: Iterable<string>): Promise<OrderRow[]> {
    const wanted = [...new Set(ids)].sort(compareKeys);
    const missing = wanted.filter((id) => !this.#orders.has(id));
    for (const row of await lockOrders(this.trx, missing, this.ctx.sqlite)) this.#orders.set(row.id, row);
    return wanted.flatMap((id) => this.#orders.get(id) ?? []);
  }

  changeOrder(order: OrderRow, changes: Updateable<OrdersTable>) {
    if (Object.keys(changes).length === 0) return;
    Object.assign(order, changes);
    this.#orderChanges.set(order.id, { ...this.#orderChanges.get(order.id), ...changes });
  }

  changeCheckout(checkout: CheckoutRow, changes: Updateable<CheckoutsTable>) {
    Object.assign(checkout, changes);
    this.#checkoutChanges.set(checkout.id, { ...this.#checkoutChanges.get(checkout.id), ...changes });
  }

  /** The invoice's transaction when it was looked up under its checkout's lock; `'unknown'` otherwise. */
  invoice(invoiceRef: string): InvoiceState | undefined | 'unknown' {
    return this.#invoices.has(invoiceRef) ? this.#invoices.get(invoiceRef) : 'unknown';
  }

  keepInvoice(invoiceRef: string, state: InvoiceState) {
    this.#invoices.set(invoiceRef, state);
  }

  /** A transaction to insert with the others (its invoice was looked up under its checkout's lock). */
  addTransaction(row: Insertable<TransactionsTable> & InvoiceState, lines: Insertable<StoreDatabase['transaction_lines']>[]) {
    this.#newTransactions.push({ row, lines });
    this.#invoices.set(row.invoice_ref, { id: row.id, status: row.status, status_version: row.status_version });
  }

  changeTransaction(invoiceRef: string, state: InvoiceState, changes: Updateable<TransactionsTable>) {
    this.#invoices.set(invoiceRef, { ...state, ...changes } as InvoiceState);
    // A row not inserted yet takes the change itself: on PostgreSQL the batch's insert and updates
    // run as one statement, and an update there does not see a row its sibling inserts.
    const pending = this.#newTransactions.find((candidate) => candidate.row.id === state.id);
    if (pending) Object.assign(pending.row, changes);
    else this.#transactionChanges.set(state.id, { ...this.#transactionChanges.get(state.id), ...changes });
  }

  /** The transaction for queries of its own, with every pending change written first. */
  async raw(): Promise<Trx> {
    await this.flush();
    return this.trx;
  }

  /** Takes the pending changes as statements: at most one per table. */
  #takeWrites(): Write[] {
    const writes: Write[] = [];
    if (this.#newTransactions.length > 0) {
      const rows = this.#newTransactions.map((pending) => pending.row);
      // Every row is new while its checkout is locked; should one not be, the batch is undone
      // and each event applied alone.
      writes.push({
        query: this.trx
          .insertInto('transactions')
          .values(rows)
          .onConflict((conflict) => conflict.column('invoice_ref').doNothing())
          .returning('id'),
        expectRows: rows.length,
      });
      const lines = this.#newTransactions.flatMap((pending) => pending.lines);
      if (lines.length > 0) writes.push({ query: this.trx.insertInto('transaction_lines').values(lines) });
      this.#newTransactions.length = 0;
    }
    writes.push(...rowUpdates(this.trx, 'transactions', this.#transactionChanges, iso(this.ctx.now())));
    writes.push(...rowUpdates(this.trx, 'orders', this.#orderChanges, iso(this.ctx.now())));
    writes.push(...rowUpdates(this.trx, 'checkouts', this.#checkoutChanges, iso(this.ctx.now())));
    this.#transactionChanges.clear();
    this.#orderChanges.clear();
    this.#checkoutChanges.clear();
    return writes;
  }

  /** Writes the pending changes: at most one statement per table. */
  async flush() {
    await runWrites(this.#takeWrites());
  }

  /**
   * Writes what is pending and records the mail and fulfilment the events owe, in one statement
   * on PostgreSQL: they are carried out after the webhook answered, by the order-notifications
   * sender, and never lost when the process stops before they went.
   */
  async finish() {
    const writes = this.#takeWrites();
    if (this.effects.length > 0) {
      const at = iso(this.ctx.now());
      writes.push({
        query: this.trx
          .insertInto('order_notifications')
          .values(
            effectsInOrder(this.effects).map((effect, position) => ({ id: newId(), kind: effect.kind, payload: JSON.stringify(effect), created_at: at, position, next_attempt_at: at })),
          ),
      });
    }
    await runWritesTogether(this.trx, writes, this.ctx.sqlite);
  }
}
