import { byId, expectFixes } from './check-expectations';
import { inspectDmarc, parseDmarc } from './dmarc';
import { memoryResolver, type Zone } from './memory-resolver';

/** DMARC as RFC 7489 and RFC 9989 word it, rule by rule, and where the two answer differently. */

describe('RFC 7489 §6.4 / RFC 9989 §4.7: the version tag and tag names', () => {
  it('tag names, and the v tag\'s name, are case-insensitive: "V=DMARC1; P=reject" has policy reject', () => {
    const { isDmarc, record, checks } = parseDmarc('V=DMARC1; P=reject; ADKIM=S; Rua=mailto:d@example.com');
    expect(isDmarc).toBe(true);
    expect(record).toMatchObject({ p: 'reject', adkim: 's', rua: [expect.objectContaining({ address: 'd@example.com' })] });
    expect(byId(checks, 'dmarc.syntax.unknown')).toBeUndefined();
    expect(byId(checks, 'dmarc.policy.reject')?.status).toBe('pass');
  });

  it('the value DMARC1 is case-sensitive', () => {
    expect(parseDmarc('v=dmarc1; p=reject').isDmarc).toBe(false);
    expect(parseDmarc('v=Dmarc1; p=reject').isDmarc).toBe(false);
  });

  it('a record must start with v=: a leading space is not a DMARC record; spaces around "=" are allowed', () => {
    const spaced = parseDmarc(' v=DMARC1; p=reject');
    expect(spaced.isDmarc).toBe(false);
    expect(spaced.checks[0]).toMatchObject({ id: 'dmarc.version', title: 'Record starts with a space' });
    expectFixes(spaced.checks);
    expect(parseDmarc('v =\tDMARC1; p=reject').isDmarc).toBe(true);
  });

  it('a tag named twice in different case is a duplicate', () => {
    expect(byId(parseDmarc('v=DMARC1; p=none; P=reject').checks, 'dmarc.syntax.duplicate')?.status).toBe('fail');
  });
});

describe('RFC 7489 §6.6.3: a record without a valid p=', () => {
  it('with a valid rua= is treated as p=none: a warning that says so, not a failure', () => {
    const { record, checks } = parseDmarc('v=DMARC1; rua=mailto:dmarc@example.com');
    expect(record.fallback).toEqual({ rfc7489: 'none', rfc9989: 'none' });
    expect(byId(checks, 'dmarc.policy.missing')).toMatchObject({ status: 'warn', title: 'No valid policy: treated as p=none' });
    expect(byId(parseDmarc('v=DMARC1; p=block; rua=mailto:dmarc@example.com').checks, 'dmarc.policy.invalid')?.status).toBe('warn');
    expectFixes(checks);
  });

  it('without a valid rua= it is a failure: RFC 7489 ignores the record', () => {
    expect(parseDmarc('v=DMARC1; rua=nobody').record.fallback).toEqual({ rfc7489: 'ignored', rfc9989: 'none' });
    expect(byId(parseDmarc('v=DMARC1').checks, 'dmarc.policy.missing')?.status).toBe('fail');
  });

  it('an invalid sp= has the same effect', () => {
    expect(parseDmarc('v=DMARC1; p=reject; sp=maybe; rua=mailto:d@example.com').record.fallback).toEqual({ rfc7489: 'none', rfc9989: 'none' });
  });

  it('the inspection reports policy none and grades it as none (ceiling 50)', async () => {
    const result = await inspectDmarc('example.com', memoryResolver({ '_dmarc.example.com': { TXT: ['v=DMARC1; rua=mailto:dmarc@example.com'] } }));
    expect(result.details).toMatchObject({ policy: 'none', rfc9989: { policy: 'none', policyTag: 'p' }, differences: [] });
    expect(result.score).toBeLessThanOrEqual(50);
    expect(result.score).toBeGreaterThan(30);
  });
});

describe('RFC 9989: removed tags are obsolete, not invalid; np, psd and t', () => {
  it.each(['pct=100', 'rf=iodef', 'rf=afrf', 'ri=86400'])('%s is reported as obsolete', (tag) => {
    const { checks } = parseDmarc(`v=DMARC1; p=reject; ${tag}`);
    expect(checks.find((check) => check.id.endsWith('.obsolete'))?.status).toBe('info');
    expect(checks.filter((check) => check.status === 'fail')).toEqual([]);
  });

  // Issue 32, finding 6: an invalid value is a warning (as checkdmarc says), never a failure.
  it.each([
    ['pct=50x', 'dmarc.pct.invalid'],
    ['pct=150', 'dmarc.pct.invalid'],
    ['rf=xml', 'dmarc.rf.invalid'],
    ['rf=afrf:pdf', 'dmarc.rf.invalid'],
    ['ri=daily', 'dmarc.ri.invalid'],
  ])('%s is an invalid value: a warning', (tag, id) => {
    const { checks } = parseDmarc(`v=DMARC1; p=reject; ${tag}`);
    expect(checks.find((check) => check.id === id)?.status).toBe('warn');
    expect(checks.filter((check) => check.status === 'fail')).toEqual([]);
  });

  it.each([
    ['np=reject', 'dmarc.np.valid', 'pass'],
    ['np=maybe', 'dmarc.np.invalid', 'fail'],
    ['psd=y', undefined, undefined],
    ['psd=x', 'dmarc.psd.invalid', 'fail'],
    ['t=y', 'dmarc.t.testing', 'warn'],
    ['t=maybe', 'dmarc.t.invalid', 'fail'],
  ])('%s → %s', (tag, id, status) => {
    const { checks } = parseDmarc(`v=DMARC1; p=reject; ${tag}`);
    if (id) expect(byId(checks, id)?.status).toBe(status);
    else expect(checks.filter((check) => check.status === 'fail')).toEqual([]);
  });
});

describe('RFC 9989 §4.10: the DNS tree walk, and where RFC 7489 answers differently', () => {
  const zone: Zone = {
    '_dmarc.example.com': { TXT: ['v=DMARC1; p=reject; rua=mailto:d@example.com'] },
    '_dmarc.mail.example.com': { TXT: ['v=DMARC1; p=quarantine; rua=mailto:d@example.com'] },
    'a.mail.example.com': { A: ['192.0.2.1'] },
    '_dmarc.brand.test': { TXT: ['v=DMARC1; p=reject; sp=none; np=reject; psd=n; rua=mailto:d@brand.test'] },
    'www.brand.test': { A: ['192.0.2.1'] },
    '_dmarc.test': { TXT: ['v=DMARC1; p=reject; psd=y'] },
    '_dmarc.testing.example': { TXT: ['v=DMARC1; p=reject; t=y; rua=mailto:d@testing.example'] },
    '_dmarc.partial.example': { TXT: ['v=DMARC1; p=reject; pct=50; rua=mailto:d@partial.example'] },
    '_dmarc.nop.example': { TXT: ['v=DMARC1; adkim=s'] },
  };

  it('the same answer from both: said so', async () => {
    const result = await inspectDmarc('example.com', memoryResolver(zone));
    expect(result.details.differences).toEqual([]);
    expect(byId(result.checks, 'dmarc.rfc.agree')?.status).toBe('info');
  });

  it('a record on an intermediate name: RFC 9989 finds it by walking, RFC 7489 jumps to the organizational domain', async () => {
    const result = await inspectDmarc('a.mail.example.com', memoryResolver(zone));
    expect(result.details).toMatchObject({
      recordDomain: 'example.com',
      policy: 'reject',
      rfc9989: { recordDomain: 'mail.example.com', policy: 'quarantine', policyTag: 'p', organizationalDomain: 'example.com' },
    });
    expect(result.details.differences).toEqual([
      { aspect: 'policy record', rfc7489: '_dmarc.example.com', rfc9989: '_dmarc.mail.example.com' },
      { aspect: 'policy', rfc7489: 'reject', rfc9989: 'quarantine' },
    ]);
    expect(byId(result.checks, 'dmarc.rfc.differ')?.detail).toContain('policy record: _dmarc.example.com by RFC 7489, _dmarc.mail.example.com by RFC 9989');
  });

  it('a name of five or more labels jumps to its last four, then walks to the top: at most five names', async () => {
    const dns = memoryResolver({});
    const result = await inspectDmarc('a.b.c.d.e.example.com', dns);
    expect(result.details.rfc9989?.queried).toEqual(['_dmarc.a.b.c.d.e.example.com', '_dmarc.d.e.example.com', '_dmarc.e.example.com', '_dmarc.example.com', '_dmarc.com']);
  });

  it('psd=n marks the organizational domain; np= applies to names that do not exist, sp= to those that do', async () => {
    const ghost = await inspectDmarc('ghost.brand.test', memoryResolver(zone));
    expect(ghost.details.rfc9989).toMatchObject({ organizationalDomain: 'brand.test', recordDomain: 'brand.test', policy: 'reject', policyTag: 'np' });
    expect(ghost.details.policy).toBe('none');
    expect(ghost.details.differences).toContainEqual({ aspect: 'policy', rfc7489: 'none', rfc9989: 'reject' });
    const www = await inspectDmarc('www.brand.test', memoryResolver(zone));
    expect(www.details.rfc9989).toMatchObject({ policy: 'none', policyTag: 'sp' });
  });

  it('psd=y on a public suffix: the organizational domain is the name one label below it', async () => {
    const result = await inspectDmarc('mail.shop.test', memoryResolver(zone));
    expect(result.details.rfc9989).toMatchObject({ organizationalDomain: 'shop.test', recordDomain: 'test', policy: 'reject' });
    // RFC 7489 stops at the organizational domain and finds nothing.
    expect(byId(result.checks, 'dmarc.record.missing')?.status).toBe('absent');
    expect(result.details.differences).toContainEqual({ aspect: 'policy record', rfc7489: 'none found', rfc9989: '_dmarc.test' });
  });

  it('t=y softens the policy one level in RFC 9989; pct=50 halves it in RFC 7489 only', async () => {
    expect((await inspectDmarc('testing.example', memoryResolver(zone))).details.differences).toEqual([
      { aspect: 'policy', rfc7489: 'reject', rfc9989: 'quarantine (t=y: one level softer)' },
    ]);
    expect((await inspectDmarc('partial.example', memoryResolver(zone))).details.differences).toEqual([{ aspect: 'policy', rfc7489: 'reject on 50% of failing mail', rfc9989: 'reject' }]);
  });

  it('a record without p= or rua=: RFC 7489 ignores it, RFC 9989 applies p=none', async () => {
    const result = await inspectDmarc('nop.example', memoryResolver(zone));
    expect(result.details.policy).toBeUndefined();
    expect(result.details.differences).toEqual([{ aspect: 'policy', rfc7489: 'no policy (record ignored)', rfc9989: 'none' }]);
  });
});
