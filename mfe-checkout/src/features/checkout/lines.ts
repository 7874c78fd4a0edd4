import type { CartItem } from '@bimi/catalog/cart-items';
import { formatEmailVolume } from '@bimi/catalog/prices';
import { isCertificateId, PRODUCTS } from '@bimi/catalog/products';
import type { CartQuoteLine } from '@bimi/contracts/cart-quote';

/**
 * What the checkout asks the bff about a cart item: its configuration only (never an amount).
 * A certificate item is one logo (the cart splits a multi-logo configuration into one item per
 * logo), so `logos` is 1 and the item's quantity is the copies.
 */
export function quoteLineOf(item: CartItem): CartQuoteLine {
  if (isCertificateId(item.id)) {
    return { productId: item.id, domains: item.options.domain, years: item.options.year, logos: 1, quantity: item.quantity };
  }
  if (item.productType === 'dmarc') {
    return { productId: item.id, emailVolume: item.emailVolume, billingPeriod: item.billingPeriod ?? 'monthly', quantity: item.quantity };
  }
  return { productId: item.id, quantity: item.quantity };
}

export function isCertificateItem(item: CartItem): boolean {
  return isCertificateId(item.id);
}

/** What the buyer chose for a line, in words: "3 domains · 2 years · Logo 1 of 2 · Trademark registered". */
export function describeOptions(item: CartItem): string {
  if (item.productType === 'dmarc') return `${formatEmailVolume(item.emailVolume ?? 0)} a month`;
  if (!isCertificateItem(item)) return PRODUCTS[item.id].features[0] ?? '';
  const parts = [`${item.options.domain} domain${item.options.domain === 1 ? '' : 's'}`, `${item.options.year} year${item.options.year === 1 ? '' : 's'}`];
  if (item.logoCount > 1) parts.push(`Logo ${item.logoIndex} of ${item.logoCount}`);
  if (item.cmcType) parts.push(item.cmcType);
  return parts.join(' · ');
}

export interface BillingTerm {
  /** "every 2 years", "every month", "every year". */
  every: string;
  months: number;
}

/** How often a line is charged: a certificate's whole plan term, a DMARC plan's month or year. */
export function billingTermOf(item: CartItem): BillingTerm {
  if (item.productType === 'dmarc') return item.billingPeriod === 'annual' ? { every: 'every year', months: 12 } : { every: 'every month', months: 1 };
  if (isCertificateItem(item)) {
    const years = item.options.year;
    return { every: years === 1 ? 'every year' : `every ${years} years`, months: 12 * years };
  }
  return PRODUCTS[item.id].billingPeriod === 'month' ? { every: 'every month', months: 1 } : { every: 'every year', months: 12 };
}
