import type { ClientErrorReport, PageViewBeacon } from '@bimi/contracts/telemetry';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { StoreDatabase } from '../../../db/schema';

export interface Telemetry {
  recordPageView(view: PageViewBeacon): Promise<void>;
  recordClientError(report: ClientErrorReport): Promise<void>;
}

export function createTelemetry(db: Kysely<StoreDatabase>): Telemetry {
  return {
    async recordPageView({ path, referrer, title }) {
      await db
        .insertInto('page_views')
        .values({ path, referrer: referrer ?? null, title: title ?? null })
        .execute();
    },
    async recordClientError({ kind, remote, message, path, stack }) {
      await db
        .insertInto('client_errors')
        .values({ kind, remote: remote ?? null, message, path: path ?? null, stack: stack ?? null })
        .execute();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    telemetry: Telemetry;
  }
}

export default fp(
  async function telemetry(fastify) {
    fastify.decorate('telemetry', createTelemetry(fastify.db));
  },
  { name: 'telemetry', dependencies: ['db'] },
);
