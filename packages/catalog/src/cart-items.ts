import * as z from 'zod/mini';
import { type PriceIdLogger, type PriceSettings, resolvePriceId, resolveProductId } from './price-ids';
import { BILLING_PERIODS, type BillingPeriod, certificateListCents, certificatePriceCents, dmarcOptionFor, MAX_LOGOS, MIN_LOGOS, PriceRuleError, RULE_MESSAGES } from './prices';
import {
  AGENCY_LEVEL_OPTIONS,
  type AgencyLevel,
  type CertificateId,
  DEFAULT_AGENCY_LEVEL,
  type DmarcProductId,
  PRODUCTS,
  type ProductId,
  TRADEMARK_STATUS_OPTIONS,
  type TrademarkStatus,
} from './products';
import { ProductId as ProductIdSchema } from './product-schema';

/** Spec §3: the letter that starts a certificate id (V, M, C, G; N for anything that is not a certificate). */
const CERT_ID_LETTER: Record<ProductId, string> = {
  'verified-mark-certificate': 'V',
  'modified-registered-mark': 'M',
  'common-mark-certificate': 'C',
  'government-mark-certificate': 'G',
  'dmarc-plus': 'N',
  'dmarc-premium': 'N',
  'bimi-checker': 'N',
  'stripe-test-product': 'N',
};

export const CMC_TYPES = ['Prior Use Mark', 'Modified Registered Mark'] as const;
export type CmcType = (typeof CMC_TYPES)[number];

/** Spec §3: Prior Use Mark for common, Modified Registered Mark for modified, otherwise none. */
export function cmcTypeFor(productId: ProductId): CmcType | null {
  if (productId === 'common-mark-certificate') return 'Prior Use Mark';
  if (productId === 'modified-registered-mark') return 'Modified Registered Mark';
  return null;
}

/** Fills a buffer with random bytes; injected so tests can pin the output. */
export type RandomBytes = (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>;
const cryptoRandom: RandomBytes = (bytes) => {
  globalThis.crypto.getRandomValues(bytes);
  return bytes;
};

/** Spec §3: the certificate's letter followed by 7 digits, e.g. V0423117. */
export function generateCertId(productId: ProductId, random: RandomBytes = cryptoRandom): string {
  const words = new Uint32Array(random(new Uint8Array(4)).buffer);
  return `${CERT_ID_LETTER[productId]}${String((words[0] ?? 0) % 10_000_000).padStart(7, '0')}`;
}

function generateUniqueId(productId: ProductId, random: RandomBytes): string {
  const hex = Array.from(random(new Uint8Array(8)), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${productId}-${hex}`;
}

const cents = z.int().check(z.minimum(0));

/** Spec §3: one line of the cart. Amounts are integer cents; `price` is one unit for the whole plan term. */
export const CartItem = z.object({
  uniqueId: z.string().check(z.minLength(1)),
  /** The catalog product (verified-mark-certificate …). */
  id: ProductIdSchema,
  name: z.string().check(z.minLength(1)),
  quantity: z.int().check(z.minimum(1)),
  price: cents,
  /** The list price the plan's discount is taken from (base × domains × years; the DMARC msrp). */
  basePrice: cents,
  options: z.object({
    domain: z.int().check(z.minimum(1)),
    year: z.int().check(z.minimum(1), z.maximum(3)),
    logo: z.int().check(z.minimum(1)),
  }),
  /** Spec §5: every item is a subscription. */
  isSubscription: z.literal(true),
  /** The card payment provider's price and product identifiers; null until configured. */
  priceId: z.nullable(z.string()),
  productId: z.nullable(z.string()),
  /** Which of the logos bought together this certificate is for (1-based), and how many there were. */
  logoIndex: z.int().check(z.minimum(1)),
  logoCount: z.int().check(z.minimum(1)),
  /**
   * The certificates configured together (one per logo) share it: the drawer's Edit reopens and
   * replaces the whole set. Carts stored before it existed have none (see certificateSet).
   */
  setId: z.optional(z.string().check(z.minLength(1), z.maxLength(100, { abort: true }))),
  certId: z.string().check(z.maxLength(8, { abort: true }), z.regex(/^[VMCGN]\d{7}$/)),
  cmcType: z.nullable(z.enum(CMC_TYPES)),
  /** The kind of page the item was added from (product, landing, enrollment …). */
  sourcePageType: z.string().check(z.minLength(1)),
  trademarkStatus: z.optional(z.enum(TRADEMARK_STATUS_OPTIONS)),
  agencyLevel: z.optional(z.enum(AGENCY_LEVEL_OPTIONS)),
  // DMARC plans only:
  emailVolume: z.optional(z.int()),
  /** Thousands of emails: the quantity charged against the plan's volume-tiered price. */
  stripeQuantity: z.optional(z.int().check(z.minimum(1))),
  monthlyPrice: z.optional(cents),
  annualPrice: z.optional(cents),
  msrp: z.optional(cents),
  dmarcProductId: z.optional(z.enum(['dmarc-plus', 'dmarc-premium'])),
  productType: z.optional(z.literal('dmarc')),
  billingPeriod: z.optional(z.enum(BILLING_PERIODS)),
});
export type CartItem = z.infer<typeof CartItem>;

export interface CertificateConfiguration {
  productId: CertificateId;
  domains: number;
  years: number;
  logos: number;
  trademarkStatus?: TrademarkStatus;
  agencyLevel?: AgencyLevel;
  sourcePageType: string;
}

export interface BuildContext {
  settings: PriceSettings;
  logger?: PriceIdLogger;
  random?: RandomBytes;
}

/**
 * Spec §9: a configured certificate as cart items, one per logo, each priced from the plan for
 * its domains and years. Throws a PriceRuleError naming the broken rule.
 */
export function certificateCartItems(config: CertificateConfiguration, { settings, logger, random = cryptoRandom }: BuildContext): CartItem[] {
  const product = PRODUCTS[config.productId];
  const price = certificatePriceCents(config);
  if (!Number.isInteger(config.logos) || config.logos < MIN_LOGOS || config.logos > MAX_LOGOS) throw new PriceRuleError(RULE_MESSAGES.logos);
  const basePrice = certificateListCents(config);
  const options = { domain: config.domains, year: config.years, logo: 1 };
  const priceId = resolvePriceId({ id: product.id, options }, settings, logger) ?? null;
  const agencyLevel = product.agencyLevelOptions.length > 0 ? (config.agencyLevel ?? DEFAULT_AGENCY_LEVEL) : undefined;
  const trademarkStatus = product.trademarkStatusOptions.length > 0 ? (config.trademarkStatus ?? 'Registered') : undefined;
  const setId = generateUniqueId(product.id, random);
  return Array.from({ length: config.logos }, (_, index) =>
    CartItem.parse({
      uniqueId: generateUniqueId(product.id, random),
      id: product.id,
      name: product.name,
      quantity: 1,
      price,
      basePrice,
      options: { ...options, logo: index + 1 },
      isSubscription: true,
      priceId,
      productId: resolveProductId(product.id, config.years, settings) ?? null,
      logoIndex: index + 1,
      logoCount: config.logos,
      setId,
      certId: generateCertId(product.id, random),
      cmcType: cmcTypeFor(product.id),
      sourcePageType: config.sourcePageType,
      ...(trademarkStatus && { trademarkStatus }),
      ...(agencyLevel && { agencyLevel }),
    }),
  );
}

export interface DmarcConfiguration {
  productId: DmarcProductId;
  emailVolume: number;
  billingPeriod: BillingPeriod;
  sourcePageType: string;
}

/** A DMARC plan as a cart item; throws "Unsupported email volume" or "No pricing option found for email volume". */
export function dmarcCartItem(config: DmarcConfiguration, { settings, logger, random = cryptoRandom }: BuildContext): CartItem {
  const product = PRODUCTS[config.productId];
  const option = dmarcOptionFor(config.productId, config.emailVolume);
  const price = config.billingPeriod === 'annual' ? option.annualPrice : option.price;
  const periodMsrp = config.billingPeriod === 'annual' ? option.msrp * 12 : option.msrp;
  return CartItem.parse({
    uniqueId: generateUniqueId(product.id, random),
    id: product.id,
    name: product.name,
    quantity: 1,
    price,
    basePrice: periodMsrp,
    options: { domain: 1, year: 1, logo: 1 },
    isSubscription: true,
    priceId: resolvePriceId({ id: product.id, billingPeriod: config.billingPeriod }, settings, logger) ?? null,
    productId: resolveProductId(product.id, 1, settings) ?? null,
    logoIndex: 1,
    logoCount: 1,
    certId: generateCertId(product.id, random),
    cmcType: null,
    sourcePageType: config.sourcePageType,
    emailVolume: option.emails,
    stripeQuantity: option.emails / 1000,
    monthlyPrice: option.price,
    annualPrice: option.annualPrice,
    msrp: option.msrp,
    dmarcProductId: config.productId,
    productType: 'dmarc',
    billingPeriod: config.billingPeriod,
  });
}

/** Whether two certificate lines came from one configuration, judged by their options (for lines stored without a setId). */
function sameConfiguration(a: CartItem, b: CartItem): boolean {
  return (
    a.id === b.id &&
    a.options.domain === b.options.domain &&
    a.options.year === b.options.year &&
    a.logoCount === b.logoCount &&
    a.trademarkStatus === b.trademarkStatus &&
    a.agencyLevel === b.agencyLevel
  );
}

/**
 * The certificates in `items` configured together with the line `uniqueId` (its logos), in cart
 * order: what the line's Edit shows (Logos = their number) and replaces. Lines share a setId since
 * it exists; a line stored without one is taken with its neighbours of the same configuration and
 * no setId, at most logoCount of them, each logo once. Empty when the line is not in `items`.
 */
export function certificateSet(items: readonly CartItem[], uniqueId: string): CartItem[] {
  const index = items.findIndex((item) => item.uniqueId === uniqueId);
  const line = items[index];
  if (!line) return [];
  if (line.setId !== undefined) return items.filter((item) => item.setId === line.setId);
  const fits = (item: CartItem | undefined, taken: Set<number>): item is CartItem =>
    item !== undefined && item.setId === undefined && sameConfiguration(item, line) && !taken.has(item.logoIndex) && taken.size < line.logoCount;
  const taken = new Set([line.logoIndex]);
  let first = index;
  while (fits(items[first - 1], taken)) taken.add((items[--first] as CartItem).logoIndex);
  let last = index;
  while (fits(items[last + 1], taken)) taken.add((items[++last] as CartItem).logoIndex);
  return items.slice(first, last + 1);
}
