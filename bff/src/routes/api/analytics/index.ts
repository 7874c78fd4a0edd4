import { SITE_API_PATHS } from '@bimi/contracts/api-paths';
import { PageViewBeacon } from '@bimi/contracts/telemetry';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BEACON_BODY_LIMIT, acceptBeaconBodies } from '../../../lib/beacon-body';

const analytics: FastifyPluginAsyncZod = async (fastify) => {
  acceptBeaconBodies(fastify);

  fastify.post(
    SITE_API_PATHS.pageView,
    {
      schema: { body: PageViewBeacon },
      bodyLimit: BEACON_BODY_LIMIT,
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      await fastify.telemetry.recordPageView(request.body);
      return reply.code(204).send();
    },
  );
};

export default analytics;
