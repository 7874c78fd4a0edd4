import { certificateFrom, certificateRows, safeLogoUrl } from './certificate';
import { logoFrom } from './logo';

const CERTIFICATE = {
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

describe('certificateFrom', () => {
  it('reads the certificate under details.certificate (BIMI, VMC answers) or at the top', () => {
    expect(certificateFrom({ certificate: CERTIFICATE, logoUrl: 'https://x' })?.organization).toBe('Good Example Inc');
    expect(certificateFrom(CERTIFICATE)?.serialNumber).toBe('0A1B');
  });
  it('gives nothing for details without a certificate, or with fields of the wrong type', () => {
    expect(certificateFrom(undefined)).toBeUndefined();
    expect(certificateFrom({ domain: 'good.example' })).toBeUndefined();
    expect(certificateFrom({ certificate: { ...CERTIFICATE, subjectAltNames: 'good.example' } })).toBeUndefined();
  });
});

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

describe('safeLogoUrl and logoFrom', () => {
  it('accepts only SVG data: URLs for <img>', () => {
    expect(safeLogoUrl('data:image/svg+xml;base64,PHN2Zy8+')).toBe('data:image/svg+xml;base64,PHN2Zy8+');
    expect(safeLogoUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeLogoUrl('https://evil.example/logo.svg')).toBeUndefined();
    expect(safeLogoUrl('data:text/html,<script>alert(1)</script>')).toBeUndefined();
    expect(safeLogoUrl(42)).toBeUndefined();
  });
  it('prefers the published logo (details.logo.dataUrl) to the one in the certificate', () => {
    expect(logoFrom({ logo: { dataUrl: 'data:image/svg+xml;base64,AAAA' }, certificate: CERTIFICATE })).toBe('data:image/svg+xml;base64,AAAA');
    expect(logoFrom({ certificate: CERTIFICATE })).toBe(CERTIFICATE.logoDataUrl);
    expect(logoFrom({ logo: { dataUrl: 'https://x/logo.svg' } })).toBeUndefined();
    expect(logoFrom(undefined)).toBeUndefined();
  });
});
