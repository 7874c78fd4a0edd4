import type { PartnerSignUpRequest } from '@bimi/contracts/partners';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { StoreDatabase } from '../../../db/schema';
import { newId } from '../../../lib/tokens';
import { iso } from '../../../lib/iso';

export interface PartnerApplications {
  /** Stores an application to the partner programme for the partner team's review. */
  record(application: PartnerSignUpRequest): Promise<void>;
}

export function createPartnerApplications(db: Kysely<StoreDatabase>, now: () => number): PartnerApplications {
  return {
    async record({ company, website, contactName, email, phone, message }) {
      await db
        .insertInto('partner_applications')
        .values({
          id: newId(),
          company,
          // The form takes "example.com" as well as a full address.
          website: /^https?:\/\//i.test(website) ? website : `https://${website}`,
          contact_name: contactName,
          email,
          phone: phone || null,
          message: message || null,
          status: 'pending',
          created_at: iso(now()),
        })
        .execute();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    partnerApplications: PartnerApplications;
  }
}

export default fp(
  async function partnerApplications(fastify) {
    fastify.decorate('partnerApplications', createPartnerApplications(fastify.db, fastify.now));
  },
  { name: 'partner-applications', dependencies: ['db', 'clock'] },
);
