import { type CartItem, certificateSet } from '@bimi/catalog/cart-items';
import { CERTIFICATES } from '@bimi/catalog/facts';

/**
 * Where a certificate line's Edit action goes (the cart drawer and the checkout): its product page
 * with the line's options, which the configurator reads, and `edit` naming the line its
 * "Update cart" replaces with the other logos configured with it. Logos is how many of them the
 * cart (`items`) holds now, so the configurator opens with what the cart shows.
 */
export function editLink(item: CartItem, items: readonly CartItem[]): string | null {
  const product = CERTIFICATES.find((certificate) => certificate.id === item.id);
  if (!product) return null;
  const logos = Math.max(1, certificateSet(items, item.uniqueId).length);
  const params = new URLSearchParams({ domains: String(item.options.domain), years: String(item.options.year), logos: String(logos) });
  if (item.trademarkStatus) params.set('trademark', item.trademarkStatus);
  if (item.agencyLevel) params.set('agency', item.agencyLevel);
  params.set('edit', item.uniqueId);
  return `${product.path}${product.path.includes('?') ? '&' : '?'}${params.toString()}#configure`;
}
