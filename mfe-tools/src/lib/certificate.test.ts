import type { MarkCertificate } from '@bimi/contracts/tools';
import { certificateRows, inboxLogo, safeLogoUrl } from './certificate';

const CERTIFICATE: MarkCertificate = {
  certificateType: 'VMC',
  markType: 'Registered Mark',
  organization: 'Good Example Inc',
  commonName: 'Good Example Inc',
  issuer: 'Fixture Verified Mark CA',
  issuerOrganization: 'BIMI Store Tests',
  serialNumber: '0A1B',
  fingerprint: '17:B3',
  validFrom: '2026-10-22T00:00:00.000Z',
  validTo: '2027-10-22T00:00:00.000Z',
  daysLeft: 334,
  subjectAltNames: ['good.example', 'bimi-good.example'],
  trademarkOffice: 'USPTO',
  trademarkCountry: 'US',
  trademarkRegistration: '90000001',
  chainLength: 2,
  logoDataUrl: 'data:image/svg+xml;base64,PHN2Zy8+',
  logoHash: 'sha256:ab',
};

describe('certificateRows', () => {
  it('lists the facts a reviewer reads, in words, and leaves out empty ones', () => {
    const rows = Object.fromEntries(certificateRows({ ...CERTIFICATE, wordMark: undefined }).map((row) => [row.label, row.value]));
    expect(rows).toMatchObject({
      'Certificate type': 'Verified Mark Certificate (VMC)',
      'Mark type': 'Registered Mark',
      'Domains (SANs)': 'good.example, bimi-good.example',
      Issuer: 'Fixture Verified Mark CA (BIMI Store Tests)',
      Valid: 'October 22, 2026 to October 22, 2027',
      'Days left': '334',
      'Trademark office': 'USPTO, US',
    });
    expect(rows).not.toHaveProperty('Word mark');
  });
  it('says how long ago an expired certificate ended', () => {
    const rows = certificateRows({ ...CERTIFICATE, daysLeft: -35, certificateType: 'CMC' });
    expect(rows.find((row) => row.label === 'Days left')?.value).toBe('Expired 35 days ago');
    expect(rows.find((row) => row.label === 'Certificate type')?.value).toBe('Common Mark Certificate (CMC)');
  });
});

describe('safeLogoUrl and inboxLogo', () => {
  it('accepts only SVG data: URLs for <img>', () => {
    expect(safeLogoUrl('data:image/svg+xml;base64,PHN2Zy8+')).toBe('data:image/svg+xml;base64,PHN2Zy8+');
    expect(safeLogoUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeLogoUrl('https://evil.example/logo.svg')).toBeUndefined();
    expect(safeLogoUrl('data:text/html,<script>alert(1)</script>')).toBeUndefined();
    expect(safeLogoUrl(undefined)).toBeUndefined();
  });
  it('prefers the published logo (details.logo.dataUrl) to the one in the certificate', () => {
    expect(inboxLogo('data:image/svg+xml;base64,AAAA', CERTIFICATE)).toBe('data:image/svg+xml;base64,AAAA');
    expect(inboxLogo(undefined, CERTIFICATE)).toBe(CERTIFICATE.logoDataUrl);
    expect(inboxLogo('https://x/logo.svg', undefined)).toBeUndefined();
    expect(inboxLogo(undefined, undefined)).toBeUndefined();
  });
});
