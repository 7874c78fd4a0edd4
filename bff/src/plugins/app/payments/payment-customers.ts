import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { PaymentProviderName, StoreDatabase } from '../../../db/schema';
import type { PaymentUser } from '../../../services/payments/provider';
import { iso } from '../../../lib/iso';

export interface PaymentCustomers {
  /**
   * The user's customer at the provider: the stored one, or one `create` makes, stored once. Two
   * checkouts racing each create one; the first stored wins and both use it.
   */
  findOrCreate(user: PaymentUser, create: (user: PaymentUser) => Promise<string>, provider?: PaymentProviderName): Promise<string>;
  /** The stored customer, without creating one. */
  find(userId: string, provider?: PaymentProviderName): Promise<string | undefined>;
  /** Whose customer `customerRef` is. */
  userOf(customerRef: string, provider?: PaymentProviderName): Promise<string | undefined>;
}

export function createPaymentCustomers(db: Kysely<StoreDatabase>, options: { now: () => number; providerName: () => PaymentProviderName }): PaymentCustomers {
  const find = async (userId: string, provider = options.providerName()) =>
    (await db.selectFrom('payment_customers').select('customer_ref').where('user_id', '=', userId).where('provider', '=', provider).executeTakeFirst())?.customer_ref;
  return {
    find,
    async findOrCreate(user, create, provider = options.providerName()) {
      const known = await find(user.id, provider);
      if (known) return known;
      const customerRef = await create(user);
      await db
        .insertInto('payment_customers')
        .values({ user_id: user.id, provider, customer_ref: customerRef, created_at: iso(options.now()) })
        .onConflict((conflict) => conflict.columns(['user_id', 'provider']).doNothing())
        .execute();
      return (await find(user.id, provider)) ?? customerRef;
    },
    async userOf(customerRef, provider = options.providerName()) {
      const row = await db.selectFrom('payment_customers').select('user_id').where('provider', '=', provider).where('customer_ref', '=', customerRef).executeTakeFirst();
      return row?.user_id;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    paymentCustomers: PaymentCustomers;
  }
}

export default fp(
  async function paymentCustomers(fastify) {
    fastify.decorate(
      'paymentCustomers',
      createPaymentCustomers(fastify.db, {
        now: fastify.now,
        // Read at call time: the payments plugin, which knows the provider, registers later.
        providerName: () => (fastify as unknown as { payments?: { provider?: { name?: PaymentProviderName } } }).payments?.provider?.name ?? 'test',
      }),
    );
  },
  { name: 'payment-customers', dependencies: ['db', 'clock'] },
);
