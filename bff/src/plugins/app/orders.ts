import { PRODUCTS, isProductId } from '@bimi/catalog/products';
import type { CartQuote } from '@bimi/catalog/quote';
import {
  CertificateDetails,
  VALIDATION_STEPS,
  type CheckoutLine,
  type CheckoutState,
  type OrderDetail,
  type OrderFilter,
  type OrderList,
  type OrderStatus,
  type OrderSummary,
  type Transaction as TransactionView,
  type ValidationStep,
} from '@bimi/contracts/orders';
import fp from 'fastify-plugin';
import { sql, SqliteAdapter, type Insertable, type Kysely, type OperationNode, type RawBuilder, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { CheckoutsTable, OrdersTable, PaymentProviderName, StoreDatabase, TransactionsTable } from '../../db/schema';
import { newId } from '../../lib/tokens';
import { countByFilter, isCertificateOrder, matchesFilter, needsAction, orderStatus, validationSteps } from '../../services/orders/order-status';
import type { CheckoutClosed, CheckoutCompleted, InvoiceLine, InvoicePaid, InvoicePaymentFailed, PaymentEvent, SubscriptionChanged } from '../../services/payments/provider';

type OrderRow = Selectable<OrdersTable>;
type CheckoutRow = Selectable<CheckoutsTable>;
type TransactionRow = Selectable<TransactionsTable>;
type Trx = Transaction<StoreDatabase>;

/** One order to create: a cart item's configuration and what the catalog quoted for it. */
export interface NewOrderLine {
  productId: string;
  domains?: number;
  years?: number;
  logos?: number;
  emailVolume?: number;
  billingPeriod?: 'monthly' | 'annual';
  /** The cart line's quantity (copies). */
  copies: number;
  /** Units charged per billing period (the quote's quantity), per unit and in all, in cents. */
  quantity: number;
  unitAmount: number;
  amount: number;
  interval: 'month' | 'year';
  intervalCount: number;
  /** "3 domains · 2 years". */
  description: string;
  priceId: string | null;
  /** Validation details given at checkout, already checked (checkCertificateDetails). */
  details?: CertificateDetails;
}

export interface CreatedOrder extends NewOrderLine {
  id: string;
  number: string;
}

/** The provider-facing view of a checkout (the test payment page shows it). */
export interface CheckoutForPayment {
  id: string;
  userId: string;
  status: CheckoutRow['status'];
  sessionRef: string | null;
  sessionUrl: string | null;
  failureMessage: string | null;
  orders: CreatedOrder[];
}

/** What an applied event leads to once its transaction has committed: mail and fulfilment. */
export type OrderEffect =
  | { kind: 'order-confirmation'; userId: string; checkoutId: string }
  | { kind: 'payment-receipt'; userId: string; transactionId: string }
  | { kind: 'payment-failed'; userId: string; orderIds: string[]; amount: number; failureMessage: string | null }
  | { kind: 'submit-for-validation'; orderId: string };

/** Where the provider charges one order: its subscription and item. */
export interface RenewalTarget {
  orderId: string;
  subscriptionRef: string;
  itemRef: string | null;
  renews: boolean;
  currentPeriodEnd: string | null;
}

/** A renewal reminder due: the order, how many days ahead (30 or 7), and the period end it is about. */
export interface DueReminder {
  orderId: string;
  userId: string;
  daysAhead: number;
  periodEnd: string;
}

export interface Orders {
  /** Stores a checkout and one order per line (status incomplete, with the quoted amounts). */
  createCheckout(input: { userId: string; lines: NewOrderLine[] }): Promise<{ checkoutId: string; orders: CreatedOrder[] }>;
  /** The provider's session for the checkout: its id and the page where the buyer pays. */
  attachProviderSession(checkoutId: string, ref: string, url: string, provider?: PaymentProviderName): Promise<void>;
  /** Open checkouts made before `createdBefore` that never got a payment page (the process stopped in between). */
  checkoutsWithoutPaymentPage(createdBefore: number, limit: number): Promise<string[]>;
  /** The checkout as the success page polls it; undefined when it is not the user's. */
  checkoutState(userId: string, checkoutId: string): Promise<CheckoutState | undefined>;
  /** The checkout with its orders, for a provider (the test payment page); by our id or the provider's session ref. */
  checkoutForPayment(key: { checkoutId: string } | { sessionRef: string }): Promise<CheckoutForPayment | undefined>;
  /**
   * Applies a provider event exactly once: its id is stored in the same transaction as the change
   * it causes ('duplicate' when it was stored before: nothing changes). Safe in any order: per
   * object, state older than the last applied is ignored.
   */
  applyPaymentEvent(event: PaymentEvent): Promise<'applied' | 'duplicate'>;
  list(userId: string, filter: OrderFilter): Promise<OrderList>;
  /** One of the user's orders; undefined for another user's (the route answers 404). */
  get(userId: string, orderId: string): Promise<OrderDetail | undefined>;
  /** Stores the certificate details (already checked); submits the order for validation when paid. */
  setDetails(userId: string, orderId: string, details: CertificateDetails): Promise<OrderDetail | undefined>;
  /** Where the provider charges the order; undefined when not the user's; subscriptionRef null until paid. */
  renewalTarget(userId: string, orderId: string): Promise<(Omit<RenewalTarget, 'subscriptionRef'> & { subscriptionRef: string | null }) | undefined>;
  /** Records a renewal change the provider accepted (its subscription.updated event follows). */
  setRenewal(orderId: string, renew: boolean, currentPeriodEnd?: string | null): Promise<void>;
  // Fulfilment (the operator's command, or a certificate authority later).
  findByNumber(number: string): Promise<OrderRow | undefined>;
  operatorList(filter: OrderFilter): Promise<{ row: OrderRow; status: OrderStatus }[]>;
  operatorGet(orderId: string): Promise<OrderDetail | undefined>;
  setValidationStep(orderId: string, step: ValidationStep, state: 'waiting' | 'in-progress' | 'done' | 'failed', note: string | null): Promise<void>;
  /** Starts validation: every step waiting, unless it was started before. */
  startValidation(orderId: string): Promise<void>;
  /** The certificate is issued: the order becomes active. */
  markIssued(orderId: string, certificateExpiresAt: string | null): Promise<void>;
  /** Renewal reminders due now (30 and 7 days before a yearly period ends), not sent before. */
  dueRenewalReminders(): Promise<DueReminder[]>;
  /** Claims a reminder (false when another run claimed it); release it when the mail did not go. */
  claimReminder(reminder: DueReminder): Promise<boolean>;
  releaseReminder(reminder: DueReminder): Promise<void>;
  /** The raw row, for mail texts. */
  row(orderId: string): Promise<OrderRow | undefined>;
}

const DAY = 24 * 60 * 60 * 1000;
/** Provider subscription states that wait for a payment. */
const UNPAID_SUBSCRIPTION = new Set(['incomplete', 'past_due', 'unpaid']);
export const REMINDER_DAYS = [30, 7] as const;

/** "O-000123": short enough to read out on a call. */
export function orderNumber(number: number): string {
  return `O-${String(number).padStart(6, '0')}`;
}

export function parseOrderNumber(text: string): number | undefined {
  const match = /^(?:O-?)?(\d{1,9})$/i.exec(text.trim());
  return match ? Number(match[1]) : undefined;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** "3 domains · 2 years" or "1,000,000 emails · monthly". */
export function describeConfiguration(line: Pick<CheckoutLine, 'productId' | 'domains' | 'years' | 'logos' | 'emailVolume' | 'billingPeriod' | 'quantity'>): string {
  const parts: string[] = [];
  const product = isProductId(line.productId) ? PRODUCTS[line.productId] : undefined;
  if (product?.type === 'certificate') {
    parts.push(plural(line.domains ?? 1, 'domain'), plural(line.years ?? 1, 'year'));
    if ((line.logos ?? 1) > 1) parts.push(plural(line.logos ?? 1, 'logo'));
  } else if (product?.type === 'dmarc') {
    parts.push(plural(line.emailVolume ?? 0, 'email'), line.billingPeriod === 'annual' ? 'yearly' : 'monthly');
  } else {
    parts.push(product?.billingPeriod === 'month' ? 'monthly' : 'yearly');
  }
  if ((line.quantity ?? 1) > 1) parts.push(`× ${line.quantity}`);
  return parts.join(' · ');
}

/** How often a line renews: a certificate every `years` years, a DMARC plan monthly or yearly. */
export function billingInterval(line: Pick<CheckoutLine, 'productId' | 'years' | 'billingPeriod'>): { interval: 'month' | 'year'; intervalCount: number } {
  const product = isProductId(line.productId) ? PRODUCTS[line.productId] : undefined;
  if (product?.type === 'certificate') return { interval: 'year', intervalCount: line.years ?? 1 };
  if (product?.type === 'dmarc') return line.billingPeriod === 'annual' ? { interval: 'year', intervalCount: 1 } : { interval: 'month', intervalCount: 1 };
  return product?.billingPeriod === 'month' ? { interval: 'month', intervalCount: 1 } : { interval: 'year', intervalCount: 1 };
}

/** The orders to create for checkout items, from the catalog's quote of the same items (same order). */
export function orderLinesFromQuote(items: readonly CheckoutLine[], quote: CartQuote): NewOrderLine[] {
  return items.map((item, index) => {
    const quoted = quote.items[index];
    if (!quoted) throw new Error(`no quote for items[${index}]`);
    return {
      productId: item.productId,
      domains: item.domains,
      years: item.years,
      logos: item.logos,
      emailVolume: item.emailVolume,
      billingPeriod: item.billingPeriod,
      copies: item.quantity ?? 1,
      quantity: quoted.quantity,
      unitAmount: quoted.unitAmount,
      amount: quoted.amount,
      ...billingInterval(item),
      description: describeConfiguration(item),
      priceId: quoted.priceId,
      details: item.details,
    };
  });
}

export function productName(productId: string): string {
  return isProductId(productId) ? PRODUCTS[productId].name : productId;
}

function isSqlite(db: Kysely<StoreDatabase>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

function toCreatedOrder(row: OrderRow): CreatedOrder {
  return {
    id: row.id,
    number: orderNumber(row.number),
    productId: row.product_id,
    domains: row.domains ?? undefined,
    years: row.years ?? undefined,
    logos: row.logos ?? undefined,
    emailVolume: row.email_volume ?? undefined,
    billingPeriod: row.billing_period ?? undefined,
    copies: row.copies,
    quantity: row.quantity,
    unitAmount: row.unit_amount,
    amount: row.amount,
    interval: row.billing_interval,
    intervalCount: row.billing_interval_count,
    description: row.description,
    priceId: row.price_id,
    details: parseDetails(row.details) ?? undefined,
  };
}

function parseDetails(json: string | null): CertificateDetails | null {
  if (json === null) return null;
  const parsed = CertificateDetails.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : null;
}

const version = (value: number | string): number => Number(value);

/** The checkout an event locks first, when the event names it (the batch order); undefined for renewals and subscription changes. */
function lockKeyOf(event: PaymentEvent): string | undefined {
  switch (event.kind) {
    case 'checkout.completed':
    case 'checkout.expired':
    case 'checkout.failed':
      return event.checkoutId;
    case 'invoice.paid':
    case 'invoice.payment_failed':
      return event.checkoutId ?? undefined;
    default:
      return undefined;
  }
}

const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export interface OrdersOptions {
  now: () => number;
  /** The active provider's name, for rows that record who charged them. */
  providerName?: () => PaymentProviderName | undefined;
  /** Runs the effects of stored details (submitting a paid order for validation) right away. */
  onEffects?: (effects: OrderEffect[]) => Promise<void>;
  /** Told after an applied event's effects were recorded and committed (the sender wakes up). */
  onEffectsRecorded?: () => void;
}

export function createOrders(db: Kysely<StoreDatabase>, options: OrdersOptions): Orders {
  const { now } = options;
  const iso = (at = now()) => new Date(at).toISOString();
  const sqlite = isSqlite(db);
  // The confirmation goes before the receipt it announces, whichever event came first.
  const EFFECT_ORDER: OrderEffect['kind'][] = ['order-confirmation', 'payment-receipt', 'payment-failed', 'submit-for-validation'];
  const inOrder = (effects: OrderEffect[]) => [...effects].sort((a, b) => EFFECT_ORDER.indexOf(a.kind) - EFFECT_ORDER.indexOf(b.kind));
  const runEffects = async (effects: OrderEffect[]) => {
    if (effects.length === 0 || !options.onEffects) return;
    await options.onEffects(inOrder(effects));
  };

  /** An order's rows, locked until the transaction ends (SQLite runs one transaction at a time). */
  async function lockOrders(trx: Trx, ids: string[]): Promise<OrderRow[]> {
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
  interface Write {
    query: { execute(): Promise<unknown[]>; toOperationNode(): OperationNode };
    expectRows?: number;
  }

  /**
   * Rows' own changes in ONE statement (a CASE per column over the ids), not one UPDATE per row: a
   * round trip to the database is most of what an event costs.
   */
  function rowUpdates(trx: Trx, table: 'orders' | 'checkouts' | 'transactions', changesById: Map<string, Record<string, unknown>>): Write[] {
    const entries = [...changesById].filter(([, changes]) => Object.keys(changes).length > 0);
    if (entries.length === 0) return [];
    const stamp = table === 'transactions' ? {} : { updated_at: iso() };
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
  async function runWritesTogether(trx: Trx, writes: Write[]) {
    if (sqlite || writes.length < 2) return runWrites(writes);
    const name = (index: number) => sql.id(`write_${index}`);
    const checks = writes.flatMap((write, index) => (write.expectRows === undefined ? [] : [sql`(select count(*) from ${name(index)}) = ${write.expectRows}`]));
    const { rows } = await sql<{ ok: boolean }>`with ${sql.join(
      writes.map((write, index) => sql`${name(index)} as (${write.query})`),
    )} select ${checks.length > 0 ? sql.join(checks, sql` and `) : sql`true`} as ok`.execute(trx);
    if (rows[0]?.ok !== true) throw new Error(UNEXPECTED_WRITE);
  }

  /** What an invoice's transaction row says of its state. */
  type InvoiceState = Pick<TransactionRow, 'id' | 'status' | 'status_version'>;

  /**
   * What the events of one database transaction read and change. A row is locked and read once and
   * then kept: a batch locks every checkout its events name, those checkouts' orders and their
   * invoices' transactions in three statements up front. A change goes to the kept row at once, so
   * the next event sees it, and to the database with the others when the events are applied: one
   * statement per table, whatever the number of events. A query that searches rows by a column an
   * event may change (`raw()`) first writes what is pending.
   */
  class EventWork {
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

    constructor(readonly trx: Trx) {}

    /**
     * Locks the checkouts the events name (in id order, as every transaction locks checkouts, then
     * their orders), all their orders, and the transactions of the invoices they pay.
     */
    async preload(events: PaymentEvent[]) {
      const checkoutIds = [...new Set(events.map(lockKeyOf).filter((id): id is string => id !== undefined && !this.#checkouts.has(id)))].sort(compareKeys);
      if (checkoutIds.length === 0) return;
      const checkoutQuery = this.trx.selectFrom('checkouts').selectAll().where('id', 'in', checkoutIds).orderBy('id');
      const checkouts = await (sqlite ? checkoutQuery.execute() : checkoutQuery.forUpdate().execute());
      for (const id of checkoutIds)
        this.#checkouts.set(
          id,
          checkouts.find((checkout) => checkout.id === id),
        );
      const found = checkoutIds.filter((id) => this.#checkouts.get(id));
      if (found.length > 0) {
        const orderQuery = this.trx.selectFrom('orders').selectAll().where('checkout_id', 'in', found).orderBy('id');
        this.#keepCheckoutOrders(found, await (sqlite ? orderQuery.execute() : orderQuery.forUpdate().execute()));
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
        const rows = await (sqlite ? query.execute() : query.forUpdate().execute());
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
        this.#checkouts.set(id, await (sqlite ? query.executeTakeFirst() : query.forUpdate().executeTakeFirst()));
      }
      return this.#checkouts.get(id);
    }

    /** A checkout's orders, locked (after the checkout itself), in id order. */
    async checkoutOrders(checkoutId: string): Promise<OrderRow[]> {
      if (!this.#checkoutOrders.has(checkoutId)) {
        await this.checkout(checkoutId);
        const query = this.trx.selectFrom('orders').selectAll().where('checkout_id', '=', checkoutId).orderBy('id');
        this.#keepCheckoutOrders([checkoutId], await (sqlite ? query.execute() : query.forUpdate().execute()));
      }
      return (this.#checkoutOrders.get(checkoutId) ?? []).flatMap((id) => this.#orders.get(id) ?? []);
    }

    /** Orders by id, locked, in id order (unknown ids left out). */
    async ordersById(ids: Iterable<string>): Promise<OrderRow[]> {
      const wanted = [...new Set(ids)].sort(compareKeys);
      const missing = wanted.filter((id) => !this.#orders.has(id));
      for (const row of await lockOrders(this.trx, missing)) this.#orders.set(row.id, row);
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
      writes.push(...rowUpdates(this.trx, 'transactions', this.#transactionChanges));
      writes.push(...rowUpdates(this.trx, 'orders', this.#orderChanges));
      writes.push(...rowUpdates(this.trx, 'checkouts', this.#checkoutChanges));
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
        const at = iso();
        writes.push({
          query: this.trx
            .insertInto('order_notifications')
            .values(inOrder(this.effects).map((effect, position) => ({ id: newId(), kind: effect.kind, payload: JSON.stringify(effect), created_at: at, position, next_attempt_at: at }))),
        });
      }
      await runWritesTogether(this.trx, writes);
    }
  }

  /**
   * The orders an invoice's lines charge (by the item's metadata.order_id, else by subscription
   * item), locked. Their checkouts are locked first: every event locks checkout, then orders, so two
   * events about one purchase applied at the same moment wait for each other instead of deadlocking.
   */
  async function ordersOfLines(work: EventWork, lines: InvoiceLine[], subscriptionRef: string | null, checkoutId: string | null): Promise<OrderRow[]> {
    if (checkoutId) await work.checkout(checkoutId);
    const ids = new Set<string>();
    for (const line of lines) {
      if (line.orderId) ids.add(line.orderId);
      else if (line.itemRef) {
        const found = await (await work.raw()).selectFrom('orders').select('id').where('item_ref', '=', line.itemRef).executeTakeFirst();
        if (found) ids.add(found.id);
      }
    }
    if (ids.size === 0 && checkoutId) return work.checkoutOrders(checkoutId);
    if (ids.size === 0 && subscriptionRef) {
      const rows = await (await work.raw()).selectFrom('orders').select('id').where('subscription_ref', '=', subscriptionRef).execute();
      for (const row of rows) ids.add(row.id);
    }
    if (ids.size === 0) return [];
    // A renewal invoice names no checkout: its orders' checkouts are locked instead (an order's checkout never changes).
    if (!checkoutId) {
      const owners = await work.trx
        .selectFrom('orders')
        .select('checkout_id')
        .where('id', 'in', [...ids])
        .execute();
      for (const id of [...new Set(owners.map((owner) => owner.checkout_id))].sort(compareKeys)) await work.checkout(id);
    }
    return work.ordersById(ids);
  }

  /** The checkout becomes paid (once): the buyer gets the order confirmation. */
  async function markCheckoutPaid(work: EventWork, checkoutId: string, at: number): Promise<void> {
    const checkout = await work.checkout(checkoutId);
    if (!checkout || checkout.status === 'paid') return;
    work.changeCheckout(checkout, { status: 'paid', failure_message: null, status_version: Math.max(at, version(checkout.status_version)) });
    work.effects.push({ kind: 'order-confirmation', userId: checkout.user_id, checkoutId });
  }

  /** An order's first payment (or a renewal's) is in: paid, unless a newer payment state is stored. */
  function markOrderPaid(work: EventWork, order: OrderRow, at: number, refs: { subscriptionRef: string | null; itemRef: string | null; periodEnd?: number }) {
    const changes: Updateable<OrdersTable> = {};
    // A paid period only ever moves the end forward.
    if (refs.periodEnd && (order.current_period_end === null || Date.parse(order.current_period_end) < refs.periodEnd)) changes.current_period_end = iso(refs.periodEnd);
    if (refs.subscriptionRef && !order.subscription_ref) changes.subscription_ref = refs.subscriptionRef;
    if (refs.itemRef && !order.item_ref) changes.item_ref = refs.itemRef;
    if (order.subscription_status !== null && UNPAID_SUBSCRIPTION.has(order.subscription_status) && at >= version(order.subscription_version)) {
      // A paid invoice makes its subscription active, as at the provider; that event may come later, or first.
      changes.subscription_status = 'active';
      changes.subscription_version = at;
    }
    const newer = at >= version(order.payment_version);
    if (newer && order.payment_status !== 'paid') {
      changes.payment_status = 'paid';
      changes.failure_message = null;
      changes.payment_version = at;
      if (order.payment_status !== 'past_due' && isCertificateOrder(order.product_id) && order.details !== null) {
        work.effects.push({ kind: 'submit-for-validation', orderId: order.id });
      }
    } else if (newer && Object.keys(changes).length > 0) {
      // Paid again (checkout.completed after invoice.paid): the version moves only with another change.
      changes.payment_version = at;
    }
    work.changeOrder(order, changes);
  }

  async function applyCheckoutCompleted(work: EventWork, event: CheckoutCompleted) {
    const checkout = await work.checkout(event.checkoutId);
    if (!checkout) return;
    if (!checkout.session_ref) work.changeCheckout(checkout, { session_ref: event.checkoutRef });
    const paid = event.paymentStatus !== 'unpaid';
    for (const order of await work.checkoutOrders(checkout.id)) {
      const itemRef = event.items.find((item) => item.orderId === order.id)?.itemRef ?? null;
      if (paid) {
        markOrderPaid(work, order, event.occurredAt, { subscriptionRef: event.subscriptionRef, itemRef });
      } else {
        const changes: Updateable<OrdersTable> = {};
        if (event.subscriptionRef && !order.subscription_ref) changes.subscription_ref = event.subscriptionRef;
        if (itemRef && !order.item_ref) changes.item_ref = itemRef;
        work.changeOrder(order, changes);
      }
    }
    if (paid) await markCheckoutPaid(work, checkout.id, event.occurredAt);
  }

  async function applyCheckoutClosed(work: EventWork, event: CheckoutClosed) {
    const checkout = await work.checkout(event.checkoutId);
    if (!checkout || checkout.status === 'paid' || event.occurredAt < version(checkout.status_version)) return;
    const status = event.kind === 'checkout.expired' ? 'expired' : 'failed';
    work.changeCheckout(checkout, { status, failure_message: event.failureMessage, status_version: event.occurredAt });
    for (const order of await work.checkoutOrders(checkout.id)) {
      if (order.payment_status === 'paid' || event.occurredAt < version(order.payment_version)) continue;
      work.changeOrder(order, { payment_status: status, failure_message: event.failureMessage, payment_version: event.occurredAt });
    }
  }

  /** The user an invoice is for: its orders' owner, else the provider customer's. */
  async function invoiceUser(work: EventWork, orders: OrderRow[], customerRef: string): Promise<string | undefined> {
    if (orders[0]) return orders[0].user_id;
    const customer = await work.trx.selectFrom('payment_customers').select('user_id').where('customer_ref', '=', customerRef).executeTakeFirst();
    return customer?.user_id;
  }

  /**
   * The invoice's transaction, created on first sight; an existing one is locked and handed back so
   * its state is only moved by a newer event (and never away from paid).
   */
  async function upsertTransaction(
    work: EventWork,
    event: InvoicePaid | InvoicePaymentFailed,
    userId: string,
    orders: OrderRow[],
    fields: Pick<TransactionRow, 'status' | 'amount' | 'currency' | 'number' | 'failure_message' | 'receipt_pdf_url' | 'hosted_url' | 'date'> &
      Partial<Pick<TransactionRow, 'card_brand' | 'card_last4'>>,
  ): Promise<{ id: string; changed: boolean }> {
    const id = newId();
    const description = event.lines.map((line) => line.description).join('; ') || 'Payment';
    const row = {
      id,
      user_id: userId,
      invoice_ref: event.invoiceRef,
      kind: 'charge' as const,
      status_version: event.occurredAt,
      description: description.slice(0, 500),
      test_payment: options.providerName?.() === 'test' ? (1 as const) : (0 as const),
      created_at: iso(),
      ...fields,
    };
    const lineRows = () => {
      const known = new Set(orders.map((order) => order.id));
      const rows = new Map<string, Insertable<StoreDatabase['transaction_lines']>>();
      for (const line of event.lines) {
        const orderId = line.orderId && known.has(line.orderId) ? line.orderId : orders.find((order) => order.item_ref !== null && order.item_ref === line.itemRef)?.id;
        if (!orderId || rows.has(orderId)) continue;
        rows.set(orderId, {
          transaction_id: id,
          order_id: orderId,
          description: line.description.slice(0, 500),
          amount: line.amount,
          period_start: line.periodStart ? iso(line.periodStart) : null,
          period_end: line.periodEnd ? iso(line.periodEnd) : null,
        });
      }
      // An invoice without per-order lines (it happens with one-line subscriptions) still belongs to its orders.
      if (event.lines.length === 0) {
        for (const order of orders)
          rows.set(order.id, { transaction_id: id, order_id: order.id, description: order.description, amount: order.amount, period_start: null, period_end: null });
      }
      return [...rows.values()];
    };
    let existing = work.invoice(event.invoiceRef);
    if (existing === undefined) {
      work.addTransaction(row, lineRows());
      return { id, changed: true };
    }
    if (existing === 'unknown') {
      // Not looked up under a checkout's lock (a renewal's invoice): inserted now, so another event
      // about the invoice applied at this moment finds it, or waits for it.
      const trx = await work.raw();
      const inserted = await trx
        .insertInto('transactions')
        .values(row)
        .onConflict((conflict) => conflict.column('invoice_ref').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) {
        const lines = lineRows();
        if (lines.length > 0) await trx.insertInto('transaction_lines').values(lines).execute();
        work.keepInvoice(event.invoiceRef, row);
        return { id, changed: true };
      }
      const query = trx.selectFrom('transactions').select(['id', 'status', 'status_version']).where('invoice_ref', '=', event.invoiceRef);
      existing = await (sqlite ? query.executeTakeFirstOrThrow() : query.forUpdate().executeTakeFirstOrThrow());
      work.keepInvoice(event.invoiceRef, existing);
    }
    if (existing.status === 'paid' || event.occurredAt < version(existing.status_version) || existing.status === fields.status) {
      return { id: existing.id, changed: false };
    }
    work.changeTransaction(event.invoiceRef, existing, { ...fields, status_version: event.occurredAt });
    return { id: existing.id, changed: true };
  }

  async function applyInvoicePaid(work: EventWork, event: InvoicePaid) {
    const orders = await ordersOfLines(work, event.lines, event.subscriptionRef, event.checkoutId);
    const userId = await invoiceUser(work, orders, event.customerRef);
    if (!userId) return;
    const card = (event as InvoicePaid & { paymentMethod?: { brand?: string; last4?: string } | null }).paymentMethod;
    const transaction = await upsertTransaction(work, event, userId, orders, {
      status: 'paid',
      amount: event.amountPaid,
      currency: event.currency,
      number: event.number,
      failure_message: null,
      receipt_pdf_url: event.receipt.pdfUrl,
      hosted_url: event.receipt.hostedUrl,
      date: iso(event.paidAt),
      card_brand: card?.brand ?? null,
      card_last4: card?.last4 ?? null,
    });
    if (transaction.changed) work.effects.push({ kind: 'payment-receipt', userId, transactionId: transaction.id });
    for (const order of orders) {
      const line = event.lines.find((candidate) => candidate.orderId === order.id) ?? event.lines.find((candidate) => candidate.itemRef !== null && candidate.itemRef === order.item_ref);
      markOrderPaid(work, order, event.occurredAt, { subscriptionRef: event.subscriptionRef, itemRef: line?.itemRef ?? null, periodEnd: line?.periodEnd });
    }
    const checkoutIds = new Set(event.checkoutId ? [event.checkoutId] : []);
    if (!event.checkoutId) for (const order of orders) checkoutIds.add(order.checkout_id);
    for (const checkoutId of checkoutIds) await markCheckoutPaid(work, checkoutId, event.occurredAt);
  }

  async function applyInvoicePaymentFailed(work: EventWork, event: InvoicePaymentFailed) {
    const orders = await ordersOfLines(work, event.lines, event.subscriptionRef, event.checkoutId);
    const userId = await invoiceUser(work, orders, event.customerRef);
    if (!userId) return;
    const transaction = await upsertTransaction(work, event, userId, orders, {
      status: 'failed',
      amount: event.amountDue,
      currency: event.currency,
      number: null,
      failure_message: event.failureMessage,
      receipt_pdf_url: null,
      hosted_url: null,
      date: iso(event.occurredAt),
    });
    const failedOrders: string[] = [];
    for (const order of orders) {
      if (event.occurredAt < version(order.payment_version)) continue;
      const status = order.payment_status === 'paid' || order.payment_status === 'past_due' ? 'past_due' : 'failed';
      work.changeOrder(order, { payment_status: status, failure_message: event.failureMessage, payment_version: event.occurredAt });
      failedOrders.push(order.id);
    }
    if (event.checkoutId) {
      const checkout = await work.checkout(event.checkoutId);
      if (checkout && checkout.status !== 'paid' && event.occurredAt >= version(checkout.status_version)) {
        work.changeCheckout(checkout, { status: 'failed', failure_message: event.failureMessage, status_version: event.occurredAt });
      }
    }
    if (transaction.changed && failedOrders.length > 0) {
      work.effects.push({ kind: 'payment-failed', userId, orderIds: failedOrders, amount: event.amountDue, failureMessage: event.failureMessage });
    }
  }

  async function applyEvent(work: EventWork, event: PaymentEvent) {
    switch (event.kind) {
      case 'checkout.completed':
        return applyCheckoutCompleted(work, event);
      case 'checkout.expired':
      case 'checkout.failed':
        return applyCheckoutClosed(work, event);
      case 'invoice.paid':
        return applyInvoicePaid(work, event);
      case 'invoice.payment_failed':
        return applyInvoicePaymentFailed(work, event);
      case 'subscription.updated':
      case 'subscription.deleted':
        return applySubscriptionChanged(work, event);
    }
  }

  /** Claims event ids (sorted, so two transactions claiming the same ids never wait on each other in a cycle): the ids claimed now. */
  async function claimEvents(trx: Trx, events: PaymentEvent[]): Promise<Set<string>> {
    const byId = new Map(events.map((event) => [event.eventId, event.kind]));
    const at = iso();
    const rows = await trx
      .insertInto('processed_payment_events')
      .values([...byId].sort(([a], [b]) => compareKeys(a, b)).map(([eventId, kind]) => ({ event_id: eventId, kind, applied_at: at })))
      .onConflict((conflict) => conflict.column('event_id').doNothing())
      .returning('event_id')
      .execute();
    return new Set(rows.map((row) => row.event_id));
  }

  /**
   * Event ids this process saw committed (applied, or found applied): a stored id stays stored, so a
   * later delivery of one is a duplicate without a transaction. The newest 10,000; older ids are
   * asked of the database as before.
   */
  const storedEvents = new (class RecentIds {
    readonly #ids = new Set<string>();
    has(id: string) {
      return this.#ids.has(id);
    }
    add(id: string) {
      if (this.#ids.has(id)) return;
      this.#ids.add(id);
      if (this.#ids.size > 10_000) this.#ids.delete(this.#ids.values().next().value as string);
    }
  })();

  /**
   * One event in its own transaction. Its id is claimed first: a second delivery (even one running
   * at this moment in another process) waits for the first to commit, then finds the id and
   * changes nothing.
   */
  async function applyAlone(event: PaymentEvent): Promise<'applied' | 'duplicate'> {
    let recorded = false;
    const outcome = await db.transaction().execute(async (trx) => {
      if ((await claimEvents(trx, [event])).size === 0) return 'duplicate' as const;
      const work = new EventWork(trx);
      await work.preload([event]);
      await applyEvent(work, event);
      await work.finish();
      recorded = work.effects.length > 0;
      return 'applied' as const;
    });
    storedEvents.add(event.eventId);
    // Mail and fulfilment never sit in the webhook's path: the sender carries them out after the answer.
    if (recorded) options.onEffectsRecorded?.();
    return outcome;
  }

  /**
   * Group commit. The events that arrive while batches run are applied together, in one
   * transaction: their ids claimed in one statement, each event's changes in the same transaction
   * as its id, one commit for all, and every waiting webhook answered once it is stored. A round
   * trip to the database is most of what an event costs, and an idle bff applies an event at once
   * (a batch of one). Events are applied in the order of the checkout they lock, as every
   * transaction locks checkouts (then their orders) in id order, so concurrent batches never wait
   * on each other in a cycle. Should a batch fail (an event that throws, a database error), each of
   * its events is applied again alone, so only the failing one fails.
   */
  const waiting: { event: PaymentEvent; resolve: (outcome: 'applied' | 'duplicate') => void; reject: (error: unknown) => void }[] = [];
  let batchesRunning = 0;
  // SQLite runs one transaction at a time. On PostgreSQL two batches overlap (one waiting for a row
  // a buyer's request holds does not stop the other), leaving the pool's other connections to the
  // rest of the site; measured with bench:payments, a third made batches smaller and each event
  // dearer (1.1 ms of bff CPU an event instead of 1.0).
  const MAX_BATCHES = sqlite ? 1 : 2;
  const MAX_BATCH = 64;
  // A second batch starts beside a running one only for this many events; fewer wait for the
  // running one to end (a few milliseconds, unless it waits for a lock) and go with what arrives
  // meanwhile: a batch of one or two events costs nearly as many statements as one of thirty.
  // bench:payments (32 deliveries at a time): 8 gave 910–947 events/s, 16 gave 1,032–1,098, 24 998–1,019.
  const MIN_OVERLAPPING_BATCH = 16;

  function startBatches() {
    while (batchesRunning < MAX_BATCHES && waiting.length > 0 && (batchesRunning === 0 || waiting.length >= MIN_OVERLAPPING_BATCH)) {
      const batch = waiting.splice(0, MAX_BATCH);
      batchesRunning += 1;
      void applyBatch(batch).finally(() => {
        batchesRunning -= 1;
        startBatches();
      });
    }
  }

  async function applyBatch(batch: typeof waiting) {
    let claimed: Set<string>;
    let recorded = false;
    try {
      claimed = await db.transaction().execute(async (trx) => {
        const events = batch.map((item) => item.event);
        const ids = await claimEvents(trx, events);
        const firsts = [...new Map(events.filter((event) => ids.has(event.eventId)).map((event) => [event.eventId, event])).values()];
        firsts.sort((a, b) => compareKeys(lockKeyOf(a) ?? '', lockKeyOf(b) ?? ''));
        const work = new EventWork(trx);
        await work.preload(firsts);
        for (const event of firsts) await applyEvent(work, event);
        await work.finish();
        recorded = work.effects.length > 0;
        return ids;
      });
    } catch {
      await Promise.all(batch.map((item) => applyAlone(item.event).then(item.resolve, item.reject)));
      return;
    }
    if (recorded) options.onEffectsRecorded?.();
    const answered = new Set<string>();
    for (const item of batch) {
      storedEvents.add(item.event.eventId);
      const first = claimed.has(item.event.eventId) && !answered.has(item.event.eventId);
      answered.add(item.event.eventId);
      item.resolve(first ? 'applied' : 'duplicate');
    }
  }

  async function applySubscriptionChanged(work: EventWork, event: SubscriptionChanged) {
    const deleted = event.kind === 'subscription.deleted';
    const byOrderId = new Map(event.items.filter((item) => item.orderId).map((item) => [item.orderId as string, item]));
    // An item found by its ref only when it names no order: a shared item (lines at one price)
    // names each of its orders, and an order it no longer names has left it.
    const byItemRef = new Map(event.items.filter((item) => !item.orderId).map((item) => [item.itemRef, item]));
    const candidates = await (
      await work.raw()
    )
      .selectFrom('orders')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('subscription_ref', '=', event.subscriptionRef),
          ...(byOrderId.size > 0 ? [eb('id', 'in', [...byOrderId.keys()])] : []),
          ...(byItemRef.size > 0 ? [eb('item_ref', 'in', [...byItemRef.keys()])] : []),
        ]),
      )
      .execute();
    for (const order of await work.ordersById(candidates.map((row) => row.id))) {
      const stored = version(order.subscription_version);
      if (event.occurredAt < stored) continue;
      // At the same instant an ending wins over an update.
      if (event.occurredAt === stored && order.ended_at !== null && !deleted) continue;
      const item = byOrderId.get(order.id) ?? (order.item_ref ? byItemRef.get(order.item_ref) : undefined);
      const changes: Updateable<OrdersTable> = { subscription_version: event.occurredAt, subscription_ref: event.subscriptionRef, subscription_status: event.status };
      if (item) {
        changes.item_ref = item.itemRef;
        changes.renews = deleted ? 0 : item.renews ? 1 : 0;
        if (item.currentPeriodEnd) changes.current_period_end = iso(item.currentPeriodEnd);
        if (deleted) changes.ended_at = iso(event.occurredAt);
        else if (event.status !== 'canceled' && event.status !== 'incomplete_expired') changes.ended_at = null;
      } else if (order.subscription_ref === event.subscriptionRef && order.item_ref !== null) {
        // The order's item is no longer on the subscription: it was removed (renewal off at period
        // end; the renewal job removes it during the last day, before the next invoice). The buyer
        // paid up to the period's end: the order ends then, not when the item was removed.
        changes.renews = 0;
        const paidUntil = order.current_period_end ? Date.parse(order.current_period_end) : 0;
        changes.ended_at = iso(Math.max(event.occurredAt, paidUntil));
      } else {
        continue;
      }
      work.changeOrder(order, changes);
    }
  }

  async function transactionsOfOrder(orderId: string): Promise<TransactionView[]> {
    const rows = await db
      .selectFrom('transaction_lines')
      .innerJoin('transactions', 'transactions.id', 'transaction_lines.transaction_id')
      .selectAll('transactions')
      .where('transaction_lines.order_id', '=', orderId)
      .orderBy('transactions.date', 'desc')
      .execute();
    const order = await db.selectFrom('orders').select(['id', 'number']).where('id', '=', orderId).executeTakeFirst();
    return rows.map((row) => transactionView(row, order ? [{ id: order.id, number: order.number }] : []));
  }

  async function summaries(rows: OrderRow[]): Promise<{ summary: OrderSummary; row: OrderRow; steps: StepRow[]; sessionUrl: string | null }[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const steps = await db.selectFrom('order_validation_steps').selectAll().where('order_id', 'in', ids).execute();
    const checkouts = await db
      .selectFrom('checkouts')
      .select(['id', 'status', 'session_url'])
      .where(
        'id',
        'in',
        rows.map((row) => row.checkout_id),
      )
      .execute();
    const at = now();
    return rows.map((row) => {
      const own = steps.filter((step) => step.order_id === row.id);
      const checkout = checkouts.find((candidate) => candidate.id === row.checkout_id);
      // Only an open payment page can still be paid; after a failure the buyer starts a new checkout.
      const openPayment = checkout?.status === 'open' ? (checkout.session_url ?? null) : null;
      const status = orderStatus(row, at);
      return {
        row,
        steps: own,
        sessionUrl: row.payment_status === 'unpaid' || row.payment_status === 'failed' ? openPayment : null,
        summary: {
          id: row.id,
          number: orderNumber(row.number),
          productId: row.product_id,
          productName: productName(row.product_id),
          description: row.description,
          status,
          createdAt: row.created_at,
          amount: row.amount,
          currency: 'usd',
          billingPeriod: { interval: row.billing_interval, count: row.billing_interval_count },
          renews: row.renews === 1 && row.ended_at === null,
          currentPeriodEnd: row.current_period_end,
          needsAction: needsAction(row, status, own, openPayment !== null),
        },
      };
    });
  }

  async function detail(row: OrderRow): Promise<OrderDetail> {
    const [view] = await summaries([row]);
    if (!view) throw new Error('unreachable');
    const certificate = isCertificateOrder(row.product_id);
    return {
      ...view.summary,
      lines: [{ description: `${productName(row.product_id)} — ${row.description}`, quantity: row.quantity, unitAmount: row.unit_amount, amount: row.amount }],
      details: parseDetails(row.details),
      validationSteps: certificate ? validationSteps(view.steps) : [],
      transactions: await transactionsOfOrder(row.id),
      paymentUrl: view.summary.status === 'incomplete' ? view.sessionUrl : null,
    };
  }

  async function ownRow(userId: string, orderId: string): Promise<OrderRow | undefined> {
    return db.selectFrom('orders').selectAll().where('id', '=', orderId).where('user_id', '=', userId).executeTakeFirst();
  }

  return {
    async createCheckout({ userId, lines }) {
      const checkoutId = newId();
      const createdAt = iso();
      const rows = await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('checkouts')
          .values({
            id: checkoutId,
            user_id: userId,
            provider: options.providerName?.() ?? null,
            session_ref: null,
            session_url: null,
            status: 'open',
            failure_message: null,
            created_at: createdAt,
            updated_at: createdAt,
          })
          .execute();
        const created: OrderRow[] = [];
        for (const line of lines) {
          const { id: number } = await trx.insertInto('order_numbers').values({ created_at: createdAt }).returning('id').executeTakeFirstOrThrow();
          const row = await trx
            .insertInto('orders')
            .values({
              id: newId(),
              number,
              user_id: userId,
              checkout_id: checkoutId,
              product_id: line.productId,
              domains: line.domains ?? null,
              years: line.years ?? null,
              logos: line.logos ?? null,
              email_volume: line.emailVolume ?? null,
              billing_period: line.billingPeriod ?? null,
              copies: line.copies,
              quantity: line.quantity,
              unit_amount: line.unitAmount,
              amount: line.amount,
              currency: 'usd',
              billing_interval: line.interval,
              billing_interval_count: line.intervalCount,
              description: line.description,
              price_id: line.priceId,
              payment_status: 'unpaid',
              failure_message: null,
              subscription_ref: null,
              item_ref: null,
              subscription_status: null,
              current_period_end: null,
              ended_at: null,
              details: line.details ? JSON.stringify(line.details) : null,
              issued_at: null,
              certificate_expires_at: null,
              created_at: createdAt,
              updated_at: createdAt,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          created.push(row);
        }
        return created;
      });
      return { checkoutId, orders: rows.map(toCreatedOrder) };
    },

    async attachProviderSession(checkoutId, ref, url, provider) {
      await db
        .updateTable('checkouts')
        .set({ session_ref: ref, session_url: url, ...(provider ? { provider } : {}), updated_at: iso() })
        .where('id', '=', checkoutId)
        .execute();
    },

    async checkoutsWithoutPaymentPage(createdBefore, limit) {
      const rows = await db
        .selectFrom('checkouts')
        .select('id')
        .where('status', '=', 'open')
        .where('session_ref', 'is', null)
        .where('created_at', '<', new Date(createdBefore).toISOString())
        .orderBy('created_at')
        .limit(limit)
        .execute();
      return rows.map((row) => row.id);
    },

    async checkoutState(userId, checkoutId) {
      const checkout = await db.selectFrom('checkouts').selectAll().where('id', '=', checkoutId).where('user_id', '=', userId).executeTakeFirst();
      if (!checkout) return undefined;
      const orders = await db.selectFrom('orders').select('id').where('checkout_id', '=', checkoutId).orderBy('number').execute();
      return { checkoutId, status: checkout.status, orderIds: orders.map((order) => order.id), failureMessage: checkout.failure_message };
    },

    async checkoutForPayment(key) {
      const query = db.selectFrom('checkouts').selectAll();
      const checkout = await ('checkoutId' in key ? query.where('id', '=', key.checkoutId) : query.where('session_ref', '=', key.sessionRef)).executeTakeFirst();
      if (!checkout) return undefined;
      const orders = await db.selectFrom('orders').selectAll().where('checkout_id', '=', checkout.id).orderBy('number').execute();
      return {
        id: checkout.id,
        userId: checkout.user_id,
        status: checkout.status,
        sessionRef: checkout.session_ref,
        sessionUrl: checkout.session_url,
        failureMessage: checkout.failure_message,
        orders: orders.map(toCreatedOrder),
      };
    },

    applyPaymentEvent(event) {
      // Stored by this process already (a retry, a second delivery): nothing to ask the database.
      if (storedEvents.has(event.eventId)) return Promise.resolve('duplicate' as const);
      // An event that names its checkout joins the next batch (one transaction for every event that
      // arrived meanwhile); renewals and subscription changes, which find their orders by reference,
      // run alone.
      if (!lockKeyOf(event)) return applyAlone(event);
      return new Promise((resolve, reject) => {
        waiting.push({ event, resolve, reject });
        startBatches();
      });
    },

    async list(userId, filter) {
      const rows = await db.selectFrom('orders').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('number', 'desc').execute();
      const views = await summaries(rows);
      const statuses = views.map((view) => view.summary.status);
      return { orders: views.map((view) => view.summary).filter((summary) => matchesFilter(summary.status, filter)), counts: countByFilter(statuses) };
    },

    async get(userId, orderId) {
      const row = await ownRow(userId, orderId);
      return row ? detail(row) : undefined;
    },

    async setDetails(userId, orderId, details) {
      const row = await ownRow(userId, orderId);
      if (!row) return undefined;
      await db
        .updateTable('orders')
        .set({ details: JSON.stringify(details), updated_at: iso() })
        .where('id', '=', orderId)
        .execute();
      // Paid and now described: validation can start (the first time the details arrive).
      if (row.details === null && row.payment_status === 'paid') await runEffects([{ kind: 'submit-for-validation', orderId }]);
      const updated = await ownRow(userId, orderId);
      return updated ? detail(updated) : undefined;
    },

    async renewalTarget(userId, orderId) {
      const row = await ownRow(userId, orderId);
      if (!row) return undefined;
      return { orderId, subscriptionRef: row.subscription_ref, itemRef: row.item_ref, renews: row.renews === 1, currentPeriodEnd: row.current_period_end };
    },

    async setRenewal(orderId, renew, currentPeriodEnd) {
      await db.transaction().execute(async (trx) => {
        const [row] = await lockOrders(trx, [orderId]);
        if (!row) return;
        // The provider's events from before this change carry older state: they must not undo it.
        await trx
          .updateTable('orders')
          .set({
            renews: renew ? 1 : 0,
            subscription_version: Math.max(version(row.subscription_version), now()),
            ...(currentPeriodEnd ? { current_period_end: currentPeriodEnd } : {}),
            updated_at: iso(),
          })
          .where('id', '=', orderId)
          .execute();
      });
    },

    async findByNumber(text) {
      const number = parseOrderNumber(text);
      const query = db.selectFrom('orders').selectAll();
      return number !== undefined ? query.where('number', '=', number).executeTakeFirst() : query.where('id', '=', text).executeTakeFirst();
    },

    async operatorList(filter) {
      const rows = await db.selectFrom('orders').selectAll().orderBy('number', 'desc').execute();
      const views = await summaries(rows);
      return views.filter((view) => matchesFilter(view.summary.status, filter)).map((view) => ({ row: view.row, status: view.summary.status }));
    },

    async operatorGet(orderId) {
      const row = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
      return row ? detail(row) : undefined;
    },

    async setValidationStep(orderId, step, state, note) {
      const at = iso();
      await db
        .insertInto('order_validation_steps')
        .values({ order_id: orderId, step, state, note, updated_at: at })
        .onConflict((conflict) => conflict.columns(['order_id', 'step']).doUpdateSet({ state, note, updated_at: at }))
        .execute();
      await db.updateTable('orders').set({ updated_at: at }).where('id', '=', orderId).execute();
    },

    async startValidation(orderId) {
      const at = iso();
      for (const step of VALIDATION_STEPS) {
        await db
          .insertInto('order_validation_steps')
          .values({ order_id: orderId, step, state: 'waiting', note: null, updated_at: at })
          .onConflict((conflict) => conflict.columns(['order_id', 'step']).doNothing())
          .execute();
      }
    },

    async markIssued(orderId, certificateExpiresAt) {
      const at = iso();
      await db.transaction().execute(async (trx) => {
        for (const step of VALIDATION_STEPS) {
          await trx
            .insertInto('order_validation_steps')
            .values({ order_id: orderId, step, state: 'done', note: null, updated_at: at })
            .onConflict((conflict) => conflict.columns(['order_id', 'step']).doUpdateSet({ state: 'done', updated_at: at }))
            .execute();
        }
        await trx.updateTable('orders').set({ issued_at: at, certificate_expires_at: certificateExpiresAt, updated_at: at }).where('id', '=', orderId).execute();
      });
    },

    async dueRenewalReminders() {
      const at = now();
      const horizon = iso(at + Math.max(...REMINDER_DAYS) * DAY);
      const rows = await db
        .selectFrom('orders')
        .selectAll()
        .where('current_period_end', '>', iso(at))
        .where('current_period_end', '<=', horizon)
        .where('billing_interval', '=', 'year')
        .where('ended_at', 'is', null)
        .execute();
      const due: DueReminder[] = [];
      for (const row of rows) {
        const status = orderStatus(row, at);
        if (status !== 'active' && status !== 'expiring') continue;
        const periodEnd = row.current_period_end as string;
        const left = Date.parse(periodEnd) - at;
        // The nearest reminder whose day has come: 7 days ahead replaces a 30-day one never sent.
        const daysAhead = [...REMINDER_DAYS].sort((a, b) => a - b).find((days) => left <= days * DAY);
        if (daysAhead === undefined) continue;
        const sent = await db
          .selectFrom('renewal_reminders')
          .select('order_id')
          .where('order_id', '=', row.id)
          .where('days_ahead', '=', daysAhead)
          .where('period_end', '=', periodEnd)
          .executeTakeFirst();
        if (!sent) due.push({ orderId: row.id, userId: row.user_id, daysAhead, periodEnd });
      }
      return due;
    },

    async claimReminder(reminder) {
      const claimed = await db
        .insertInto('renewal_reminders')
        .values({ order_id: reminder.orderId, days_ahead: reminder.daysAhead, period_end: reminder.periodEnd, sent_at: iso() })
        .onConflict((conflict) => conflict.columns(['order_id', 'days_ahead', 'period_end']).doNothing())
        .returning('order_id')
        .executeTakeFirst();
      return claimed !== undefined;
    },

    async releaseReminder(reminder) {
      await db.deleteFrom('renewal_reminders').where('order_id', '=', reminder.orderId).where('days_ahead', '=', reminder.daysAhead).where('period_end', '=', reminder.periodEnd).execute();
    },

    async row(orderId) {
      return db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
    },
  };
}

type StepRow = Selectable<StoreDatabase['order_validation_steps']>;

/** A stored transaction as the account area shows it. */
export function transactionView(row: TransactionRow, orders: { id: string; number: number; label?: string }[]): TransactionView {
  const single = orders.length === 1 ? orders[0] : undefined;
  return {
    id: row.id,
    date: row.date,
    orderId: single?.id ?? null,
    orderNumber: orders.length > 0 ? orders.map((order) => orderNumber(order.number)).join(', ') : null,
    orders: orders.map((order) => ({ id: order.id, number: orderNumber(order.number), label: order.label ?? orderNumber(order.number) })),
    description: row.description,
    kind: row.kind,
    status: row.status,
    amount: row.amount,
    currency: 'usd',
    receiptUrl: row.status === 'paid' || row.status === 'refunded' ? `/api/account/billing/transactions/${row.id}/receipt` : null,
    hostedUrl: row.hosted_url,
  };
}

export function isValidationStep(value: string): value is ValidationStep {
  return (VALIDATION_STEPS as readonly string[]).includes(value);
}

declare module 'fastify' {
  interface FastifyInstance {
    orders: Orders;
  }
}

export default fp(
  async function orders(fastify) {
    // Effects (mail, fulfilment) are wired by the order-notifications plugin once the mailer and
    // fulfilment exist; until then they are dropped on purpose (nothing registered listens).
    const listeners: ((effects: OrderEffect[]) => Promise<void>)[] = [];
    const wakers: (() => void)[] = [];
    const repository = createOrders(fastify.db, {
      now: fastify.now,
      onEffectsRecorded: () => {
        for (const wake of wakers) wake();
      },
      providerName: () => (fastify as unknown as { payments?: { provider?: { name?: PaymentProviderName } } }).payments?.provider?.name,
      onEffects: async (effects) => {
        for (const listener of listeners) await listener(effects);
      },
    });
    fastify.decorate('orders', repository);
    fastify.decorate('onOrderEffects', (listener: (effects: OrderEffect[]) => Promise<void>, wake?: () => void) => {
      listeners.push(listener);
      if (wake) wakers.push(wake);
    });
  },
  { name: 'orders', dependencies: ['db', 'clock'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Subscribes to effects to run at once (stored details), and to the news that an applied
     * event's effects were recorded for the sender (`wake`).
     */
    onOrderEffects(listener: (effects: OrderEffect[]) => Promise<void>, wake?: () => void): void;
  }
}
