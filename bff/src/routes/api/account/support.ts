import { randomBytes } from 'node:crypto';
import { Ticket, TicketCreate, TicketList } from '@bimi/contracts/account';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SupportTicketsTable } from '../../../db/schema';
import { isUniqueViolation } from '../../../lib/http-error';
import { newId } from '../../../lib/tokens';
import { currentUser } from './current-user';

function toTicket(row: SupportTicketsTable): Ticket {
  return { id: row.id, reference: row.reference, category: row.category, subject: row.subject, message: row.message, status: row.status, createdAt: row.created_at };
}

/** A reference short enough to read out on the phone: T- and six hex digits. */
function newReference(): string {
  return `T-${randomBytes(3).toString('hex').toUpperCase()}`;
}

/** Support tickets: the form on /account/support and the list of the user's own tickets. */
const support: FastifyPluginAsyncZod = async (fastify) => {
  fastify.get('/api/account/support/tickets', { schema: { response: { 200: TicketList } } }, async (request) => {
    const rows = await fastify.db.selectFrom('support_tickets').selectAll().where('user_id', '=', currentUser(request).id).orderBy('created_at', 'desc').execute();
    return { tickets: rows.map(toTicket) };
  });

  fastify.post(
    '/api/account/support/tickets',
    { schema: { body: TicketCreate, response: { 201: Ticket } }, config: { rateLimit: { max: 20, timeWindow: '1 hour' } } },
    async (request, reply) => {
      const user = currentUser(request);
      for (let attempt = 0; ; attempt++) {
        const row: SupportTicketsTable = {
          id: newId(),
          user_id: user.id,
          reference: newReference(),
          ...request.body,
          status: 'open',
          created_at: new Date(fastify.now()).toISOString(),
        };
        try {
          await fastify.db.insertInto('support_tickets').values(row).execute();
          request.log.info({ reference: row.reference, userId: user.id }, 'support ticket opened');
          return reply.code(201).send(toTicket(row));
        } catch (error) {
          // A reference already given out: draw another.
          if (!isUniqueViolation(error) || attempt >= 4) throw error;
        }
      }
    },
  );
};

export default support;
