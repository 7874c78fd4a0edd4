import { LRUCache } from 'lru-cache';
import { certificatePlanCents, formatEmailVolume } from '@bimi/catalog/prices';
import { DEFAULT_PLAN_YEARS, PRODUCTS, isProductId } from '@bimi/catalog/products';
import type { QuotedLine, QuoteLine } from '@bimi/catalog/quote';

/** What the price check reads of a Stripe price. */
export interface StripePriceFacts {
  id: string;
  active: boolean;
  currency: string;
  billingScheme: 'per_unit' | 'tiered';
  unitAmount: number | null;
  tiersMode: 'graduated' | 'volume' | null;
  tiers: { upTo: number | null; unitAmount: number; flatAmount: number }[];
  interval: string | null;
  intervalCount: number | null;
  usageType: string | null;
}

/**
 * How a catalog quote line is charged as a Stripe price × quantity (bff/README.md, "Payments"):
 *
 * - certificate: the price is one domain for the whole plan term, `certificatePlanCents(product,
 *   years)`, recurring every `years` years; quantity = domains × logos × copies. The catalog's line
 *   amount is unitAmount × quantity where unitAmount = plan × domains (every domain costs the same
 *   after the 10 % discount), so price × quantity equals it to the cent.
 * - DMARC plan: one volume-tiered price per plan and period (monthly: every month; annual: every
 *   year); quantity = stripeQuantity = emails ÷ 1,000; the tier the quantity falls in must come to
 *   the catalog's amount for that volume. A plan is one subscription item, so it is bought once
 *   per line (quantity 1).
 * - the test product: 1 dollar a year, quantity = copies.
 */
export interface ChargedLine {
  productId: string;
  priceId: string | null;
  /** Units of the Stripe price. */
  quantity: number;
  /** The catalog's amount for one billing period of the whole line (quote amount), in cents. */
  amount: number;
  interval: 'month' | 'year';
  intervalCount: number;
  /** What one unit of the Stripe price must cost when charged at `quantity`, in cents (per unit, or the tier's whole amount). */
  expected: { kind: 'per-unit'; unitAmount: number } | { kind: 'total'; amount: number };
  description: string;
}

export class UnbuyableLineError extends Error {
  override name = 'UnbuyableLineError';
}

const plural = (count: number, one: string, many: string) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** The Stripe charge of one quoted line; throws UnbuyableLineError for a line no subscription can carry. */
export function chargedLine(line: QuoteLine, quoted: QuotedLine): ChargedLine {
  if (!isProductId(line.productId)) throw new UnbuyableLineError('Unknown product');
  const product = PRODUCTS[line.productId];
  if (product.type === 'certificate') {
    const years = line.years ?? DEFAULT_PLAN_YEARS;
    const domains = line.domains ?? 1;
    const unitAmount = certificatePlanCents(product.id, years);
    return {
      productId: product.id,
      priceId: quoted.priceId,
      quantity: domains * quoted.quantity,
      amount: quoted.amount,
      interval: 'year',
      intervalCount: years,
      expected: { kind: 'per-unit', unitAmount },
      description: `${product.name}: ${plural(domains, 'domain', 'domains')} · ${plural(years, 'year', 'years')}${quoted.quantity > 1 ? ` × ${quoted.quantity}` : ''}`,
    };
  }
  if (product.type === 'dmarc') {
    const emails = line.emailVolume ?? 0;
    const annual = line.billingPeriod === 'annual';
    return {
      productId: product.id,
      priceId: quoted.priceId,
      quantity: emails / 1000,
      amount: quoted.amount,
      interval: annual ? 'year' : 'month',
      intervalCount: 1,
      expected: { kind: 'total', amount: quoted.unitAmount },
      description: `${product.name}: ${formatEmailVolume(emails)} · ${annual ? 'annual' : 'monthly'}`,
    };
  }
  if (quoted.amount <= 0) throw new UnbuyableLineError(`${product.name} is free: there is nothing to pay for`);
  return {
    productId: product.id,
    priceId: quoted.priceId,
    quantity: quoted.quantity,
    amount: quoted.amount,
    interval: 'year',
    intervalCount: 1,
    expected: { kind: 'per-unit', unitAmount: quoted.unitAmount },
    description: `${product.name}${quoted.quantity > 1 ? ` × ${quoted.quantity}` : ''}`,
  };
}

/** What a Stripe price comes to for `quantity` units, in cents; null when it cannot be worked out. */
export function stripeAmountFor(price: StripePriceFacts, quantity: number): number | null {
  if (price.billingScheme === 'per_unit') return price.unitAmount === null ? null : price.unitAmount * quantity;
  if (price.tiers.length === 0 || !price.tiersMode) return null;
  if (price.tiersMode === 'volume') {
    const tier = price.tiers.find((candidate) => candidate.upTo === null || quantity <= candidate.upTo);
    return tier ? tier.flatAmount + tier.unitAmount * quantity : null;
  }
  let total = 0;
  let below = 0;
  for (const tier of price.tiers) {
    const top = tier.upTo ?? Infinity;
    const units = Math.min(quantity, top) - below;
    if (units <= 0) break;
    total += tier.flatAmount + tier.unitAmount * units;
    below = top;
  }
  return total;
}

/** Why a configured price may not be charged, in words for the log; null when it matches the catalog. */
export function priceMismatch(line: ChargedLine, price: StripePriceFacts | null): string | null {
  if (!price) return `price ${line.priceId} does not exist`;
  if (!price.active) return `price ${price.id} is archived`;
  if (price.currency !== 'usd') return `price ${price.id} is in ${price.currency}, the catalog in usd`;
  if (price.usageType !== 'licensed' || price.interval === null) return `price ${price.id} is not a licensed recurring price`;
  if (price.interval !== line.interval || price.intervalCount !== line.intervalCount) {
    return `price ${price.id} renews every ${price.intervalCount} ${price.interval}, the catalog every ${line.intervalCount} ${line.interval}`;
  }
  if (line.expected.kind === 'per-unit') {
    if (price.billingScheme !== 'per_unit' || price.unitAmount !== line.expected.unitAmount) {
      return `price ${price.id} charges ${price.billingScheme === 'per_unit' ? price.unitAmount : 'tiers'} a unit, the catalog ${line.expected.unitAmount}`;
    }
  }
  const charged = stripeAmountFor(price, line.quantity);
  if (charged !== line.amount) return `price ${price.id} × ${line.quantity} comes to ${charged}, the catalog to ${line.amount}`;
  return null;
}

/** The message a buyer reads when a price is not what the catalog shows (spec §8: no details). */
export const PRICE_BEING_UPDATED = 'This product cannot be bought right now: its price is being updated. Please contact us.';

export class PriceCheckError extends Error {
  override name = 'PriceCheckError';
  constructor(readonly problems: { productId: string; priceId: string | null; problem: string }[]) {
    super(PRICE_BEING_UPDATED);
  }
}

/**
 * Compares every line's Stripe price with the catalog before a session is created. Prices are
 * fetched once and kept (at most `max`, for `ttlMs`), so a price changed in Stripe's dashboard is
 * seen again within the TTL; a missing price is not kept, so fixing the setting takes effect at once.
 */
export class PriceCheck {
  private readonly cache: LRUCache<string, StripePriceFacts>;
  private readonly inFlight = new Map<string, Promise<StripePriceFacts | null>>();

  constructor(
    private readonly fetchPrice: (priceId: string) => Promise<StripePriceFacts | null>,
    options: { max?: number; ttlMs?: number; now?: () => number } = {},
  ) {
    this.cache = new LRUCache({ max: options.max ?? 256, ttl: options.ttlMs ?? 10 * 60 * 1000, ...(options.now && { perf: { now: options.now }, ttlResolution: 0 }) });
  }

  private async facts(priceId: string): Promise<StripePriceFacts | null> {
    const cached = this.cache.get(priceId);
    if (cached) return cached;
    let pending = this.inFlight.get(priceId);
    if (!pending) {
      pending = this.fetchPrice(priceId).finally(() => this.inFlight.delete(priceId));
      this.inFlight.set(priceId, pending);
    }
    const facts = await pending;
    if (facts) this.cache.set(priceId, facts);
    return facts;
  }

  /** Throws PriceCheckError naming every line whose price is missing or differs from the catalog. */
  async check(lines: readonly ChargedLine[]): Promise<void> {
    const problems: PriceCheckError['problems'] = [];
    const byPrice = new Map<string, ChargedLine[]>();
    for (const line of lines) {
      if (!line.priceId) {
        problems.push({ productId: line.productId, priceId: null, problem: 'no price identifier is configured' });
        continue;
      }
      const facts = await this.facts(line.priceId);
      const problem = priceMismatch(line, facts);
      if (problem) problems.push({ productId: line.productId, priceId: line.priceId, problem });
      byPrice.set(line.priceId, [...(byPrice.get(line.priceId) ?? []), line]);
    }
    // Lines at one price are charged as one subscription item with the summed quantity: what Stripe
    // charges for that sum must be what the catalog quotes for the lines together.
    for (const [priceId, shared] of byPrice) {
      if (shared.length < 2) continue;
      const facts = await this.facts(priceId);
      const quantity = shared.reduce((sum, line) => sum + line.quantity, 0);
      const amount = shared.reduce((sum, line) => sum + line.amount, 0);
      const charged = facts ? stripeAmountFor(facts, quantity) : null;
      if (facts && charged !== amount)
        problems.push({
          productId: shared[0]?.productId ?? '',
          priceId,
          problem: `price ${priceId} × ${quantity} (${shared.length} lines on one item) comes to ${charged}, the catalog to ${amount}`,
        });
    }
    if (problems.length > 0) throw new PriceCheckError(problems);
  }

  get size(): number {
    return this.cache.size;
  }
}
