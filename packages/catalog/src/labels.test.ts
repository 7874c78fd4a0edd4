import { domainsLabel, logoLabel, orderLabel } from './labels';

describe('certificate labels', () => {
  it('names the logo of a set, and nothing for a single logo', () => {
    expect(logoLabel(2, 3)).toBe('Logo 2 of 3');
    expect(logoLabel(1, 1)).toBe('');
  });

  it('names the domains briefly', () => {
    expect(domainsLabel(null)).toBe('');
    expect(domainsLabel(['acme.example'])).toBe('acme.example');
    expect(domainsLabel(['acme.example', 'mail.acme.example'])).toBe('acme.example and mail.acme.example');
    expect(domainsLabel(['acme.example', 'mail.acme.example', 'news.acme.example'])).toBe('acme.example and 2 more');
  });

  it('names an order by number, product, domains and configuration', () => {
    expect(
      orderLabel({ number: 'O-000002', productName: 'Verified Mark Certificate', description: '3 domains · 2 years · Logo 2 of 3', domains: ['acme.example', 'a.example', 'b.example'] }),
    ).toBe('O-000002 · Verified Mark Certificate for acme.example and 2 more · 3 domains · 2 years · Logo 2 of 3');
    expect(orderLabel({ number: 'O-000003', productName: 'DMARC Plus', description: '1,000,000 emails · monthly' })).toBe('O-000003 · DMARC Plus · 1,000,000 emails · monthly');
    expect(orderLabel({ productName: 'Verified Mark Certificate', description: '1 domain · 1 year', domains: ['acme.example'] })).toBe(
      'Verified Mark Certificate for acme.example · 1 domain · 1 year',
    );
  });
});
