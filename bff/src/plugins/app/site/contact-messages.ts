import type { ContactRequest } from '@bimi/contracts/contact';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { StoreDatabase } from '../../../db/schema';

export interface ContactMessages {
  /** Stores one message from the contact form and gives back its reference for the visitor. */
  record(message: ContactRequest): Promise<{ reference: string }>;
}

/** "C-000042": short enough to read out on a call, and it says which table to look in. */
export function contactReference(id: number): string {
  return `C-${String(id).padStart(6, '0')}`;
}

export function createContactMessages(db: Kysely<StoreDatabase>): ContactMessages {
  return {
    async record({ name, email, company, topic, message }) {
      const row = await db
        .insertInto('contact_messages')
        .values({ name, email, company: company ? company : null, topic, message })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { reference: contactReference(row.id) };
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    contactMessages: ContactMessages;
  }
}

export default fp(
  async function contactMessages(fastify) {
    fastify.decorate('contactMessages', createContactMessages(fastify.db));
  },
  { name: 'contact-messages', dependencies: ['db'] },
);
