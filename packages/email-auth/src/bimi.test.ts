import { buildBimiRecord, inspectBimi, parseBimi } from './bimi';
import { byId, expectFixes, ids } from './check-expectations';
import { memoryResolver } from './memory-resolver';
import { verdictOf } from './verdict';

const FULL = 'v=BIMI1; l=https://example.com/logo.svg; a=https://example.com/vmc.pem';

describe('parseBimi', () => {
  it('reads v, l, a, lps and avp', () => {
    const { isBimi, record, checks } = parseBimi(`${FULL}; lps=Marketing,news; avp=brand;`);
    expect(isBimi).toBe(true);
    expect(record).toMatchObject({
      logos: ['https://example.com/logo.svg'],
      evidence: 'https://example.com/vmc.pem',
      localParts: ['marketing', 'news'],
      avatarPreference: 'brand',
      declined: false,
    });
    expect(ids(checks)).toEqual(['bimi.l.valid', 'bimi.a.valid']);
  });

  it('judges the first 16 logo locations of a long l= list, and says there are too many', () => {
    const logos = Array.from({ length: 4000 }, (_, n) => (n === 3999 ? 'http://example.com/last.svg' : `https://example.com/${n}.svg`));
    const { checks } = parseBimi(`v=BIMI1; l=${logos.join(',')}`);
    expect(byId(checks, 'bimi.l.too-many')).toMatchObject({ status: 'fail', detail: expect.stringContaining('4000 addresses') });
    // The addresses past the first 16 are not listed or parsed one by one.
    expect(byId(checks, 'bimi.l.valid')?.detail).not.toContain('https://example.com/16.svg');
  });

  it('a record with empty l= and a= declines BIMI', () => {
    const { record, checks } = parseBimi('v=BIMI1; l=; a=;');
    expect(record.declined).toBe(true);
    expect(ids(checks)).toEqual(['bimi.declined']);
  });

  it.each([
    ['l=https://example.com/logo.svg; v=BIMI1', 'bimi.version', 'fail'],
    ['v=bimi1; l=https://example.com/logo.svg', 'bimi.version', 'fail'],
    ['v=BIMI1; a=https://example.com/vmc.pem', 'bimi.l.missing', 'fail'],
    ['v=BIMI1; l=http://example.com/logo.svg', 'bimi.l.https', 'fail'],
    ['v=BIMI1; l=example.com/logo.svg', 'bimi.l.https', 'fail'],
    ['v=BIMI1; l=https://example.com/logo.png', 'bimi.l.svg', 'warn'],
    ['v=BIMI1; l=https://example.com/logo.svg', 'bimi.a.missing', 'warn'],
    ['v=BIMI1; l=https://example.com/logo.svg; a=self', 'bimi.a.self', 'warn'],
    ['v=BIMI1; l=https://example.com/logo.svg; a=http://example.com/vmc.pem', 'bimi.a.https', 'fail'],
    ['v=BIMI1; l=https://example.com/logo.svg; a=https://example.com/vmc.crt', 'bimi.a.pem', 'warn'],
    ['v=BIMI1; l=; a=https://example.com/vmc.pem', 'bimi.l.from-evidence', 'info'],
    [`${FULL}; avp=maybe`, 'bimi.avp.invalid', 'fail'],
    [`${FULL}; lps=a@b`, 'bimi.lps.invalid', 'fail'],
    [`${FULL}; lps=`, 'bimi.lps.invalid', 'fail'],
    [`${FULL}; junk`, 'bimi.syntax.malformed', 'fail'],
    [`${FULL}; l=https://example.com/2.svg`, 'bimi.syntax.duplicate', 'fail'],
    [`${FULL}; z=1`, 'bimi.syntax.unknown', 'info'],
    [`v=BIMI1; l=${Array.from({ length: 17 }, (_, n) => `https://example.com/${n}.svg`).join(',')}`, 'bimi.l.too-many', 'fail'],
  ])('%s → %s (%s)', (text, id, status) => {
    const { checks } = parseBimi(text);
    expect(byId(checks, id)?.status).toBe(status);
    expectFixes(checks);
  });
});

describe('inspectBimi', () => {
  const dns = memoryResolver({
    'default._bimi.example.com': { TXT: [FULL] },
    '_dmarc.example.com': { TXT: ['v=DMARC1; p=reject; rua=mailto:d@example.com'] },
    'brand._bimi.example.com': { TXT: ['v=BIMI1; l=https://example.com/brand.svg'] },
    'default._bimi.monitor.test': { TXT: [FULL] },
    '_dmarc.monitor.test': { TXT: ['v=DMARC1; p=none; rua=mailto:d@monitor.test'] },
    'default._bimi.nodmarc.test': { TXT: [FULL] },
    'default._bimi.declined.test': { TXT: ['v=BIMI1; l=; a=;'] },
    '_dmarc.declined.test': { TXT: ['v=DMARC1; p=reject'] },
    'default._bimi.twice.test': { TXT: [FULL, 'v=BIMI1; l=https://example.com/other.svg'] },
    'default._bimi.broken.test': { error: 'ESERVFAIL' },
    'default._bimi.sub.lax.test': { TXT: [FULL] },
    '_dmarc.sub.lax.test': { TXT: ['v=DMARC1; p=reject'] },
    '_dmarc.lax.test': { TXT: ['v=DMARC1; p=none'] },
    'default._bimi.dmarcdown.test': { TXT: [FULL] },
    '_dmarc.dmarcdown.test': { error: 'ETIMEOUT' },
    'default._bimi.mail.orgdown.test': { TXT: [FULL] },
    '_dmarc.mail.orgdown.test': { TXT: ['v=DMARC1; p=reject'] },
    '_dmarc.orgdown.test': { error: 'ETIMEOUT' },
  });

  it('a DMARC lookup that fails is "could not check", not a failure: the headline says so and lists nothing as wrong', async () => {
    const result = await inspectBimi('dmarcdown.test', {}, dns);
    expect(byId(result.checks, 'bimi.dmarc.error')?.status).toBe('unreachable');
    expect(result.checks.filter((check) => check.status === 'fail' || check.status === 'absent')).toEqual([]);
    expect(result.details.dmarcReady).toBe(false);
    const verdict = verdictOf('bimi', result.checks, result.score);
    expect(verdict).toMatchObject({ status: 'unreachable', headline: 'Cannot tell yet: the DMARC lookup failed, so BIMI’s requirements could not be checked. Try again' });
    expect(verdict.score).toBeUndefined();
    // The organizational domain's lookup, for a subdomain with a record of its own: the same.
    const sub = await inspectBimi('mail.orgdown.test', {}, dns);
    expect(byId(sub.checks, 'bimi.dmarc.error')?.status).toBe('unreachable');
    expect(byId(sub.checks, 'bimi.dmarc.org-policy')).toBeUndefined();
  });

  it('a complete setup passes: record, certificate, enforced DMARC', async () => {
    const result = await inspectBimi('example.com', {}, dns);
    expect(ids(result.checks)).toEqual(['bimi.record.found', 'bimi.l.valid', 'bimi.a.valid', 'bimi.dmarc.policy']);
    expect(result.details).toMatchObject({ selector: 'default', recordDomain: 'example.com', inherited: false, dmarcReady: true, record: { evidence: 'https://example.com/vmc.pem' } });
    expect(result.records.map((record) => record.name)).toEqual(['default._bimi.example.com', '_dmarc.example.com']);
    expect(result.score).toBe(100);
  });

  it('looks up a given selector; without a certificate the score is capped at 70', async () => {
    const result = await inspectBimi('example.com', { selector: 'brand' }, dns);
    expect(result.records[0]?.name).toBe('brand._bimi.example.com');
    expect(byId(result.checks, 'bimi.a.missing')?.status).toBe('warn');
    expect(result.score).toBeLessThanOrEqual(70);
  });

  it("a subdomain without a record uses the organizational domain's record and DMARC", async () => {
    const result = await inspectBimi('news.example.com', {}, dns);
    expect(result.details).toMatchObject({ recordDomain: 'example.com', inherited: true, dmarcReady: true });
    expect(byId(result.checks, 'bimi.record.inherited')?.status).toBe('info');
  });

  it.each([
    ['monitor.test', 'bimi.dmarc.policy'],
    ['nodmarc.test', 'bimi.dmarc.missing'],
    ['sub.lax.test', 'bimi.dmarc.org-policy'],
  ])('%s: DMARC not enforced fails %s and caps the score at 40', async (domain, id) => {
    const result = await inspectBimi(domain, {}, dns);
    expect(byId(result.checks, id)?.status).toBe('fail');
    expect(result.details.dmarcReady).toBe(false);
    expect(result.score).toBeLessThanOrEqual(40);
    expectFixes(result.checks);
  });

  it.each([
    ['nothing.test', 'bimi.record.missing', 'absent'],
    ['twice.test', 'bimi.record.multiple', 'fail'],
    ['broken.test', 'bimi.lookup.error', 'unreachable'],
  ])('%s: %s (%s) scores 0', async (domain, id, status) => {
    const result = await inspectBimi(domain, {}, dns);
    expect(byId(result.checks, id)?.status).toBe(status);
    expect(result.score).toBe(0);
    expectFixes(result.checks);
  });

  // Issue 32: the record says no logo, so the logo is absent (its score 0 says the same); not an info beside a red answer.
  it('a declination record scores 0 with an absent check', async () => {
    const result = await inspectBimi('declined.test', {}, dns);
    expect(byId(result.checks, 'bimi.declined')?.status).toBe('absent');
    expect(result.score).toBe(0);
  });

  it('hands over the record before the DMARC lookups end, so the logo and certificate fetches need not wait for them', async () => {
    let answerDmarc = () => {};
    const dmarcAsked = new Promise<void>((resolve) => {
      answerDmarc = resolve;
    });
    const slowDmarc = { ...dns, resolveTxt: async (name: string) => (name.startsWith('_dmarc.') ? dmarcAsked.then(() => dns.resolveTxt(name)) : dns.resolveTxt(name)) };
    const onRecord = jest.fn();
    const inspection = inspectBimi('news.example.com', { onRecord }, slowDmarc);
    // Only lookups answered so far: the record, found at the organizational domain; DMARC still waits.
    await new Promise((resolve) => setImmediate(resolve));
    expect(onRecord).toHaveBeenCalledWith(expect.objectContaining({ logos: ['https://example.com/logo.svg'], evidence: 'https://example.com/vmc.pem' }));
    answerDmarc();
    const result = await inspection;
    expect(result.details.record).toBe(onRecord.mock.calls[0]?.[0]);
    expect(result.details.dmarcReady).toBe(true);
    for (const domain of ['nothing.test', 'twice.test', 'broken.test']) await inspectBimi(domain, { onRecord }, dns);
    expect(onRecord).toHaveBeenCalledTimes(1);
  });

  it('rejects a bad domain or selector', async () => {
    expect(ids((await inspectBimi('x', {}, dns)).checks)).toEqual(['bimi.domain.invalid']);
    expect(ids((await inspectBimi('example.com', { selector: 'no good' }, dns)).checks)).toEqual(['bimi.selector.invalid']);
  });
});

describe('buildBimiRecord', () => {
  it('builds a record that parses back cleanly', () => {
    const built = buildBimiRecord({ domain: 'example.com', logo: 'https://example.com/logo.svg', evidence: 'https://example.com/vmc.pem', avatarPreference: 'brand' });
    expect(built).toEqual({
      record: 'v=BIMI1; l=https://example.com/logo.svg; a=https://example.com/vmc.pem; avp=brand;',
      name: 'default._bimi.example.com',
      errors: [],
      warnings: [],
      strings: ['v=BIMI1; l=https://example.com/logo.svg; a=https://example.com/vmc.pem; avp=brand;'],
    });
    expect(parseBimi(built.record).checks.every((check) => check.status === 'pass')).toBe(true);
  });

  it('builds the declination record when both addresses are empty, and warns without a certificate', () => {
    expect(buildBimiRecord({ selector: 'Brand' })).toMatchObject({ record: 'v=BIMI1; l=; a=;', name: 'brand._bimi' });
    expect(buildBimiRecord({ logo: 'https://example.com/logo.svg' })).toMatchObject({ record: 'v=BIMI1; l=https://example.com/logo.svg;', warnings: [expect.stringContaining('Gmail')] });
  });

  it('explains bad input and builds nothing', () => {
    const built = buildBimiRecord({ domain: 'nope', selector: 'a b', logo: 'http://example.com/logo.svg', evidence: 'ftp://x', avatarPreference: 'team' as never });
    expect(built.record).toBe('');
    expect(built.errors).toHaveLength(5);
  });
});
