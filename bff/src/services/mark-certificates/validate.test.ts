import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadMarkRoots, validateMarkCertificate } from './mark-certificate';

// Real, expired certificates from @postalsys/vmc's test fixtures; each test pins the date it validates at.
const certificate = (name: string) => readFileSync(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'tools', 'certs', name), 'utf8');
const roots = loadMarkRoots(undefined);
const statusOf = (checks: { id: string; status: string }[]) => Object.fromEntries(checks.map((check) => [check.id, check.status]));

describe('validateMarkCertificate', () => {
  it('passes a DigiCert VMC for a registered mark while it is valid, with the details the UI shows', async () => {
    const report = await validateMarkCertificate({ pem: certificate('paypal_vmc.pem'), rootStore: roots, domain: 'paypal.com', now: new Date('2025-01-15T00:00:00Z') });
    expect(statusOf(report.checks)).toEqual({
      'vmc.pem': 'pass',
      'vmc.chain': 'pass',
      'vmc.validity': 'pass',
      'vmc.key-purpose': 'pass',
      'vmc.logotype': 'pass',
      'vmc.domain': 'pass',
      'vmc.mark-type': 'pass',
    });
    expect(report.score).toBe(100);
    expect(report.details).toMatchObject({
      certificateType: 'VMC',
      markType: 'Registered Mark',
      subjectAltNames: ['paypal.com'],
      issuer: 'DigiCert Verified Mark RSA4096 SHA256 2021 CA1',
      validTo: '2025-09-08T23:59:59.000Z',
      chainLength: 3,
    });
    expect(report.details?.trademarkRegistration).toBeTruthy();
    expect(report.details?.logoDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it('warns 30 days before expiry and fails once expired, still judging the chain on its own', async () => {
    const soon = await validateMarkCertificate({ pem: certificate('paypal_vmc.pem'), rootStore: roots, now: new Date('2025-08-25T00:00:00Z') });
    expect(soon.checks.find((check) => check.id === 'vmc.validity')).toMatchObject({ status: 'warn', title: 'Certificate expires soon' });
    const expired = await validateMarkCertificate({ pem: certificate('paypal_vmc.pem'), rootStore: roots, now: new Date('2026-01-01T00:00:00Z') });
    expect(statusOf(expired.checks)).toMatchObject({ 'vmc.validity': 'fail', 'vmc.chain': 'pass' });
    expect(expired.checks.find((check) => check.id === 'vmc.validity')?.fix).toMatch(/Renew/);
  });

  it('reads a CMC for a prior-use mark', async () => {
    const report = await validateMarkCertificate({ pem: certificate('xometry_cmc.pem'), rootStore: roots, domain: 'xometry.com', now: new Date('2025-01-15T00:00:00Z') });
    expect(report.details).toMatchObject({ certificateType: 'CMC', markType: 'Prior Use Mark' });
    expect(report.checks.find((check) => check.id === 'vmc.mark-type')).toMatchObject({ status: 'pass', title: 'Prior Use Mark (CMC)' });
  });

  it('warns about an older VMC that names no mark type, and fails it for another domain', async () => {
    const report = await validateMarkCertificate({ pem: certificate('cnn.pem'), rootStore: roots, domain: 'example.com', now: new Date('2022-01-15T00:00:00Z') });
    expect(statusOf(report.checks)).toMatchObject({ 'vmc.chain': 'pass', 'vmc.mark-type': 'warn', 'vmc.domain': 'fail' });
    expect(report.checks.find((check) => check.id === 'vmc.domain')?.detail).toMatch(/cnn\.com, not example\.com/);
  });

  it('fails a website certificate: no BIMI key purpose, no logo, no mark-certificate root', async () => {
    const report = await validateMarkCertificate({ pem: certificate('catchall.delivery.pem'), rootStore: roots, now: new Date('2022-08-01T00:00:00Z') });
    expect(statusOf(report.checks)).toMatchObject({ 'vmc.chain': 'fail', 'vmc.key-purpose': 'fail', 'vmc.logotype': 'fail' });
    expect(report.checks.find((check) => check.id === 'vmc.key-purpose')?.detail).toMatch(/1\.3\.6\.1\.5\.5\.7\.3\.1/);
  });

  it('compares the published SVG with the logo in the certificate, byte for byte', async () => {
    const pem = certificate('paypal_vmc.pem');
    const now = new Date('2025-01-15T00:00:00Z');
    const first = await validateMarkCertificate({ pem, rootStore: roots, now });
    const embedded = Buffer.from(first.details!.logoDataUrl!.split(',')[1]!, 'base64');
    const same = await validateMarkCertificate({ pem, rootStore: roots, now, publishedSvg: embedded });
    expect(same.checks.find((check) => check.id === 'vmc.logo-match')?.status).toBe('pass');
    const changed = await validateMarkCertificate({ pem, rootStore: roots, now, publishedSvg: Buffer.concat([embedded, Buffer.from('\n')]) });
    expect(changed.checks.find((check) => check.id === 'vmc.logo-match')?.status).toBe('fail');
  });

  it('parses a bundle once, and still judges the moment, the domain and the published logo on every call', async () => {
    const parser = jest.spyOn(jest.requireActual<{ parseVMC: () => unknown }>('@postalsys/vmc/lib/parse-vmc'), 'parseVMC');
    // A text no other test validates (the same certificates plus a blank line), so the first call parses it.
    const pem = `${certificate('paypal_vmc.pem')}\n`;
    const valid = await validateMarkCertificate({ pem, rootStore: roots, domain: 'paypal.com', now: new Date('2025-01-15T00:00:00Z') });
    const later = await validateMarkCertificate({ pem, rootStore: roots, domain: 'example.com', now: new Date('2026-01-01T00:00:00Z'), publishedSvg: Buffer.from('<svg/>') });
    expect(parser).toHaveBeenCalledTimes(1);
    parser.mockRestore();
    expect(statusOf(valid.checks)).toMatchObject({ 'vmc.validity': 'pass', 'vmc.domain': 'pass' });
    expect(statusOf(later.checks)).toMatchObject({ 'vmc.chain': 'pass', 'vmc.validity': 'fail', 'vmc.domain': 'fail', 'vmc.logo-match': 'fail' });
    expect(later.details).toMatchObject({ subjectAltNames: ['paypal.com'], logoDataUrl: valid.details?.logoDataUrl });
  });

  it.each(['', 'not a certificate', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'])('answers %j with one failed check, never a throw', async (pem) => {
    const report = await validateMarkCertificate({ pem, rootStore: roots });
    expect(report.checks).toEqual([expect.objectContaining({ id: 'vmc.pem', status: 'fail' })]);
    expect(report.score).toBe(0);
  });
});
