import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { StoreDatabase } from '../../../db/schema';

export interface NewsletterSubscribers {
  /** Stores the address once; a repeat subscription is not an error and adds nothing. */
  subscribe(email: string): Promise<'subscribed' | 'already-subscribed'>;
}

export function createNewsletterSubscribers(db: Kysely<StoreDatabase>): NewsletterSubscribers {
  return {
    async subscribe(email) {
      const result = await db
        .insertInto('newsletter_subscribers')
        .values({ email: email.toLowerCase() })
        .onConflict((conflict) => conflict.column('email').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0 ? 'subscribed' : 'already-subscribed';
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    newsletterSubscribers: NewsletterSubscribers;
  }
}

export default fp(
  async function newsletterSubscribers(fastify) {
    fastify.decorate('newsletterSubscribers', createNewsletterSubscribers(fastify.db));
  },
  { name: 'newsletter-subscribers', dependencies: ['db'] },
);
