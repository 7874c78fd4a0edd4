import { DOMAIN_MESSAGES } from '@bimi/email-auth/domain-input';
import { checkDetails, checkLogo, emptyDraft, type DetailsDraft, type LogoFile } from './certificate-details';

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 64 64"><title>Acme</title><rect width="64" height="64" fill="#123"/></svg>`;

let goodLogo: LogoFile;
beforeAll(async () => {
  goodLogo = await checkLogo('acme.svg', LOGO);
});

function filled(overrides: Partial<DetailsDraft> = {}): DetailsDraft {
  return {
    ...emptyDraft(2),
    organizationId: 'org-1',
    domains: ['Acme.example', 'mail.acme.example'],
    logo: goodLogo,
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

  it('refuses a logo that fails SVG Tiny PS, naming what failed, and a missing logo, organization or contact', async () => {
    const notSquare = await checkLogo('wide.svg', LOGO.replace('0 0 64 64', '0 0 128 64'));
    expect(notSquare.failures).toEqual([expect.stringContaining('viewBox is not square')]);
    const { errors } = checkDetails(filled({ logo: notSquare, organizationId: '', contacts: { legal: '', technical: 'c2', billing: 'c3' } }), 'common-mark-certificate');
    expect(errors?.logo).toContain('viewBox is not square');
    expect(errors?.organizationId).toBe('Choose the organization that owns the mark');
    expect(errors?.contacts).toEqual({ legal: 'Choose the legal contact' });
    expect(checkDetails(filled({ logo: null }), 'verified-mark-certificate').errors?.logo).toBe('Choose your logo as an SVG file');
  });
});
