import { ACCOUNT_PATHS, Ticket, TicketCreate, TicketList } from '@bimi/contracts/account';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from './current-user';
import { readableGet } from './readable';

/** Support tickets: the form on /account/support and the list of the user's own tickets. */
const support: FastifyPluginAsyncZod = async (fastify) => {
  readableGet(fastify, { url: ACCOUNT_PATHS.supportTickets, response: TicketList, read: async (user) => ({ tickets: await fastify.supportTickets.list(user.id) }) });

  fastify.post(
    ACCOUNT_PATHS.supportTickets,
    { schema: { body: TicketCreate, response: { 201: Ticket } }, config: { rateLimit: { max: 20, timeWindow: '1 hour' } } },
    async (request, reply) => {
      const user = currentUser(request);
      const ticket = await fastify.supportTickets.open(user.id, request.body);
      request.log.info({ reference: ticket.reference, userId: user.id }, 'support ticket opened');
      return reply.code(201).send(ticket);
    },
  );
};

export default support;
