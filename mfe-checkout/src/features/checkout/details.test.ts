import { DOMAIN_MESSAGES } from '@bimi/email-auth/domain-input';
import { checkDetails, checkLogo, emptyDraft, type DetailsDraft } from './details';
import { billingTermOf, quoteLineOf, renewalDate } from './lines';
import type { CartItem } from '@bimi/catalog/cart-items';
import { certificateCartItems, dmarcCartItem } from '@bimi/catalog/cart-items';

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 64 64"><title>Acme</title><rect width="64" height="64" fill="#123"/></svg>`;

function filled(overrides: Partial<DetailsDraft> = {}): DetailsDraft {
  return {
    ...emptyDraft(2),
    organizationId: 'org-1',
    domains: ['Acme.example', 'mail.acme.example'],
    logo: checkLogo('acme.svg', LOGO),
    contacts: { legal: 'c1', technical: 'c2', billing: 'c3' },
    ...overrides,
  };
}

describe('checkDetails', () => {
  it('gives the contract shape: domains as the one domain rule writes them, trademark status for a VMC', () => {
    const { details, errors } = checkDetails(filled(), 'verified-mark-certificate');
    expect(errors).toBeNull();
    expect(details).toEqual({
      organizationId: 'org-1',
      domains: ['acme.example', 'mail.acme.example'],
      logoSvg: LOGO,
      trademarkStatus: 'Registered',
      contacts: { legal: 'c1', technical: 'c2', billing: 'c3' },
    });
  });

  it('gives the agency level (Federal by default) for a government mark, and no trademark status', () => {
    const { details } = checkDetails(filled(), 'government-mark-certificate');
    expect(details).toMatchObject({ agencyLevel: 'Federal' });
    expect(details).not.toHaveProperty('trademarkStatus');
  });

  it('names each bad, missing or repeated domain in its own field', () => {
    const { errors } = checkDetails(filled({ domains: ['not a domain', 'acme.example'] }), 'verified-mark-certificate');
    // The store's one domain rule (@bimi/email-auth/domain-input) and its words.
    expect(errors?.domains?.[0]).toBe(DOMAIN_MESSAGES.invalid.replace('{host}', 'example.com'));
    expect(errors?.domains?.[1]).toBeUndefined();
    expect(checkDetails(filled({ domains: ['acme.example', 'ACME.example'] }), 'verified-mark-certificate').errors?.domains?.[1]).toBe('acme.example is already listed');
    expect(checkDetails(filled({ domains: ['acme.example', ' '] }), 'verified-mark-certificate').errors?.domains?.[1]).toBe('Enter domain 2');
  });

  it('refuses a logo that fails SVG Tiny PS, naming what failed, and a missing logo, organization or contact', () => {
    const notSquare = checkLogo('wide.svg', LOGO.replace('0 0 64 64', '0 0 128 64'));
    expect(notSquare.failures).toEqual([expect.stringContaining('viewBox is not square')]);
    const { errors } = checkDetails(filled({ logo: notSquare, organizationId: '', contacts: { legal: '', technical: 'c2', billing: 'c3' } }), 'common-mark-certificate');
    expect(errors?.logo).toContain('viewBox is not square');
    expect(errors?.organizationId).toBe('Choose the organization that owns the mark');
    expect(errors?.contacts).toEqual({ legal: 'Choose the legal contact' });
    expect(checkDetails(filled({ logo: null }), 'verified-mark-certificate').errors?.logo).toBe('Choose your logo as an SVG file');
  });
});

describe('checkout lines', () => {
  const settings = {};
  const [vmc] = certificateCartItems({ productId: 'verified-mark-certificate', domains: 3, years: 2, logos: 2, sourcePageType: 'product' }, { settings }) as [CartItem];
  const dmarc = dmarcCartItem({ productId: 'dmarc-plus', emailVolume: 1_000_000, billingPeriod: 'monthly', sourcePageType: 'product' }, { settings });

  it('asks the quote for configurations only, one logo per certificate item', () => {
    expect(quoteLineOf({ ...vmc, quantity: 2 })).toEqual({ productId: 'verified-mark-certificate', domains: 3, years: 2, logos: 1, quantity: 2 });
    expect(quoteLineOf(dmarc)).toEqual({ productId: 'dmarc-plus', emailVolume: 1_000_000, billingPeriod: 'monthly', quantity: 1 });
    expect(JSON.stringify(quoteLineOf(vmc))).not.toContain('price');
  });

  it('says how often each line is billed and when it renews', () => {
    expect(billingTermOf(vmc)).toEqual({ every: 'every 2 years', months: 24 });
    expect(billingTermOf(dmarc)).toEqual({ every: 'every month', months: 1 });
    expect(renewalDate(new Date(2026, 0, 31), 1)).toEqual(new Date(2026, 1, 28));
    expect(renewalDate(new Date(2026, 10, 23), 24)).toEqual(new Date(2028, 10, 23));
  });
});
