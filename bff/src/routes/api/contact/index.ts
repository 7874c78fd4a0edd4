import { ContactReceipt, ContactRequest } from '@bimi/contracts/contact';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** POST /api/contact: the /contact form. The body is checked with the same schema the form uses. */
const contact: FastifyPluginAsyncZod = async (fastify) => {
  fastify.post(
    '/',
    {
      schema: { body: ContactRequest, response: { 201: ContactReceipt } },
      // A person writes a handful of messages; more from one address is a script filling the table.
      config: { rateLimit: { max: 5, timeWindow: '10 minutes' } },
      bodyLimit: 32 * 1024,
    },
    async (request, reply) => {
      const { reference } = await fastify.contactMessages.record(request.body);
      request.log.info({ reference, topic: request.body.topic }, 'contact message stored');
      return reply.code(201).send({ reference, message: `Thanks, ${request.body.name}. We have your message (reference ${reference}) and will answer by email within one business day.` });
    },
  );
};

export default contact;
