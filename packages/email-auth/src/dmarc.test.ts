import { buildDmarcRecord, checkBimiReadiness, inspectDmarc, parseDmarc } from './dmarc';
import { byId, expectFixes, ids } from './check-expectations';
import { memoryResolver, type Zone } from './memory-resolver';

describe('parseDmarc', () => {
  it('reads every tag of a full record', () => {
    const { isDmarc, record, checks } = parseDmarc('v=DMARC1; p=reject; sp=quarantine; np=reject; adkim=s; aspf=r; fo=1:d; rua=mailto:agg@example.com!10m; ruf=mailto:fail@example.com');
    expect(isDmarc).toBe(true);
    expect(record).toMatchObject({ p: 'reject', sp: 'quarantine', np: 'reject', pct: 100, adkim: 's', aspf: 'r', fo: ['1', 'd'], testing: false });
    expect(record.rua).toEqual([{ uri: 'mailto:agg@example.com!10m', scheme: 'mailto', address: 'agg@example.com', domain: 'example.com', maxSize: '10m', valid: true }]);
    expect(ids(checks)).toEqual(expect.arrayContaining(['dmarc.policy.reject', 'dmarc.sp.weaker', 'dmarc.np.valid', 'dmarc.adkim.strict', 'dmarc.rua.valid', 'dmarc.ruf.valid']));
    expectFixes(checks);
  });

  it('RFC 7489 §6.6.3: a record whose first tag is not v=DMARC1 is not a DMARC record', () => {
    for (const text of ['p=reject; v=DMARC1', 'v=dmarc1; p=reject', 'v=DMARC2; p=none', '', 'hello']) {
      const result = parseDmarc(text);
      expect(result.isDmarc).toBe(false);
      expect(ids(result.checks)).toEqual(['dmarc.version']);
      expectFixes(result.checks);
    }
    expect(parseDmarc('v = DMARC1 ;p=none').isDmarc).toBe(true);
    expect(parseDmarc('v=DMARC1 p=reject').checks[0]?.title).toBe('Missing semicolon after v=DMARC1');
  });

  it('fails malformed pieces and duplicate tags, warns on unknown tags', () => {
    const { checks } = parseDmarc('v=DMARC1; p=none; junk; p=reject; =x; foo=bar');
    expect(byId(checks, 'dmarc.syntax.malformed')?.status).toBe('fail');
    expect(byId(checks, 'dmarc.syntax.duplicate')?.detail).toContain('p');
    expect(byId(checks, 'dmarc.syntax.unknown')?.detail).toContain('foo');
    expectFixes(checks);
  });

  it.each([
    ['v=DMARC1', 'dmarc.policy.missing', 'fail'],
    ['v=DMARC1; p=block', 'dmarc.policy.invalid', 'fail'],
    ['v=DMARC1; p=none', 'dmarc.policy.none', 'warn'],
    ['v=DMARC1; p=quarantine', 'dmarc.policy.quarantine', 'pass'],
    ['v=DMARC1; p=REJECT', 'dmarc.policy.reject', 'pass'],
    ['v=DMARC1; p=reject; sp=none', 'dmarc.sp.none', 'warn'],
    ['v=DMARC1; p=reject; sp=maybe', 'dmarc.sp.invalid', 'fail'],
    ['v=DMARC1; p=reject; sp=reject', 'dmarc.sp.valid', 'pass'],
    ['v=DMARC1; p=reject; np=none', 'dmarc.np.weaker', 'warn'],
    ['v=DMARC1; p=reject; np=x', 'dmarc.np.invalid', 'fail'],
    // Issue 32: an invalid value is a warning (checkdmarc warns), not only an obsolete tag.
    ['v=DMARC1; p=reject; pct=101', 'dmarc.pct.invalid', 'warn'],
    ['v=DMARC1; p=reject; pct=-1', 'dmarc.pct.invalid', 'warn'],
    ['v=DMARC1; p=reject; pct=50', 'dmarc.pct.partial', 'warn'],
    ['v=DMARC1; p=reject; pct=100', 'dmarc.pct.obsolete', 'info'],
    ['v=DMARC1; p=reject; t=y', 'dmarc.t.testing', 'warn'],
    ['v=DMARC1; p=reject; t=maybe', 'dmarc.t.invalid', 'fail'],
    ['v=DMARC1; p=reject; psd=x', 'dmarc.psd.invalid', 'fail'],
    ['v=DMARC1; p=reject; adkim=x', 'dmarc.adkim.invalid', 'fail'],
    ['v=DMARC1; p=reject; aspf=relaxed', 'dmarc.aspf.invalid', 'fail'],
    ['v=DMARC1; p=reject; aspf=s', 'dmarc.aspf.strict', 'info'],
    // Hygiene is never red (issue 32): reporting mistakes are warnings.
    ['v=DMARC1; p=reject; fo=2', 'dmarc.fo.invalid', 'warn'],
    ['v=DMARC1; p=reject; fo=1', 'dmarc.fo.unused', 'info'],
    ['v=DMARC1; p=reject; rf=iodef', 'dmarc.rf.obsolete', 'info'],
    ['v=DMARC1; p=reject; rf=afrf', 'dmarc.rf.obsolete', 'info'],
    ['v=DMARC1; p=reject; ri=daily', 'dmarc.ri.invalid', 'warn'],
    ['v=DMARC1; p=reject; rf=xml', 'dmarc.rf.invalid', 'warn'],
    ['v=DMARC1; p=reject; ri=86400', 'dmarc.ri.obsolete', 'info'],
    ['v=DMARC1; p=reject', 'dmarc.rua.missing', 'warn'],
    ['v=DMARC1; p=reject; rua=https://example.com/report', 'dmarc.rua.scheme', 'warn'],
    ['v=DMARC1; p=reject; rua=dmarc@example.com', 'dmarc.rua.scheme', 'warn'],
    ['v=DMARC1; p=reject; rua=mailto:not-an-address', 'dmarc.rua.address', 'warn'],
    ['v=DMARC1; p=reject; ruf=ftp://example.com', 'dmarc.ruf.scheme', 'warn'],
    ['v=DMARC1; p=reject; rua=mailto:a@example.com,mailto:b@example.net', 'dmarc.rua.valid', 'pass'],
  ])('%s → %s (%s)', (text, id, status) => {
    const { checks } = parseDmarc(text);
    expect(byId(checks, id)?.status).toBe(status);
    expectFixes(checks);
  });
});

describe('checkBimiReadiness', () => {
  const record = (text: string) => parseDmarc(text).record;

  it('is ready with an enforced policy on all mail', () => {
    expect(checkBimiReadiness(record('v=DMARC1; p=quarantine')).ready).toBe(true);
    expect(checkBimiReadiness(record('v=DMARC1; p=reject; pct=100; sp=reject')).ready).toBe(true);
  });

  it.each([
    ['v=DMARC1; p=none', 'bimi.dmarc.policy'],
    ['v=DMARC1; p=reject; pct=90', 'bimi.dmarc.pct'],
    ['v=DMARC1; p=reject; sp=none', 'bimi.dmarc.sp'],
    ['v=DMARC1; p=reject; t=y', 'bimi.dmarc.testing'],
  ])('is not ready: %s fails %s', (text, id) => {
    const result = checkBimiReadiness(record(text));
    expect(result.ready).toBe(false);
    expect(byId(result.checks, id)?.status).toBe('fail');
    expectFixes(result.checks);
  });

  it('judges a subdomain by the sp= of its organizational domain', () => {
    expect(checkBimiReadiness(record('v=DMARC1; p=reject; sp=none'), { forSubdomain: true }).ready).toBe(false);
    expect(checkBimiReadiness(record('v=DMARC1; p=none; sp=reject'), { forSubdomain: true }).ready).toBe(true);
    expect(checkBimiReadiness(null).checks[0]?.id).toBe('bimi.dmarc.missing');
  });
});

describe('inspectDmarc', () => {
  const zone: Zone = {
    '_dmarc.example.com': { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@example.com', 'google-site-verification=abc'] },
    '_dmarc.monitor.test': { TXT: [['v=DMARC1; p=none; ', 'rua=mailto:d@monitor.test']] },
    '_dmarc.twice.test': { TXT: ['v=DMARC1; p=none', 'v=DMARC1; p=reject'] },
    '_dmarc.broken.test': { error: 'ESERVFAIL' },
    '_dmarc.slow.test': { error: 'ETIMEOUT' },
    '_dmarc.outsourced.test': { TXT: ['v=DMARC1; p=quarantine; rua=mailto:reports@vendor.example,mailto:me@outsourced.test; ruf=mailto:f@other.example'] },
    'outsourced.test._report._dmarc.vendor.example': { TXT: ['v=DMARC1'] },
    '_dmarc.co.uk': { TXT: ['v=DMARC1; p=reject'] },
    '_dmarc.shop.co.uk': { TXT: ['v=DMARC1; p=reject; sp=none; rua=mailto:d@shop.co.uk'] },
    '_dmarc.wrongorder.test': { TXT: ['p=reject; v=DMARC1'] },
  };
  const dns = memoryResolver(zone);

  it('finds one record, ignores other TXT records at the name and scores p=reject 100', async () => {
    const result = await inspectDmarc('Example.COM.', dns);
    expect(result.records).toHaveLength(2);
    expect(result.details).toMatchObject({ domain: 'example.com', recordDomain: 'example.com', inherited: false, policy: 'reject', bimiReady: true });
    expect(ids(result.checks)).toEqual(expect.arrayContaining(['dmarc.record.found', 'dmarc.policy.reject', 'dmarc.record.other', 'dmarc.bimi.ready']));
    expect(result.score).toBe(100);
    expectFixes(result.checks);
  });

  it('joins a record split into several TXT strings; p=none caps the score at 50', async () => {
    const result = await inspectDmarc('monitor.test', dns);
    expect(result.details.record?.rua[0]?.address).toBe('d@monitor.test');
    expect(byId(result.checks, 'dmarc.bimi.not-ready')?.status).toBe('info');
    expect(result.score).toBeLessThanOrEqual(50);
  });

  it('RFC 7489 §6.6.3: no record at all fails and scores 0', async () => {
    const result = await inspectDmarc('nothing.test', dns);
    expect(ids(result.checks)).toEqual(['dmarc.record.missing']);
    expect(result.score).toBe(0);
    expectFixes(result.checks);
  });

  it('RFC 7489 §6.6.3: several records mean no policy at all', async () => {
    const result = await inspectDmarc('twice.test', dns);
    expect(byId(result.checks, 'dmarc.record.multiple')?.status).toBe('fail');
    expect(result.score).toBe(0);
  });

  it('a record that does not start with v=DMARC1 is reported, not used', async () => {
    const result = await inspectDmarc('wrongorder.test', dns);
    expect(ids(result.checks)).toEqual(['dmarc.version', 'dmarc.record.missing']);
  });

  it.each([
    ['broken.test', 'ESERVFAIL'],
    ['slow.test', 'ETIMEOUT'],
  ])('a DNS failure (%s) is a clear failed lookup, not a missing record', async (domain, code) => {
    const result = await inspectDmarc(domain, dns);
    expect(ids(result.checks)).toEqual(['dmarc.lookup.error']);
    expect(result.checks[0]?.detail).toContain(code);
    expectFixes(result.checks);
  });

  it('a resolver that throws something odd never crashes the inspection', async () => {
    const odd = { ...dns, resolveTxt: () => Promise.reject('not even an Error') };
    const result = await inspectDmarc('example.com', odd);
    expect(result.checks[0]?.id).toBe('dmarc.lookup.error');
  });

  it('RFC 7489 §6.6.3: a subdomain without a record falls back to the organizational domain (public suffix list) and its sp=', async () => {
    const result = await inspectDmarc('mail.shop.co.uk', dns);
    expect(result.details).toMatchObject({ organizationalDomain: 'shop.co.uk', recordDomain: 'shop.co.uk', inherited: true, policy: 'none', bimiReady: false });
    expect(byId(result.checks, 'dmarc.record.inherited')?.status).toBe('info');
    expect(dns.queries).toContain('TXT _dmarc.shop.co.uk');
    // RFC 7489 stops at the organizational domain; RFC 9989's tree walk goes on to the top, each name asked once.
    const asked = dns.queries.filter((query) => query.startsWith('TXT'));
    expect(asked.slice(asked.indexOf('TXT _dmarc.mail.shop.co.uk'))).toEqual(['TXT _dmarc.mail.shop.co.uk', 'TXT _dmarc.shop.co.uk', 'TXT _dmarc.co.uk', 'TXT _dmarc.uk']);
  });

  it('RFC 7489 §7.1: reports to another domain need its _report._dmarc authorization record', async () => {
    const result = await inspectDmarc('outsourced.test', dns);
    expect(byId(result.checks, 'dmarc.rua.authorized')?.detail).toContain('vendor.example');
    const refused = byId(result.checks, 'dmarc.ruf.unauthorized');
    // Hygiene: a warning, never a red fail (issue 32).
    expect(refused?.status).toBe('warn');
    expect(refused?.fix).toContain('outsourced.test._report._dmarc.other.example');
    expect(result.checks.filter((check) => check.id.endsWith('authorized'))).toHaveLength(2);
    // "Failure reports go to …" does not name an address receivers will not send to.
    expect(byId(result.checks, 'dmarc.ruf.valid')?.detail ?? '').not.toContain('other.example');
  });

  it('a report authorization lookup that fails is could not check, not a warning', async () => {
    const result = await inspectDmarc(
      'outsourced-down.test',
      memoryResolver({
        '_dmarc.outsourced-down.test': { TXT: ['v=DMARC1; p=reject; rua=mailto:agg@vendor-down.example'] },
        'outsourced-down.test._report._dmarc.vendor-down.example': { error: 'ETIMEOUT' },
      }),
    );
    expect(byId(result.checks, 'dmarc.rua.authorization-error')?.status).toBe('unreachable');
  });

  // A record naming hundreds of report domains made a lookup each on one anonymous request (the code review of 2026-11-28).
  it('looks up the authorization of ten external report domains at most, and says the rest were not checked', async () => {
    const rua = Array.from({ length: 30 }, (_, index) => `mailto:a@d${index}.example`).join(',');
    const dns = memoryResolver({ '_dmarc.example.com': { TXT: [`v=DMARC1; p=reject; rua=${rua}`] } });
    const result = await inspectDmarc('example.com', dns);
    expect(dns.queries.filter((query) => query.includes('._report._dmarc.'))).toHaveLength(10);
    expect(byId(result.checks, 'dmarc.report-domains.unchecked')).toMatchObject({
      status: 'info',
      detail: 'Reports go to 30 other domains; the authorization of the first 10 was checked, not that of the other 20.',
    });
  });

  it('rejects what is not a domain without querying DNS', async () => {
    const quiet = memoryResolver({});
    for (const input of ['', 'not a domain', '1.2.3.4', 'localhost', 'a..b']) {
      const result = await inspectDmarc(input, quiet);
      expect(ids(result.checks)).toEqual(['dmarc.domain.invalid']);
    }
    expect(quiet.queries).toEqual([]);
  });
});

describe('buildDmarcRecord', () => {
  it('builds a record from the generator fields', () => {
    expect(
      buildDmarcRecord({
        domain: 'example.com',
        p: 'quarantine',
        sp: 'reject',
        np: 'reject',
        pct: 50,
        rua: ['mailto:a@example.com', 'b@example.net'],
        ruf: [],
        adkim: 's',
        aspf: 'r',
        fo: ['1'],
      }),
    ).toEqual({
      record: 'v=DMARC1; p=quarantine; sp=reject; np=reject; pct=50; adkim=s; rua=mailto:a@example.com,mailto:b@example.net; fo=1',
      name: '_dmarc.example.com',
      errors: [],
    });
    expect(buildDmarcRecord({ p: 'reject', testing: true })).toEqual({ record: 'v=DMARC1; p=reject; t=y', name: '_dmarc', errors: [] });
  });

  it('what it builds parses back without failures', () => {
    const built = buildDmarcRecord({ p: 'reject', rua: ['d@example.com'] });
    const parsed = parseDmarc(built.record);
    expect(parsed.isDmarc).toBe(true);
    expect(parsed.checks.filter((check) => check.status === 'fail')).toEqual([]);
  });

  it('explains every bad field and builds nothing', () => {
    const built = buildDmarcRecord({ domain: 'bad domain', p: 'block', pct: 150, rua: ['nobody'], adkim: 'x', fo: ['9'] });
    expect(built.record).toBe('');
    expect(built.errors).toHaveLength(6);
    expect(buildDmarcRecord({ p: '' }).errors).toEqual(['Choose a policy: none, quarantine or reject.']);
  });

  it('input of the wrong shape (from an untyped caller) is an error, not a throw', () => {
    expect(buildDmarcRecord({ p: 5, rua: 'a@example.com' } as never).errors).toEqual([expect.stringMatching(/^p: /), expect.stringMatching(/^rua: /)]);
    expect(buildDmarcRecord(null as never).errors).toHaveLength(1);
  });
});
