import { z } from 'zod';

/** POST /api/analytics/pageview: sent on every client-side navigation, whatever the consent. */
export const PageViewBeacon = z.object({
  path: z.string().min(1).max(2048).startsWith('/'),
  referrer: z.string().max(2048).optional(),
  title: z.string().max(300).optional(),
});
export type PageViewBeacon = z.infer<typeof PageViewBeacon>;

/** POST /api/client-errors: a remote that failed to load or threw while rendering. */
export const ClientErrorReport = z.object({
  kind: z.enum(['remote-load', 'remote-render', 'shell']),
  remote: z.string().max(64).optional(),
  message: z.string().max(2000),
  path: z.string().max(2048).optional(),
  stack: z.string().max(8000).optional(),
});
export type ClientErrorReport = z.infer<typeof ClientErrorReport>;
