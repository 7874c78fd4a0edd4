import * as z from 'zod/mini';

/**
 * GET /api/public-config, also embedded in the shell's index.html: the settings the browser may
 * see. Never put a secret here.
 */
export const PublicConfig = z.object({
  /** Where the newsletter form subscribes, in cross-domain script style (JSONP): the mailing-list provider or the bff's own endpoint. */
  newsletterUrl: z.string().check(z.minLength(1)),
  /** The tag manager container (GTM-…), loaded only after cookie consent; null when none is configured. */
  tagManagerId: z.nullable(z.string()),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
