import { Contact, ContactInput, ContactList, RecordId, type ContactInput as ContactFields } from '@bimi/contracts/account';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ContactsTable } from '../../../db/schema';
import { HttpError } from '../../../lib/http-error';
import { newId } from '../../../lib/tokens';
import { currentUser } from './current-user';

const ContactParams = z.object({ id: RecordId });
const NOT_FOUND = 'Contact not found';

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

function columns(input: ContactFields) {
  return { kind: input.kind, name: input.name, email: input.email, phone: input.phone || null, job_title: input.jobTitle || null, company: input.company || null };
}

/** The technical, billing and legal contacts used for certificate validation; each user sees only their own. */
const contacts: FastifyPluginAsyncZod = async (fastify) => {
  const iso = () => new Date(fastify.now()).toISOString();

  async function ownContact(userId: string, id: string): Promise<ContactsTable> {
    const row = await fastify.db.selectFrom('contacts').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw new HttpError(404, NOT_FOUND);
    return row;
  }

  fastify.get('/api/account/contacts', { schema: { response: { 200: ContactList } } }, async (request) => {
    const rows = await fastify.db.selectFrom('contacts').selectAll().where('user_id', '=', currentUser(request).id).orderBy('kind').orderBy('created_at').execute();
    return { contacts: rows.map(toContact) };
  });

  fastify.post('/api/account/contacts', { schema: { body: ContactInput, response: { 201: Contact } } }, async (request, reply) => {
    const user = currentUser(request);
    const id = newId();
    await fastify.db
      .insertInto('contacts')
      .values({ id, user_id: user.id, ...columns(request.body), created_at: iso(), updated_at: iso() })
      .execute();
    return reply.code(201).send(toContact(await ownContact(user.id, id)));
  });

  fastify.put('/api/account/contacts/:id', { schema: { params: ContactParams, body: ContactInput, response: { 200: Contact } } }, async (request) => {
    const user = currentUser(request);
    await ownContact(user.id, request.params.id);
    await fastify.db
      .updateTable('contacts')
      .set({ ...columns(request.body), updated_at: iso() })
      .where('id', '=', request.params.id)
      .where('user_id', '=', user.id)
      .execute();
    return toContact(await ownContact(user.id, request.params.id));
  });

  fastify.delete('/api/account/contacts/:id', { schema: { params: ContactParams } }, async (request, reply) => {
    const user = currentUser(request);
    const result = await fastify.db.deleteFrom('contacts').where('id', '=', request.params.id).where('user_id', '=', user.id).executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) throw new HttpError(404, NOT_FOUND);
    return reply.code(204).send();
  });
};

export default contacts;
