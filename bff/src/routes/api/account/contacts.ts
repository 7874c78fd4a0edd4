import { ACCOUNT_PATHS, Contact, ContactInput, ContactList, RecordId } from '@bimi/contracts/account';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../../lib/http-error';
import { currentUser } from './current-user';
import { readableGet } from './readable';

const ContactParams = z.object({ id: RecordId });
const NOT_FOUND = 'Contact not found';

/** The technical, billing and legal contacts used for certificate validation; each user sees only their own. */
const contacts: FastifyPluginAsyncZod = async (fastify) => {
  readableGet(fastify, { url: ACCOUNT_PATHS.contacts, response: ContactList, read: async (user) => ({ contacts: await fastify.contacts.list(user.id) }) });

  fastify.post(ACCOUNT_PATHS.contacts, { schema: { body: ContactInput, response: { 201: Contact } } }, async (request, reply) =>
    reply.code(201).send(await fastify.contacts.create(currentUser(request).id, request.body)),
  );

  fastify.put(`${ACCOUNT_PATHS.contacts}/:id`, { schema: { params: ContactParams, body: ContactInput, response: { 200: Contact } } }, async (request) => {
    const contact = await fastify.contacts.update(currentUser(request).id, request.params.id, request.body);
    if (!contact) throw new HttpError(404, NOT_FOUND);
    return contact;
  });

  fastify.delete(`${ACCOUNT_PATHS.contacts}/:id`, { schema: { params: ContactParams } }, async (request, reply) => {
    if (!(await fastify.contacts.remove(currentUser(request).id, request.params.id))) throw new HttpError(404, NOT_FOUND);
    return reply.code(204).send();
  });
};

export default contacts;
