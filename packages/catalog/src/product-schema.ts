import * as z from 'zod/mini';
import { AGENCY_LEVEL_OPTIONS, PLAN_KEYS, PRODUCT_IDS, PRODUCT_TYPES, TRADEMARK_STATUS_OPTIONS } from './products';

/** The catalog's schemas: a product id in a request, the products' own shape (checked in the tests). */
export const ProductId = z.enum(PRODUCT_IDS);

const cents = z.int().check(z.minimum(0));

export const SubscriptionOption = z.object({
  /** Price of the whole plan term for one domain, in cents. */
  amount: cents,
  label: z.string(),
  period: z.enum(['year', 'month']),
  /** What the plan saves against the list price (base × years) for one domain, in cents. */
  savings: cents,
  /** The card payment provider's recurring price and product identifiers, from public configuration (absent until configured). */
  priceId: z.optional(z.string()),
  productId: z.optional(z.string()),
});
export type SubscriptionOption = z.infer<typeof SubscriptionOption>;

export const Product = z.object({
  id: ProductId,
  name: z.string(),
  title: z.string(),
  abbreviation: z.string(),
  type: z.enum(PRODUCT_TYPES),
  /** The certificate authority's product name and ordering endpoint; null for products it does not issue. */
  digiCertType: z.nullable(z.string()),
  digiCertEndpoint: z.nullable(z.string()),
  /** Price of the first domain for one year before discount, in cents. */
  basePricePerDomain: cents,
  /** Price of each further domain for one year before discount, in cents. */
  additionalDomainPrice: cents,
  /** Whole percentages taken off the first domain and off each further (SAN) domain. */
  discountOffBase: z.int().check(z.minimum(0), z.maximum(100)),
  discountOffSAN: z.int().check(z.minimum(0), z.maximum(100)),
  billingPeriod: z.enum(['year', 'month', 'once']),
  /** List price for one billing period, in cents. */
  msrp: cents,
  /** Price of an n-year plan as hundredths of one year's price (190 = ×1.9), so prices stay in whole cents. */
  yearMultipliers: z.record(z.enum(PLAN_KEYS), z.int()),
  subscriptionOptions: z.optional(z.record(z.enum(PLAN_KEYS), SubscriptionOption)),
  features: z.array(z.string()),
  trademarkStatusOptions: z.array(z.enum(TRADEMARK_STATUS_OPTIONS)),
  agencyLevelOptions: z.array(z.enum(AGENCY_LEVEL_OPTIONS)),
});
export type Product = z.infer<typeof Product>;
