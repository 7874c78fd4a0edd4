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
  /**
   * The card payment provider's price and product identifiers by setting name
   * (STRIPE_VMC_1_YEAR_PRICE …, see @bimi/catalog/price-ids); only the configured ones. Read at
   * run time so no front end is rebuilt per environment.
   */
  priceSettings: z.record(z.string(), z.string()),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
