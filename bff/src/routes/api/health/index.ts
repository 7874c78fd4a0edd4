import { HealthResponse, ReadinessResponse, type DependencyCheck } from '@bimi/contracts/health';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bffVersion } from '../../../version';

/** A dependency that does not answer within this long counts as failing: a balancer asks often. */
const CHECK_TIMEOUT_MS = 2_000;

/** Runs one check, failing it with the reason when it throws or takes longer than CHECK_TIMEOUT_MS. */
async function check(run: () => Promise<string>): Promise<DependencyCheck> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    return { status: 'ok', detail: await Promise.race([run(), timeout]) };
  } catch (error) {
    return { status: 'failing', detail: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

const health: FastifyPluginAsyncZod = async (fastify) => {
  // Alive: the process answers (a balancer's liveness probe restarts it otherwise).
  fastify.get('/', { schema: { response: { 200: HealthResponse } } }, async () => ({
    status: 'ok' as const,
    version: bffVersion,
    uptimeSeconds: Math.round(process.uptime()),
  }));

  // Ready: the database, Redis and the job queue answer. (While the process closes, Fastify answers
  // every request, this one too, with 503.)
  fastify.get('/ready', { schema: { response: { 200: ReadinessResponse, 503: ReadinessResponse } } }, async (_request, reply) => {
    const { redis, jobs: jobQueue } = fastify;
    const [database, redisCheck] = await Promise.all([
      check(() => fastify.databaseAnswers()),
      redis
        ? check(async () => {
            try {
              await redis.ping();
            } catch (error) {
              throw new Error(`Redis does not answer: ${error instanceof Error ? error.message : String(error)}`);
            }
            return 'Redis answers';
          })
        : Promise.resolve<DependencyCheck>({ status: 'not used', detail: 'sessions and rate-limit counters are in the database and in memory' }),
    ]);
    const queue = jobQueue.state();
    const jobs: DependencyCheck = { status: queue.running ? 'ok' : 'failing', detail: queue.detail };
    const ready = [database, redisCheck, jobs].every((dependency) => dependency.status !== 'failing');
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks: { database, redis: redisCheck, jobs } });
  });
};

export default health;
