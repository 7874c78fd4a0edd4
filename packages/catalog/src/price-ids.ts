import { type BillingPeriod, isPlanYears } from './prices';
import { type PlanKey, type PlanYears, type Product, type ProductId, type SubscriptionOption, DEFAULT_PLAN_YEARS, PLAN_YEARS, PRODUCTS, planKey } from './products';

/**
 * The card payment provider's recurring price and product identifiers come from public
 * environment settings (spec §9), read by the bff at run time and handed to the browser, so no
 * front end is rebuilt per environment. These are every name the store reads.
 *
 * Certificates: one price and one product per type and plan length, STRIPE_{VMC|CMC|GMC}_{1|2|3}_YEAR_PRICE
 * (spec §5; the modified registered mark uses the common mark's). DMARC: one price per plan and
 * billing period, with volume tiers per thousand emails (the item's stripeQuantity).
 */
export const CERTIFICATE_TYPE_PREFIXES = ['VMC', 'CMC', 'GMC'] as const;
export type CertificateTypePrefix = (typeof CERTIFICATE_TYPE_PREFIXES)[number];

const TYPE_PREFIX: Record<ProductId, string | null> = {
  'verified-mark-certificate': 'VMC',
  'common-mark-certificate': 'CMC',
  'modified-registered-mark': 'CMC',
  'government-mark-certificate': 'GMC',
  'dmarc-plus': 'DMARC_PLUS',
  'dmarc-premium': 'DMARC_PREMIUM',
  'stripe-test-product': 'TEST',
  // Free: nothing is charged, so it has no price identifier.
  'bimi-checker': null,
};

function certificatePriceSettingName(prefix: string, years: number): string {
  return `STRIPE_${prefix}_${years}_YEAR_PRICE`;
}

function certificateProductSettingName(prefix: string, years: number): string {
  return `STRIPE_${prefix}_${years}_YEAR_PRODUCT`;
}

function dmarcPriceSettingName(prefix: string, billingPeriod: BillingPeriod): string {
  return `STRIPE_${prefix}_${billingPeriod.toUpperCase()}_PRICE`;
}

export type PriceSettingName =
  | `STRIPE_${CertificateTypePrefix}_${PlanYears}_YEAR_${'PRICE' | 'PRODUCT'}`
  | `STRIPE_${'DMARC_PLUS' | 'DMARC_PREMIUM'}_${'MONTHLY_PRICE' | 'ANNUAL_PRICE' | 'PRODUCT'}`
  | 'STRIPE_TEST_PRICE'
  | 'STRIPE_TEST_PRODUCT';

export const PRICE_SETTING_NAMES: readonly PriceSettingName[] = [
  ...CERTIFICATE_TYPE_PREFIXES.flatMap((prefix) => PLAN_YEARS.flatMap((years) => [`STRIPE_${prefix}_${years}_YEAR_PRICE`, `STRIPE_${prefix}_${years}_YEAR_PRODUCT`] as const)),
  ...(['DMARC_PLUS', 'DMARC_PREMIUM'] as const).flatMap((prefix) => [`STRIPE_${prefix}_MONTHLY_PRICE`, `STRIPE_${prefix}_ANNUAL_PRICE`, `STRIPE_${prefix}_PRODUCT`] as const),
  'STRIPE_TEST_PRICE',
  'STRIPE_TEST_PRODUCT',
];

/** What a configured identifier may look like (`price_1Q…`, `prod_…`): it is embedded in the page, so nothing else passes. */
export const PAYMENT_IDENTIFIER_PATTERN = /^[A-Za-z0-9_]{1,255}$/;

/** The identifiers that are configured, by setting name (unset names are left out). */
export type PriceSettings = Readonly<Record<string, string | undefined>>;

/** What resolvePriceId reports through; the bff passes its logger, the browser the console. */
export interface PriceIdLogger {
  error(message: string): void;
}

/** Spec §5: a certificate's identifier must name its type; the modified registered mark uses the common mark's. */
const REQUIRED_MARKER: Partial<Record<ProductId, string>> = {
  'verified-mark-certificate': 'vmc',
  'common-mark-certificate': 'cmc',
  'modified-registered-mark': 'cmc',
  'government-mark-certificate': 'gmc',
};

/** The part of a cart item (or quote line) the price-identifier rules read. */
export interface PriceIdSubject {
  /** The catalog product (verified-mark-certificate …). */
  id: ProductId;
  priceId?: string | null;
  subscriptionOptions?: Partial<Record<PlanKey, Pick<SubscriptionOption, 'priceId'>>>;
  options?: { year?: number };
  billingPeriod?: BillingPeriod;
}

function configuredPriceId(subject: PriceIdSubject, years: number, settings: PriceSettings): { name: string | null; value: string | undefined } {
  const prefix = TYPE_PREFIX[subject.id];
  if (!prefix) return { name: null, value: undefined };
  const type = PRODUCTS[subject.id].type;
  const name =
    type === 'certificate' ? certificatePriceSettingName(prefix, years) : type === 'dmarc' ? dmarcPriceSettingName(prefix, subject.billingPeriod ?? 'monthly') : `STRIPE_${prefix}_PRICE`;
  return { name, value: settings[name] || undefined };
}

/**
 * Spec §5: the price identifier to charge an item with. The one on the item, then the one in
 * its subscriptionOptions for the chosen year (default 1), then the configured
 * STRIPE_{type prefix}_{years}_YEAR_PRICE. A certificate identifier that does not name its type
 * (vmc, cmc, gmc; any case) is logged as an error and replaced from configuration. When nothing
 * is found an error is logged and the answer is undefined. Both logs are console-only (§8).
 */
export function resolvePriceId(subject: PriceIdSubject, settings: PriceSettings, logger: PriceIdLogger = console): string | undefined {
  const years = subject.options?.year ?? DEFAULT_PLAN_YEARS;
  if (!isPlanYears(years)) {
    logger.error(`[price-id] ${subject.id}: year ${years} is outside 1 to 3, so no price identifier can be chosen`);
    return undefined;
  }
  const candidate = subject.priceId || subject.subscriptionOptions?.[planKey(years)]?.priceId || undefined;
  const marker = REQUIRED_MARKER[subject.id];
  if (candidate && (!marker || candidate.toLowerCase().includes(marker))) return candidate;
  if (candidate && marker) {
    logger.error(`[price-id] ${subject.id}: price identifier ${candidate} does not contain "${marker}"; using the configured one instead`);
  }
  const configured = configuredPriceId(subject, years, settings);
  if (configured.value) return configured.value;
  logger.error(
    configured.name ? `[price-id] ${subject.id}: no price identifier for ${years} year(s); set ${configured.name}` : `[price-id] ${subject.id}: this product has no price identifier`,
  );
  return undefined;
}

/** The card payment provider's product identifier for a product and plan length, when configured. */
export function resolveProductId(productId: ProductId, years: number, settings: PriceSettings): string | undefined {
  const prefix = TYPE_PREFIX[productId];
  if (!prefix) return undefined;
  const name = PRODUCTS[productId].type === 'certificate' ? certificateProductSettingName(prefix, years) : `STRIPE_${prefix}_PRODUCT`;
  return settings[name] || undefined;
}

/** A product with the configured price and product identifiers filled into its subscription options. */
export function productWithIdentifiers(product: Product, settings: PriceSettings): Product {
  if (!product.subscriptionOptions) return product;
  const prefix = TYPE_PREFIX[product.id];
  const subscriptionOptions = { ...product.subscriptionOptions };
  for (const years of PLAN_YEARS) {
    const key = planKey(years);
    const priceId = prefix ? settings[certificatePriceSettingName(prefix, years)] || undefined : undefined;
    const productId = resolveProductId(product.id, years, settings);
    subscriptionOptions[key] = { ...subscriptionOptions[key], ...(priceId && { priceId }), ...(productId && { productId }) };
  }
  return { ...product, subscriptionOptions };
}
