import * as z from 'zod/mini';

/** POST /api/analytics/pageview: sent on every client-side navigation, whatever the consent. */
export const PageViewBeacon = z.object({
  path: z.string().check(z.minLength(1), z.maxLength(2048), z.startsWith('/')),
  referrer: z.optional(z.string().check(z.maxLength(2048))),
  title: z.optional(z.string().check(z.maxLength(300))),
});
export type PageViewBeacon = z.infer<typeof PageViewBeacon>;

/** POST /api/client-errors: a remote that failed to load or threw while rendering. */
export const ClientErrorReport = z.object({
  kind: z.enum(['remote-load', 'remote-render', 'shell']),
  remote: z.optional(z.string().check(z.maxLength(64))),
  message: z.string().check(z.maxLength(2000)),
  path: z.optional(z.string().check(z.maxLength(2048))),
  stack: z.optional(z.string().check(z.maxLength(8000))),
});
export type ClientErrorReport = z.infer<typeof ClientErrorReport>;
