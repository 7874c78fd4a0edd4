import { SITE_API_PATHS } from '@bimi/contracts/api-paths';
import { NewsletterEmail, NewsletterSubscribeQuery, type NewsletterResult } from '@bimi/contracts/newsletter';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const SUBSCRIBED: NewsletterResult = { result: 'success', msg: 'Thanks for joining our newsletter!' };

/**
 * The bff's own mailing list, answering the way an external provider does: a script calling the
 * page's callback (JSONP). A bad email still answers 200, because a browser does not run a script
 * sent with an error status and the form would hear nothing; only a bad callback, which leaves
 * nothing to call, is a 400.
 */
const newsletter: FastifyPluginAsyncZod = async (fastify) => {
  fastify.get(
    SITE_API_PATHS.newsletterSubscribe,
    {
      schema: { querystring: z.object({ c: NewsletterSubscribeQuery.shape.c, email: z.unknown().optional() }) },
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const { c: callback, email } = request.query;
      const parsed = NewsletterEmail.safeParse(email);
      let answer: NewsletterResult;
      if (parsed.success) {
        await fastify.newsletterSubscribers.subscribe(parsed.data);
        answer = SUBSCRIBED;
      } else {
        answer = { result: 'error', msg: parsed.error.issues[0]?.message ?? 'Enter a valid email address' };
      }
      return reply
        .header('cache-control', 'no-store')
        .type('application/javascript; charset=utf-8')
        .send(`${callback}(${JSON.stringify(answer)})`);
    },
  );
};

export default newsletter;
