import { type CertificateId, type DmarcProductId, type PlanYears, PLAN_YEARS, PRODUCTS, isCertificateId, isDmarcProductId, MAX_DOMAINS, MIN_DOMAINS, planKey } from './products';

/**
 * Spec §9 price rules. Every amount is an integer number of US cents; a function given input
 * the rules refuse throws a PriceRuleError whose message is the rule's wording.
 */
export class PriceRuleError extends Error {
  override name = 'PriceRuleError';
}

/** Spec §9: up to 250 domains per certificate (defined beside the products, whose features state it). */
export { MAX_DOMAINS, MIN_DOMAINS };
/**
 * Logos bought in one go (each becomes its own cart item). The spec sets no ceiling; ten keeps
 * a slip of the keyboard from filling the cart with hundreds of certificates.
 */
export const MIN_LOGOS = 1;
export const MAX_LOGOS = 10;

export const RULE_MESSAGES = {
  notACertificate: 'Not a certificate',
  notADmarcPlan: 'Not a DMARC plan',
  years: 'Years must be 1, 2 or 3',
  domains: `Domains must be a whole number from ${MIN_DOMAINS} to ${MAX_DOMAINS}`,
  logos: `Logos must be a whole number from ${MIN_LOGOS} to ${MAX_LOGOS}`,
  unsupportedEmailVolume: 'Unsupported email volume',
  noDmarcOption: 'No pricing option found for email volume',
  billingPeriod: 'Billing period must be monthly or annual',
} as const;

function wholeNumberIn(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}

export function isPlanYears(value: unknown): value is PlanYears {
  return typeof value === 'number' && (PLAN_YEARS as readonly number[]).includes(value);
}

function certificateOf(productId: string): CertificateId {
  if (!isCertificateId(productId)) throw new PriceRuleError(RULE_MESSAGES.notACertificate);
  return productId;
}

function checkedYears(years: number): PlanYears {
  if (!isPlanYears(years)) throw new PriceRuleError(RULE_MESSAGES.years);
  return years;
}

/** The price of a certificate's plan for one domain and the whole term: 1447.20, 2749.68 … in cents. */
export function certificatePlanCents(productId: string, years: number): number {
  return certificatePriceCents({ productId, domains: 1, years });
}

/** What a plan comes to per year for one domain, in cents rounded to the cent ("$1,326.60 a year on a three-year plan"). */
export function certificateYearlyCents(productId: string, years: number): number {
  return Math.round(certificatePlanCents(productId, years) / checkedYears(years));
}

/**
 * One certificate (one logo) for `domains` domains and `years` years, in cents: the first domain
 * at the base price and each further one at the additional-domain price, each less its discount,
 * times the plan's year multiplier. All factors are whole numbers, and with the §9 figures the
 * one division is exact; rounding only guards against a future price that is not.
 */
export function certificatePriceCents({ productId, domains, years }: { productId: string; domains: number; years: number }): number {
  const product = PRODUCTS[certificateOf(productId)];
  const multiplier = product.yearMultipliers[planKey(checkedYears(years))];
  if (!wholeNumberIn(domains, MIN_DOMAINS, MAX_DOMAINS)) throw new PriceRuleError(RULE_MESSAGES.domains);
  const oneYear = product.basePricePerDomain * (100 - product.discountOffBase) + (domains - 1) * product.additionalDomainPrice * (100 - product.discountOffSAN);
  return Math.round((oneYear * multiplier) / 10000);
}

/** Spec §9: plan amount × domains × logos; the whole purchase in cents (each logo is its own cart item at a 1/logos share). */
export function certificateSubscriptionCents({ productId, domains, years, logos }: { productId: string; domains: number; years: number; logos: number }): number {
  const oneLogo = certificatePriceCents({ productId, domains, years });
  if (!wholeNumberIn(logos, MIN_LOGOS, MAX_LOGOS)) throw new PriceRuleError(RULE_MESSAGES.logos);
  return oneLogo * logos;
}

/** The list price (base × domains × years) of one certificate, in cents: what the plan discount is taken from. */
export function certificateListCents({ productId, domains, years }: { productId: string; domains: number; years: number }): number {
  const product = PRODUCTS[certificateOf(productId)];
  if (!wholeNumberIn(domains, MIN_DOMAINS, MAX_DOMAINS)) throw new PriceRuleError(RULE_MESSAGES.domains);
  return (product.basePricePerDomain + (domains - 1) * product.additionalDomainPrice) * checkedYears(years);
}

/** What a plan saves against paying the list price every year, in cents, for one certificate. */
export function certificateSavingsCents(config: { productId: string; domains: number; years: number }): number {
  return certificateListCents(config) - certificatePriceCents(config);
}

/** Spec §5: the email volumes a DMARC plan can be bought for. */
export const DMARC_EMAIL_VOLUMES = [100_000, 500_000, 1_000_000, 5_000_000] as const;
export type DmarcEmailVolume = (typeof DMARC_EMAIL_VOLUMES)[number];

export const BILLING_PERIODS = ['monthly', 'annual'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

/** Spec §3: a DMARC option. Amounts in cents; an annual plan costs twelve monthly payments. */
export interface DmarcOption {
  emails: DmarcEmailVolume;
  /** Monthly price. */
  price: number;
  /** The spec names no list price above the monthly one, so the two are equal. */
  msrp: number;
  billingPeriod: 'month';
  annualPrice: number;
}

function option(emails: DmarcEmailVolume, price: number, annualPrice: number): DmarcOption {
  return { emails, price, msrp: price, billingPeriod: 'month', annualPrice };
}

/** Spec §9: the DMARC Plus and Premium price tables. */
export const DMARC_OPTIONS: Record<DmarcProductId, readonly DmarcOption[]> = {
  'dmarc-plus': [option(100_000, 3599, 43188), option(500_000, 5999, 71988), option(1_000_000, 11199, 134388)],
  'dmarc-premium': [option(100_000, 7199, 86388), option(500_000, 11199, 134388), option(1_000_000, 19199, 230388), option(5_000_000, 29999, 359988)],
};

export function isDmarcEmailVolume(value: unknown): value is DmarcEmailVolume {
  return typeof value === 'number' && (DMARC_EMAIL_VOLUMES as readonly number[]).includes(value);
}

/** The option of a DMARC plan for an email volume; throws "Unsupported email volume" or "No pricing option found for email volume". */
export function dmarcOptionFor(productId: string, emailVolume: number): DmarcOption {
  if (!isDmarcProductId(productId)) throw new PriceRuleError(RULE_MESSAGES.notADmarcPlan);
  if (!isDmarcEmailVolume(emailVolume)) throw new PriceRuleError(RULE_MESSAGES.unsupportedEmailVolume);
  const found = DMARC_OPTIONS[productId].find((candidate) => candidate.emails === emailVolume);
  if (!found) throw new PriceRuleError(RULE_MESSAGES.noDmarcOption);
  return found;
}

/** What one billing period of a DMARC plan costs, in cents. */
export function dmarcPriceCents(productId: string, emailVolume: number, billingPeriod: string): number {
  const found = dmarcOptionFor(productId, emailVolume);
  if (billingPeriod === 'monthly') return found.price;
  if (billingPeriod === 'annual') return found.annualPrice;
  throw new PriceRuleError(RULE_MESSAGES.billingPeriod);
}

/** "100,000 emails": how the store names a volume. */
/**
 * A whole number with en-US thousands separators: 1000000 → "1,000,000". Not Intl.NumberFormat:
 * making one loads the locale's data (10–40 ms on a phone), and this module is imported by every
 * page's start-up (the cart's price, the product pages).
 */
function groupThousands(whole: number): string {
  return String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function formatEmailVolume(emails: number): string {
  return `${groupThousands(emails)} emails`;
}

/** Whole cents as US dollars: 274968 → "$2,749.68". */
export function formatUsd(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`formatUsd takes whole cents, got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  // Cents are appended as digits so no float rounding is involved.
  return `${sign}$${groupThousands(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, '0')}`;
}
