import { CERTIFICATES, DOMAINS_PER_CERTIFICATE, PENDING_TRADEMARK_RULE, PENDING_TRADEMARK_START, dmarcMaxVolume, dmarcOffersVolume, dmarcPlanSummary, dmarcVolumeFact } from './facts';
import { CERTIFICATE_IDS, PRODUCTS } from './products';
import { DMARC_EMAIL_VOLUMES, MAX_DOMAINS } from './prices';

describe('shared facts (issue 17: one wording, numbers from the catalog)', () => {
  it('lists the four certificates once each, named from the products', () => {
    expect(CERTIFICATES.map((certificate) => certificate.id).sort()).toEqual([...CERTIFICATE_IDS].sort());
    expect(CERTIFICATES.map((certificate) => certificate.name)).toEqual([
      'Verified Mark Certificate (VMC)',
      'Common Mark Certificate (CMC)',
      'Modified Registered Mark Certificate (CMC)',
      'Government Mark Certificate (GMC)',
    ]);
  });

  it('says validation of a pending trademark waits for the registration, never that it starts at once', () => {
    expect(PENDING_TRADEMARK_RULE).toContain(PENDING_TRADEMARK_START);
    expect(PENDING_TRADEMARK_START).toMatch(/starts only once the trademark is registered/);
    expect(PENDING_TRADEMARK_RULE).not.toMatch(/at once/);
  });

  it('takes plan limits and volumes from the catalog (spec §9)', () => {
    expect(DOMAINS_PER_CERTIFICATE).toBe(`Up to ${MAX_DOMAINS} domains per certificate.`);
    expect(dmarcPlanSummary('dmarc-plus')).toBe('2 domains, 3 months of report history, 1 invited user.');
    expect(dmarcPlanSummary('dmarc-premium')).toBe('4 domains, 1 year of report history, unlimited users.');
    expect(PRODUCTS['dmarc-plus'].features.slice(0, 3)).toEqual(['2 domains', '3 months of report history', '1 invited user']);
    expect(dmarcMaxVolume('dmarc-plus')).toBe(1_000_000);
    expect(dmarcMaxVolume('dmarc-premium')).toBe(5_000_000);
  });

  it('states the selected volume on each plan card, and that Plus is not offered at 5,000,000', () => {
    for (const volume of DMARC_EMAIL_VOLUMES) expect(dmarcOffersVolume('dmarc-premium', volume)).toBe(true);
    expect(dmarcVolumeFact('dmarc-plus', 100_000)).toBe('Up to 100,000 emails a month');
    expect(dmarcVolumeFact('dmarc-premium', 5_000_000)).toBe('Up to 5,000,000 emails a month');
    expect(dmarcOffersVolume('dmarc-plus', 5_000_000)).toBe(false);
    expect(dmarcVolumeFact('dmarc-plus', 5_000_000)).toBe('Not offered above 1,000,000 emails a month');
  });
});
