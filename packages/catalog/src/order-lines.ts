import { PRODUCTS, isProductId } from './products';
import type { QuoteLine } from './quote';

/**
 * Catalog rules an order keeps from its cart line (issue 30 moved them here from the bff's orders
 * plugin): how the line's configuration reads, and how often it renews.
 */

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** "3 domains · 2 years" or "1,000,000 emails · monthly". */
export function describeConfiguration(line: Pick<QuoteLine, 'productId' | 'domains' | 'years' | 'logos' | 'emailVolume' | 'billingPeriod' | 'quantity'>): string {
  const parts: string[] = [];
  const product = isProductId(line.productId) ? PRODUCTS[line.productId] : undefined;
  if (product?.type === 'certificate') {
    parts.push(plural(line.domains ?? 1, 'domain'), plural(line.years ?? 1, 'year'));
    if ((line.logos ?? 1) > 1) parts.push(plural(line.logos ?? 1, 'logo'));
  } else if (product?.type === 'dmarc') {
    parts.push(plural(line.emailVolume ?? 0, 'email'), line.billingPeriod === 'annual' ? 'yearly' : 'monthly');
  } else {
    parts.push(product?.billingPeriod === 'month' ? 'monthly' : 'yearly');
  }
  if ((line.quantity ?? 1) > 1) parts.push(`× ${line.quantity}`);
  return parts.join(' · ');
}

/** How often a line renews: a certificate every `years` years, a DMARC plan monthly or yearly. */
export function billingInterval(line: Pick<QuoteLine, 'productId' | 'years' | 'billingPeriod'>): { interval: 'month' | 'year'; intervalCount: number } {
  const product = isProductId(line.productId) ? PRODUCTS[line.productId] : undefined;
  if (product?.type === 'certificate') return { interval: 'year', intervalCount: line.years ?? 1 };
  if (product?.type === 'dmarc') return line.billingPeriod === 'annual' ? { interval: 'year', intervalCount: 1 } : { interval: 'month', intervalCount: 1 };
  return product?.billingPeriod === 'month' ? { interval: 'month', intervalCount: 1 } : { interval: 'year', intervalCount: 1 };
}
