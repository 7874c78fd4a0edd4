import { billedEvery, domainCountOf, isOrderFilter, perPeriod, periodEndText } from './order-format';

describe('order formatting', () => {
  it('says what a period costs and how often it is billed', () => {
    expect(perPeriod({ interval: 'month', count: 1 })).toBe('per month');
    expect(perPeriod({ interval: 'year', count: 2 })).toBe('per 2 years');
    expect(billedEvery({ interval: 'year', count: 1 })).toBe('Yearly');
    expect(billedEvery({ interval: 'year', count: 3 })).toBe('Every 3 years');
  });

  it('says whether the period end renews, ends or has ended', () => {
    const end = '2027-03-04T00:00:00.000Z';
    expect(periodEndText({ renews: true, currentPeriodEnd: end, status: 'active' })).toMatch(/^Renews /);
    expect(periodEndText({ renews: false, currentPeriodEnd: end, status: 'expiring' })).toMatch(/^Ends /);
    expect(periodEndText({ renews: false, currentPeriodEnd: end, status: 'expired' })).toMatch(/^Ended /);
    expect(periodEndText({ renews: true, currentPeriodEnd: null, status: 'incomplete' })).toBe('Starts once paid');
  });

  it('reads only the five filters of spec §2 from the URL', () => {
    expect(['all', 'active', 'pending', 'incomplete', 'expiring'].every(isOrderFilter)).toBe(true);
    expect(isOrderFilter('cancelled')).toBe(false);
    expect(isOrderFilter(null)).toBe(false);
  });

  it('counts the domains a certificate order is for from its details, else its description, within 1 to 250', () => {
    const details = { organizationId: 'o', domains: ['a.example', 'b.example'], logoSvg: '<svg/>', contacts: { legal: 'l', technical: 't', billing: 'b' } };
    expect(domainCountOf({ details, description: '3 domains · 2 years' })).toBe(2);
    expect(domainCountOf({ details: null, description: '3 domains · 2 years' })).toBe(3);
    expect(domainCountOf({ details: null, description: '1 domain · 1 year' })).toBe(1);
    expect(domainCountOf({ details: null, description: '900 domains' })).toBe(250);
    expect(domainCountOf({ details: null, description: 'Verified Mark Certificate' })).toBe(1);
  });
});
