import { type PriceIdLogger, type PriceSettings, resolvePriceId } from './price-ids';
import { type BillingPeriod, certificatePriceCents, dmarcPriceCents, formatUsd, MAX_LOGOS, MIN_LOGOS, PriceRuleError, RULE_MESSAGES } from './prices';
import { DEFAULT_PLAN_YEARS, PRODUCTS, isProductId } from './products';

/**
 * How many of one line a cart may hold. The spec sets no ceiling; 99 keeps every total far
 * inside exact integer range and matches what the quantity buttons allow.
 */
export const MAX_QUANTITY = 99;

/**
 * The most the card payment provider takes in one charge, in integer cents: Stripe refuses a
 * charge above $999,999.99. A cart above it is not payable here; checkout offers a talk with sales.
 */
export const MAX_CHARGE_CENTS = 99_999_999;

/** Why a cart above MAX_CHARGE_CENTS cannot be paid; the bff's refusal and the checkout page both say it. */
export function overChargeLimitMessage(total: number): string {
  return `This cart comes to ${formatUsd(total)}, more than the ${formatUsd(MAX_CHARGE_CENTS)} our payment provider can take in one payment. Talk to sales for a quote, or check out fewer items at a time.`;
}

export const QUOTE_MESSAGES = {
  unknownProduct: 'Unknown product',
  quantity: `Quantity must be a whole number from 1 to ${MAX_QUANTITY}`,
  notForCertificates: 'Email volume and billing period apply to DMARC plans only',
  notForDmarc: 'Domains, years and logos apply to certificates only',
  emailVolumeRequired: 'Email volume is required for a DMARC plan',
  oneDmarcPlan: 'A DMARC plan is bought one at a time: choose a larger email volume instead of several copies',
} as const;

/** Why a second line of one DMARC plan cannot be bought beside the first (at items[`first`]). */
export function samePlanTwiceMessage(first: number): string {
  return `the same plan as items[${first}] cannot be paid twice in one checkout; choose a larger email volume on that line or buy it in a second checkout`;
}

/**
 * The DMARC plan a line buys (its product and billing period: one price, whose volume tiers price one
 * volume), or null for a line that is not a plan. Two lines of one plan are one too many, in the
 * cart and in a checkout.
 */
export function dmarcPlanOf(productId: string, billingPeriod: BillingPeriod | undefined): string | null {
  if (!isProductId(productId) || PRODUCTS[productId].type !== 'dmarc') return null;
  return `${productId} ${billingPeriod ?? 'monthly'}`;
}

/** How many of one cart line may be bought: one of a DMARC plan (a larger volume, not copies), else MAX_QUANTITY. */
export function maxQuantityOf(line: { productType?: 'dmarc' }): number {
  return line.productType === 'dmarc' ? 1 : MAX_QUANTITY;
}

/** What a client asks a price for: a configuration, never an amount. */
export interface QuoteLine {
  productId: string;
  domains?: number;
  years?: number;
  logos?: number;
  emailVolume?: number;
  billingPeriod?: BillingPeriod;
  /** Copies of the line (the cart's quantity); default 1. */
  quantity?: number;
}

export interface QuotedLine {
  productId: string;
  /** One unit (one certificate for all its domains and years; one DMARC billing period), in cents. */
  unitAmount: number;
  /** unitAmount × quantity: the line's cost for its whole plan term, in cents. */
  amount: number;
  /** Units charged: logos × copies for a certificate, copies otherwise. */
  quantity: number;
  priceId: string | null;
}

export interface CartQuote {
  currency: 'usd';
  items: QuotedLine[];
  total: number;
  /** Whether the total can be paid in one charge (at most MAX_CHARGE_CENTS). */
  payable: boolean;
}

/** A line the rules refuse; the message names the line: "items[1]: Unsupported email volume". */
export class QuoteError extends Error {
  override name = 'QuoteError';
}

function quoteLine(line: QuoteLine, settings: PriceSettings, logger: PriceIdLogger): QuotedLine {
  if (!isProductId(line.productId)) throw new PriceRuleError(QUOTE_MESSAGES.unknownProduct);
  const product = PRODUCTS[line.productId];
  const copies = line.quantity ?? 1;
  if (!Number.isInteger(copies) || copies < 1 || copies > MAX_QUANTITY) throw new PriceRuleError(QUOTE_MESSAGES.quantity);
  const hasDmarcFields = line.emailVolume !== undefined || line.billingPeriod !== undefined;
  const hasCertificateFields = line.domains !== undefined || line.years !== undefined || line.logos !== undefined;

  if (product.type === 'certificate') {
    if (hasDmarcFields) throw new PriceRuleError(QUOTE_MESSAGES.notForCertificates);
    const years = line.years ?? DEFAULT_PLAN_YEARS;
    const logos = line.logos ?? 1;
    const unitAmount = certificatePriceCents({ productId: product.id, domains: line.domains ?? 1, years });
    if (!Number.isInteger(logos) || logos < MIN_LOGOS || logos > MAX_LOGOS) throw new PriceRuleError(RULE_MESSAGES.logos);
    const quantity = logos * copies;
    const priceId = resolvePriceId({ id: product.id, options: { year: years } }, settings, logger) ?? null;
    return { productId: product.id, unitAmount, amount: unitAmount * quantity, quantity, priceId };
  }
  if (hasCertificateFields) throw new PriceRuleError(QUOTE_MESSAGES.notForDmarc);
  if (product.type === 'dmarc') {
    if (line.emailVolume === undefined) throw new PriceRuleError(QUOTE_MESSAGES.emailVolumeRequired);
    if (copies !== 1) throw new PriceRuleError(QUOTE_MESSAGES.oneDmarcPlan);
    const billingPeriod = line.billingPeriod ?? 'monthly';
    const unitAmount = dmarcPriceCents(product.id, line.emailVolume, billingPeriod);
    const priceId = resolvePriceId({ id: product.id, billingPeriod }, settings, logger) ?? null;
    return { productId: product.id, unitAmount, amount: unitAmount * copies, quantity: copies, priceId };
  }
  if (hasDmarcFields) throw new PriceRuleError(QUOTE_MESSAGES.notForCertificates);
  // The test product (1 dollar) and the free BIMI checker.
  const unitAmount = product.basePricePerDomain;
  const priceId = unitAmount > 0 ? (resolvePriceId({ id: product.id }, settings, logger) ?? null) : null;
  return { productId: product.id, unitAmount, amount: unitAmount * copies, quantity: copies, priceId };
}

/**
 * Prices a cart from its configurations alone (never from amounts a client sends): the bff's
 * POST /api/cart/quote. Throws a QuoteError naming the first line a rule refuses.
 */
export function quoteCart(lines: readonly QuoteLine[], settings: PriceSettings, logger: PriceIdLogger = console): CartQuote {
  const plans = new Map<string, number>();
  lines.forEach((line, index) => {
    const plan = dmarcPlanOf(line.productId, line.billingPeriod);
    if (plan === null) return;
    const first = plans.get(plan);
    if (first !== undefined) throw new QuoteError(`items[${index}]: ${samePlanTwiceMessage(first)}`);
    plans.set(plan, index);
  });
  const items = lines.map((line, index) => {
    try {
      return quoteLine(line, settings, logger);
    } catch (error) {
      if (error instanceof PriceRuleError) throw new QuoteError(`items[${index}]: ${error.message}`);
      throw error;
    }
  });
  const total = items.reduce((sum, item) => sum + item.amount, 0);
  return { currency: 'usd', items, total, payable: total <= MAX_CHARGE_CENTS };
}
