import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { iso } from '../../lib/iso';

const YEAR_MS = 366 * 86_400_000;

/**
 * GET and POST /dev/clock (DEV_CLOCK=true only, which production refuses): the store's time, and
 * moving it forward (the clock plugin's movableClock), so a browser flow can see a renewal date come near. Sessions go by the same
 * clock, so a flow signs in again after a long jump.
 */
const clock =
  (advance: (ms: number) => void): FastifyPluginAsyncZod =>
  async (fastify) => {
    const answer = () => ({ now: iso(fastify.now()) });
    fastify.get('/dev/clock', async (_request, reply) => reply.header('cache-control', 'no-store').send(answer()));
    fastify.post(
      '/dev/clock',
      {
        schema: {
          body: z.object({
            advanceMs: z
              .number()
              .int()
              .min(0)
              .max(5 * YEAR_MS),
          }),
        },
        config: { csrf: 'origin' },
      },
      async (request) => {
        advance(request.body.advanceMs);
        request.log.warn({ advanceMs: request.body.advanceMs }, 'the store clock was moved forward');
        return answer();
      },
    );
  };

export default clock;
