import type { Kysely, Migration } from 'kysely';

/**
 * What a checkout's payment page was opened for: the cart ('cart', whose success page empties the
 * cart) or one order from its page ('order', whose success page leaves the cart alone). An order's
 * Pay goes back to an open page only when it was opened for that order: a one-line cart's page,
 * paid from the order, sent the buyer to the cart's success page, which emptied a cart holding
 * lines added since (the review of 2026-11-28). Checkouts made before are the cart's.
 */
export const checkoutOpenedFor: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('checkouts')
      .addColumn('opened_for', 'varchar(8)', (column) => column.notNull().defaultTo('cart'))
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('checkouts').dropColumn('opened_for').execute();
  },
};
