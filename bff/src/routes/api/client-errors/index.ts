import { ClientErrorReport } from '@bimi/contracts/telemetry';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BEACON_BODY_LIMIT, acceptBeaconBodies } from '../../../lib/beacon-body';

const clientErrors: FastifyPluginAsyncZod = async (fastify) => {
  acceptBeaconBodies(fastify);

  fastify.post(
    '/',
    {
      schema: { body: ClientErrorReport },
      bodyLimit: BEACON_BODY_LIMIT,
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const report = request.body;
      request.log.warn({ clientError: { kind: report.kind, remote: report.remote, path: report.path } }, `client error: ${report.message}`);
      await fastify.telemetry.recordClientError(report);
      return reply.code(204).send();
    },
  );
};

export default clientErrors;
