import { Product } from './product-schema';
import { PRODUCTS, PRODUCT_IDS, getProduct } from './products';

describe('products (spec §3)', () => {
  it('lists the eight products, each valid against the Product schema', () => {
    expect(Object.keys(PRODUCTS).sort()).toEqual([...PRODUCT_IDS].sort());
    for (const id of PRODUCT_IDS) {
      expect(Product.parse(PRODUCTS[id])).toEqual(PRODUCTS[id]);
      expect(PRODUCTS[id].id).toBe(id);
    }
  });

  it('offers trademark status on the trademark-based certificates and agency level on the government mark', () => {
    expect(PRODUCTS['verified-mark-certificate'].trademarkStatusOptions).toEqual(['Registered', 'Pending']);
    expect(PRODUCTS['modified-registered-mark'].trademarkStatusOptions).toEqual(['Registered', 'Pending']);
    expect(PRODUCTS['government-mark-certificate'].agencyLevelOptions).toEqual(['Federal', 'State', 'Local']);
  });

  it('finds a product by id and answers undefined for an unknown one', () => {
    expect(getProduct('dmarc-premium').name).toBe('DMARC Premium');
    expect(getProduct('nope')).toBeUndefined();
  });
});
