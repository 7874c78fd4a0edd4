import type { Contact, ContactInput } from '@bimi/contracts/account';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { ContactsTable, StoreDatabase } from '../../../db/schema';
import { newId } from '../../../lib/tokens';
import { iso } from '../../../lib/iso';

/** The technical, billing and legal contacts used for certificate validation; each user reaches only their own. */
export interface Contacts {
  list(userId: string): Promise<Contact[]>;
  create(userId: string, input: ContactInput): Promise<Contact>;
  /** The contact as updated; undefined when it is not the user's. */
  update(userId: string, id: string, input: ContactInput): Promise<Contact | undefined>;
  /** False when the contact is not the user's. */
  remove(userId: string, id: string): Promise<boolean>;
  /** Which of `ids` are the user's contacts. */
  ownedAmong(userId: string, ids: readonly string[]): Promise<string[]>;
}

function toContact(row: ContactsTable): Contact {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    email: row.email,
    phone: row.phone,
    jobTitle: row.job_title,
    company: row.company,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function columns(input: ContactInput) {
  return { kind: input.kind, name: input.name, email: input.email, phone: input.phone || null, job_title: input.jobTitle || null, company: input.company || null };
}

export function createContacts(db: Kysely<StoreDatabase>, now: () => number): Contacts {
  return {
    async list(userId) {
      const rows = await db.selectFrom('contacts').selectAll().where('user_id', '=', userId).orderBy('kind').orderBy('created_at').execute();
      return rows.map(toContact);
    },

    async create(userId, input) {
      const id = newId();
      const row = { id, user_id: userId, ...columns(input), created_at: iso(now()), updated_at: iso(now()) };
      await db.insertInto('contacts').values(row).execute();
      return toContact(row);
    },

    async update(userId, id, input) {
      const result = await db
        .updateTable('contacts')
        .set({ ...columns(input), updated_at: iso(now()) })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return undefined;
      return toContact(await db.selectFrom('contacts').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
    },

    async remove(userId, id) {
      const result = await db.deleteFrom('contacts').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async ownedAmong(userId, ids) {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom('contacts').select('id').where('user_id', '=', userId).where('id', 'in', ids).execute();
      return rows.map((row) => row.id);
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    contacts: Contacts;
  }
}

export default fp(
  async function contacts(fastify) {
    fastify.decorate('contacts', createContacts(fastify.db, fastify.now));
  },
  { name: 'contacts', dependencies: ['db', 'clock'] },
);
