import * as z from 'zod/mini';
import { lengthLimit } from './length-limit';

/** POST /api/analytics/pageview: sent on every client-side navigation, whatever the consent. */
export const PageViewBeacon = z.object({
  path: z.string().check(z.minLength(1), lengthLimit(2048), z.startsWith('/')),
  referrer: z.optional(z.string().check(lengthLimit(2048))),
  title: z.optional(z.string().check(lengthLimit(300))),
});
export type PageViewBeacon = z.infer<typeof PageViewBeacon>;

/** POST /api/client-errors: a remote that failed to load or threw while rendering. */
export const ClientErrorReport = z.object({
  kind: z.enum(['remote-load', 'remote-render', 'shell']),
  remote: z.optional(z.string().check(lengthLimit(64))),
  message: z.string().check(lengthLimit(2000)),
  path: z.optional(z.string().check(lengthLimit(2048))),
  stack: z.optional(z.string().check(lengthLimit(8000))),
});
export type ClientErrorReport = z.infer<typeof ClientErrorReport>;
