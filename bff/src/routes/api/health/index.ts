import { HealthResponse } from '@bimi/contracts/health';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bffVersion } from '../../../version';

const health: FastifyPluginAsyncZod = async (fastify) => {
  fastify.get('/', { schema: { response: { 200: HealthResponse } } }, async () => ({
    status: 'ok' as const,
    version: bffVersion,
    uptimeSeconds: Math.round(process.uptime()),
  }));
};

export default health;
