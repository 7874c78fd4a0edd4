import * as z from 'zod/mini';

export const HealthResponse = z.object({
  status: z.literal('ok'),
  version: z.string(),
  uptimeSeconds: z.number(),
});

/** One dependency of the bff as the readiness check found it. */
export const DependencyCheck = z.object({
  status: z.enum(['ok', 'failing', 'not used']),
  detail: z.string(),
});
export type DependencyCheck = z.infer<typeof DependencyCheck>;

/**
 * GET /api/health/ready: whether this replica should get traffic. 200 when every dependency it
 * uses answers, 503 otherwise (and while it shuts down), so a load balancer takes it out.
 */
export const ReadinessResponse = z.object({
  status: z.enum(['ready', 'not ready']),
  checks: z.object({ database: DependencyCheck, redis: DependencyCheck, jobs: DependencyCheck }),
});
export type ReadinessResponse = z.infer<typeof ReadinessResponse>;
