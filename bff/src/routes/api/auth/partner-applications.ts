import { AcceptedAnswer, AUTH_PATHS } from '@bimi/contracts/auth';
import { PartnerSignUpRequest } from '@bimi/contracts/partners';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refusedInOurWords } from '../../../plugins/external/rate-limit';

/** Applications to the partner programme, stored for the partner team's review. */
const partnerApplications: FastifyPluginAsyncZod = async (fastify) => {
  fastify.post(
    AUTH_PATHS.partnerSignUp,
    { schema: { body: PartnerSignUpRequest, response: { 201: AcceptedAnswer } }, config: { rateLimit: { max: 5, timeWindow: '1 hour', errorResponseBuilder: refusedInOurWords } } },
    async (request, reply) => {
      await fastify.partnerApplications.record(request.body);
      return reply.code(201).send({ message: 'Thank you. Our partner team will review your application and reply by email.' });
    },
  );
};

export default partnerApplications;
