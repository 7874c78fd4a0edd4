import type { CartItem } from '@bimi/catalog/cart-items';
import { CERTIFICATES } from '@bimi/catalog/facts';

/**
 * Where a certificate line's Edit action goes (the cart drawer and the checkout): its product page
 * with the line's options, which the configurator reads, and `edit` naming the line its
 * "Update cart" replaces.
 */
export function editLink(item: CartItem): string | null {
  const product = CERTIFICATES.find((certificate) => certificate.id === item.id);
  if (!product) return null;
  const params = new URLSearchParams({ domains: String(item.options.domain), years: String(item.options.year), logos: '1' });
  if (item.trademarkStatus) params.set('trademark', item.trademarkStatus);
  if (item.agencyLevel) params.set('agency', item.agencyLevel);
  params.set('edit', item.uniqueId);
  return `${product.path}${product.path.includes('?') ? '&' : '?'}${params.toString()}#configure`;
}
