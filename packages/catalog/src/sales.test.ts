import { cartSalesMessage, salesContactPath } from './sales';

describe('the way to sales', () => {
  it('opens the contact form on the sales topic with the message written out', () => {
    const url = new URL(salesContactPath('We would like a quote for 400 domains.'), 'http://store.test');
    expect(url.pathname).toBe('/contact');
    expect(Object.fromEntries(url.searchParams)).toEqual({ topic: 'sales', message: 'We would like a quote for 400 domains.' });
  });

  it("writes the cart's lines into the message, within the contact form's limit", () => {
    const line = { name: 'Verified Mark Certificate', description: '250 domains · 3 years · Logo 1 of 10', quantity: 99 };
    expect(cartSalesMessage([line, { name: 'DMARC Plus', description: '', quantity: 1 }], '$985,000,500.00')).toBe(
      'We would like a quote for this cart (total $985,000,500.00):\n- 99 × Verified Mark Certificate (250 domains · 3 years · Logo 1 of 10)\n- 1 × DMARC Plus',
    );
    const long = cartSalesMessage(
      Array.from({ length: 100 }, () => line),
      '$1.00',
      500,
    );
    expect(long.length).toBeLessThanOrEqual(500);
    expect(long).toMatch(/\n- and \d+ more lines$/);
  });
});
