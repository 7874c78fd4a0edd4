import { randomBytes } from 'node:crypto';
import type { Ticket, TicketCreate } from '@bimi/contracts/account';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { StoreDatabase, SupportTicketsTable } from '../../../db/schema';
import { isUniqueViolation } from '../platform/db';
import { newId } from '../../../lib/tokens';
import { iso } from '../../../lib/iso';

export interface SupportTickets {
  /** The user's own tickets, newest first. */
  list(userId: string): Promise<Ticket[]>;
  /** Opens a ticket under a new reference. */
  open(userId: string, ticket: TicketCreate): Promise<Ticket>;
}

function toTicket(row: SupportTicketsTable): Ticket {
  return { id: row.id, reference: row.reference, category: row.category, subject: row.subject, message: row.message, status: row.status, createdAt: row.created_at };
}

/** A reference short enough to read out on the phone: T- and six hex digits. */
function newReference(): string {
  return `T-${randomBytes(3).toString('hex').toUpperCase()}`;
}

export function createSupportTickets(db: Kysely<StoreDatabase>, now: () => number): SupportTickets {
  return {
    async list(userId) {
      const rows = await db.selectFrom('support_tickets').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').execute();
      return rows.map(toTicket);
    },

    async open(userId, ticket) {
      for (let attempt = 0; ; attempt++) {
        const row: SupportTicketsTable = { id: newId(), user_id: userId, reference: newReference(), ...ticket, status: 'open', created_at: iso(now()) };
        try {
          await db.insertInto('support_tickets').values(row).execute();
          return toTicket(row);
        } catch (error) {
          // A reference already given out: draw another.
          if (!isUniqueViolation(error) || attempt >= 4) throw error;
        }
      }
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    supportTickets: SupportTickets;
  }
}

export default fp(
  async function supportTickets(fastify) {
    fastify.decorate('supportTickets', createSupportTickets(fastify.db, fastify.now));
  },
  { name: 'support-tickets', dependencies: ['db', 'clock'] },
);
