import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AsnParser } from '@peculiar/asn1-schema';
import { beginLineFlood, logoBombCertificate } from '../../../test/fixtures/tools/hostile';
import { cpuMsOf } from '../../../test/timing';
import { markRootStore } from './roots';
import { validateMarkCertificate } from './validate';

// Real, expired certificates from @postalsys/vmc's test fixtures; each test pins the date it validates at.
const certificate = (name: string) => readFileSync(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'tools', 'certs', name), 'utf8');
const roots = markRootStore([]);
const statusOf = (checks: { id: string; status: string }[]) => Object.fromEntries(checks.map((check) => [check.id, check.status]));

describe('validateMarkCertificate', () => {
  it('passes a DigiCert VMC for a registered mark while it is valid, with the details the UI shows', () => {
    const report = validateMarkCertificate({ pem: certificate('paypal_vmc.pem'), rootStore: roots, domain: 'paypal.com', now: new Date('2025-01-15T00:00:00Z') });
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

  it('warns 30 days before expiry and fails once expired, still judging the chain on its own', () => {
    const soon = validateMarkCertificate({ pem: certificate('paypal_vmc.pem'), rootStore: roots, now: new Date('2025-08-25T00:00:00Z') });
    expect(soon.checks.find((check) => check.id === 'vmc.validity')).toMatchObject({ status: 'warn', title: 'Certificate expires soon' });
    // Exactly 30 days left (it ends 2025-09-08T23:59:59Z): expiring, as the monitor's alert says it.
    const thirty = validateMarkCertificate({ pem: certificate('paypal_vmc.pem'), rootStore: roots, now: new Date('2025-08-09T12:00:00Z') });
    expect(thirty.checks.find((check) => check.id === 'vmc.validity')).toMatchObject({ status: 'warn', detail: expect.stringContaining('in 30 days') });
    const thirtyOne = validateMarkCertificate({ pem: certificate('paypal_vmc.pem'), rootStore: roots, now: new Date('2025-08-08T12:00:00Z') });
    expect(thirtyOne.checks.find((check) => check.id === 'vmc.validity')?.status).toBe('pass');
    const expired = validateMarkCertificate({ pem: certificate('paypal_vmc.pem'), rootStore: roots, now: new Date('2026-01-01T00:00:00Z') });
    expect(statusOf(expired.checks)).toMatchObject({ 'vmc.validity': 'fail', 'vmc.chain': 'pass' });
    expect(expired.checks.find((check) => check.id === 'vmc.validity')?.fix).toMatch(/Renew/);
  });

  it('reads a CMC for a prior-use mark', () => {
    const report = validateMarkCertificate({ pem: certificate('xometry_cmc.pem'), rootStore: roots, domain: 'xometry.com', now: new Date('2025-01-15T00:00:00Z') });
    expect(report.details).toMatchObject({ certificateType: 'CMC', markType: 'Prior Use Mark' });
    expect(report.checks.find((check) => check.id === 'vmc.mark-type')).toMatchObject({ status: 'pass', title: 'Prior Use Mark (CMC)' });
  });

  it('warns about an older VMC that names no mark type, and fails it for another domain', () => {
    const report = validateMarkCertificate({ pem: certificate('cnn.pem'), rootStore: roots, domain: 'example.com', now: new Date('2022-01-15T00:00:00Z') });
    expect(statusOf(report.checks)).toMatchObject({ 'vmc.chain': 'pass', 'vmc.mark-type': 'warn', 'vmc.domain': 'fail' });
    expect(report.checks.find((check) => check.id === 'vmc.domain')?.detail).toMatch(/cnn\.com, not example\.com/);
  });

  it('fails a website certificate: no BIMI key purpose, no logo, no mark-certificate root', () => {
    const report = validateMarkCertificate({ pem: certificate('catchall.delivery.pem'), rootStore: roots, now: new Date('2022-08-01T00:00:00Z') });
    expect(statusOf(report.checks)).toMatchObject({ 'vmc.chain': 'fail', 'vmc.key-purpose': 'fail', 'vmc.logotype': 'fail' });
    expect(report.checks.find((check) => check.id === 'vmc.key-purpose')?.detail).toMatch(/1\.3\.6\.1\.5\.5\.7\.3\.1/);
    // "Not a mark certificate" is never shown beside "Certificate type: VMC" (issue 17).
    expect(report.details?.certificateType).toBeUndefined();
  });

  it('compares the published SVG with the logo in the certificate, byte for byte', () => {
    const pem = certificate('paypal_vmc.pem');
    const now = new Date('2025-01-15T00:00:00Z');
    const first = validateMarkCertificate({ pem, rootStore: roots, now });
    const embedded = Buffer.from(first.details!.logoDataUrl!.split(',')[1]!, 'base64');
    const same = validateMarkCertificate({ pem, rootStore: roots, now, publishedSvg: embedded });
    expect(same.checks.find((check) => check.id === 'vmc.logo-match')?.status).toBe('pass');
    const changed = validateMarkCertificate({ pem, rootStore: roots, now, publishedSvg: Buffer.concat([embedded, Buffer.from('\n')]) });
    expect(changed.checks.find((check) => check.id === 'vmc.logo-match')?.status).toBe('fail');
  });

  it('parses a bundle once, and still judges the moment, the domain and the published logo on every call', () => {
    // The certificate and its logotype extension are read with two AsnParser.parse calls.
    const parser = jest.spyOn(AsnParser, 'parse');
    // A text no other test validates (the same certificates plus a blank line), so the first call parses it.
    const pem = `${certificate('paypal_vmc.pem')}\n`;
    const valid = validateMarkCertificate({ pem, rootStore: roots, domain: 'paypal.com', now: new Date('2025-01-15T00:00:00Z') });
    const later = validateMarkCertificate({ pem, rootStore: roots, domain: 'example.com', now: new Date('2026-01-01T00:00:00Z'), publishedSvg: Buffer.from('<svg/>') });
    expect(parser).toHaveBeenCalledTimes(2);
    parser.mockRestore();
    expect(statusOf(valid.checks)).toMatchObject({ 'vmc.validity': 'pass', 'vmc.domain': 'pass' });
    expect(statusOf(later.checks)).toMatchObject({ 'vmc.chain': 'pass', 'vmc.validity': 'fail', 'vmc.domain': 'fail', 'vmc.logo-match': 'fail' });
    expect(later.details).toMatchObject({ subjectAltNames: ['paypal.com'], logoDataUrl: valid.details?.logoDataUrl });
  });

  it('refuses a file of 1,300 BEGIN lines (finding 1) at once, with a failed check saying why', () => {
    const { result: report, ms } = cpuMsOf(() => validateMarkCertificate({ pem: beginLineFlood(1300, 'unit'), rootStore: roots }));
    expect(ms).toBeLessThan(500);
    expect(report).toMatchObject({
      score: 0,
      details: undefined,
      checks: [{ id: 'vmc.pem', status: 'fail', title: 'Too many PEM blocks', detail: expect.stringMatching(/^The file holds 1,300 PEM blocks/) }],
    });
  });

  it('stops inflating an embedded logo at 32 KB (finding 2), judges the rest, and keeps none of it', async () => {
    const bomb = await logoBombCertificate();
    const parser = jest.spyOn(AsnParser, 'parse');
    const { result: report, ms } = cpuMsOf(() => validateMarkCertificate({ pem: bomb, rootStore: roots, domain: 'bomb.example' }));
    expect(ms).toBeLessThan(500);
    expect(statusOf(report.checks)).toMatchObject({ 'vmc.pem': 'pass', 'vmc.chain': 'fail', 'vmc.logotype': 'fail', 'vmc.domain': 'pass', 'vmc.key-purpose': 'pass' });
    expect(report.checks.find((check) => check.id === 'vmc.logotype')).toMatchObject({ title: 'Embedded logo too large', detail: expect.stringMatching(/more than 32 KB/) });
    expect(report.details?.logoDataUrl).toBeUndefined();
    expect(JSON.stringify(report).length).toBeLessThan(8 * 1024);
    // Not cached: the second validation reads the certificate again.
    validateMarkCertificate({ pem: bomb, rootStore: roots });
    expect(parser).toHaveBeenCalledTimes(4);
    parser.mockRestore();
  });

  it('warns loudly about a private key published with the certificate', () => {
    const report = validateMarkCertificate({ pem: `${certificate('paypal_vmc.pem')}-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n`, rootStore: roots });
    expect(report.checks).toEqual([expect.objectContaining({ id: 'vmc.pem', status: 'fail', title: 'The file holds a private key' })]);
  });

  it('reads a bundle saved with Windows line ends', () => {
    const report = validateMarkCertificate({ pem: certificate('paypal_vmc.pem').replace(/\n/g, '\r\n'), rootStore: roots, now: new Date('2025-01-15T00:00:00Z') });
    expect(statusOf(report.checks)).toMatchObject({ 'vmc.pem': 'pass', 'vmc.chain': 'pass', 'vmc.logotype': 'pass' });
  });

  it.each(['', 'not a certificate', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'])('answers %j with one failed check, never a throw', (pem) => {
    const report = validateMarkCertificate({ pem, rootStore: roots });
    expect(report.checks).toEqual([expect.objectContaining({ id: 'vmc.pem', status: 'fail' })]);
    expect(report.score).toBe(0);
  });
});
