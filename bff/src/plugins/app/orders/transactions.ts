import { orderLabel } from '@bimi/catalog/labels';
import { CertificateDetails, type Transaction } from '@bimi/contracts/orders';
import fp from 'fastify-plugin';
import type { Kysely, Selectable } from 'kysely';
import type { StoreDatabase, TransactionLinesTable, TransactionsTable } from '../../../db/schema';
import { orderNumber, productName, transactionView } from '../../../services/orders/order-rows';

/** Transactions as the account pages show them, each with every order it paid (a checkout of several lines is one payment). */
export async function transactionViews(db: Kysely<StoreDatabase>, rows: Selectable<TransactionsTable>[]): Promise<Transaction[]> {
  if (rows.length === 0) return [];
  const lines = await db
    .selectFrom('transaction_lines')
    .innerJoin('orders', 'orders.id', 'transaction_lines.order_id')
    .select(['transaction_lines.transaction_id', 'orders.id', 'orders.number', 'orders.product_id', 'orders.description', 'orders.details'])
    .where(
      'transaction_lines.transaction_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('orders.number')
    .execute();
  return rows.map((row) =>
    transactionView(
      row,
      lines.filter((line) => line.transaction_id === row.id).map((line) => ({ id: line.id, number: line.number, label: labelOf(line, false) })),
    ),
  );
}

/** One transaction with what its receipt prints. */
export interface Receipt {
  transaction: Selectable<TransactionsTable>;
  lines: (Selectable<TransactionLinesTable> & { orderNumber: string })[];
}

export interface Transactions {
  /** The user's charges and refunds, newest first. */
  list(userId: string): Promise<Transaction[]>;
  /** One of the user's transactions for its receipt; undefined for another user's. */
  receipt(userId: string, transactionId: string): Promise<Receipt | undefined>;
  /** The receipts of transactions by id, in two queries (the mail sender's batch); each belongs to `transaction.user_id`. */
  receipts(transactionIds: readonly string[]): Promise<Map<string, Receipt>>;
}

/** The domains of an order's certificate details (JSON), when given. */
function domainsOf(details: string | null): string[] | null {
  if (!details) return null;
  try {
    const parsed = CertificateDetails.safeParse(JSON.parse(details));
    return parsed.success ? parsed.data.domains : null;
  } catch {
    return null;
  }
}

/** An order as a receipt line or a transaction names it: number, product, domains, configuration (its logo included). */
function labelOf(order: { number: number; product_id: string; description: string; details: string | null }, withNumber = true): string {
  return orderLabel({
    ...(withNumber && { number: orderNumber(order.number) }),
    productName: productName(order.product_id),
    description: order.description,
    domains: domainsOf(order.details),
  });
}

export function createTransactions(db: Kysely<StoreDatabase>): Transactions {
  async function receipts(transactionIds: readonly string[]): Promise<Map<string, Receipt>> {
    const ids = [...new Set(transactionIds)];
    if (ids.length === 0) return new Map();
    const transactions = await db.selectFrom('transactions').selectAll().where('id', 'in', ids).execute();
    if (transactions.length === 0) return new Map();
    const lines = await db
      .selectFrom('transaction_lines')
      .innerJoin('orders', 'orders.id', 'transaction_lines.order_id')
      .selectAll('transaction_lines')
      .select(['orders.number', 'orders.product_id', 'orders.description as order_description', 'orders.details'])
      .where(
        'transaction_lines.transaction_id',
        'in',
        transactions.map((transaction) => transaction.id),
      )
      .orderBy('orders.number')
      .execute();
    return new Map(
      transactions.map((transaction) => [
        transaction.id,
        {
          transaction,
          // Each line names its order (number, domains, logo) whatever the provider wrote on its invoice line.
          lines: lines
            .filter((line) => line.transaction_id === transaction.id)
            .map(({ number, product_id, order_description, details, ...line }) => ({
              ...line,
              description: labelOf({ number, product_id, description: order_description, details }),
              orderNumber: orderNumber(number),
            })),
        },
      ]),
    );
  }

  return {
    async list(userId) {
      const rows = await db.selectFrom('transactions').selectAll().where('user_id', '=', userId).orderBy('date', 'desc').orderBy('created_at', 'desc').execute();
      return transactionViews(db, rows);
    },

    async receipt(userId, transactionId) {
      const receipt = (await receipts([transactionId])).get(transactionId);
      return receipt?.transaction.user_id === userId ? receipt : undefined;
    },

    receipts,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    transactions: Transactions;
  }
}

export default fp(
  async function transactions(fastify) {
    fastify.decorate('transactions', createTransactions(fastify.db));
  },
  { name: 'transactions', dependencies: ['db'] },
);
