import { memoryResolver, type Zone } from './memory-resolver';
import { evaluateSpf, type SpfResult } from './spf-evaluate';

/**
 * check_host() against RFC 7208 Appendix A: its zone (A.1), its example records and the results
 * the RFC gives for them, then the rules of §4–§6 one by one.
 */

/** The zone of RFC 7208 Appendix A, with the record under test published at example.com. */
function appendixA(record: string, extra: Zone = {}): Zone {
  return {
    'example.com': {
      TXT: [record],
      MX: [
        { exchange: 'mail-a.example.com', priority: 10 },
        { exchange: 'mail-b.example.com', priority: 20 },
      ],
      A: ['192.0.2.10', '192.0.2.11'],
    },
    'amy.example.com': { A: ['192.0.2.65'] },
    'bob.example.com': { A: ['192.0.2.66'] },
    'mail-a.example.com': { A: ['192.0.2.129'] },
    'mail-b.example.com': { A: ['192.0.2.130'] },
    'www.example.com': { CNAME: ['example.com'] },
    'example.org': { MX: [{ exchange: 'mail-c.example.org', priority: 10 }] },
    'mail-c.example.org': { A: ['192.0.2.140'] },
    '10.2.0.192.in-addr.arpa': { PTR: ['example.com'] },
    '11.2.0.192.in-addr.arpa': { PTR: ['example.com'] },
    '65.2.0.192.in-addr.arpa': { PTR: ['amy.example.com'] },
    '66.2.0.192.in-addr.arpa': { PTR: ['bob.example.com'] },
    '129.2.0.192.in-addr.arpa': { PTR: ['mail-a.example.com'] },
    '130.2.0.192.in-addr.arpa': { PTR: ['mail-b.example.com'] },
    '140.2.0.192.in-addr.arpa': { PTR: ['mail-c.example.org'] },
    '4.0.0.10.in-addr.arpa': { PTR: ['bob.example.com'] },
    ...extra,
  };
}

async function resultFor(record: string, ip: string, extra?: Zone, sender = 'joe@example.com'): Promise<SpfResult> {
  return (await evaluateSpf({ ip, domain: 'example.com', sender }, memoryResolver(appendixA(record, extra)))).result;
}

describe('RFC 7208 Appendix A.1: simple examples', () => {
  it.each([
    ['v=spf1 +all', ['192.0.2.10', '198.51.100.1', '2001:db8::1'], []],
    ['v=spf1 a -all', ['192.0.2.10', '192.0.2.11'], ['192.0.2.65', '192.0.2.129']],
    ['v=spf1 a:example.org -all', [], ['192.0.2.10', '192.0.2.140']],
    ['v=spf1 mx -all', ['192.0.2.129', '192.0.2.130'], ['192.0.2.10', '192.0.2.140']],
    ['v=spf1 mx:example.org -all', ['192.0.2.140'], ['192.0.2.129']],
    ['v=spf1 mx mx:example.org -all', ['192.0.2.129', '192.0.2.130', '192.0.2.140'], ['192.0.2.10']],
    ['v=spf1 mx/30 mx:example.org/30 -all', ['192.0.2.128', '192.0.2.131', '192.0.2.141', '192.0.2.143'], ['192.0.2.127', '192.0.2.144']],
    ['v=spf1 ptr -all', ['192.0.2.65'], ['192.0.2.140', '10.0.0.4']],
    ['v=spf1 ip4:192.0.2.128/28 -all', ['192.0.2.129'], ['192.0.2.65']],
  ])('%s: %j pass, %j fail', async (record, passing, failing) => {
    for (const ip of passing) expect([ip, await resultFor(record, ip)]).toEqual([ip, 'pass']);
    for (const ip of failing) expect([ip, await resultFor(record, ip)]).toEqual([ip, 'fail']);
  });

  it('answers "would mail from 192.0.2.10 pass for example.com?" with the term that matched and the lookup count', async () => {
    const answer = await evaluateSpf({ ip: '192.0.2.10', domain: 'example.com' }, memoryResolver(appendixA('v=spf1 mx a -all')));
    expect(answer).toMatchObject({ result: 'pass', matched: { term: 'a', domain: 'example.com' }, lookups: 2, voidLookups: 0, sender: 'postmaster@example.com', record: 'v=spf1 mx a -all' });
    expect(answer.trace.map((step) => [step.term, step.outcome])).toEqual([
      ['mx', 'no match'],
      ['a', 'match'],
    ]);
  });
});

describe('RFC 7208 Appendix A.2: multiple domains', () => {
  const zone: Zone = {
    'example.org': { TXT: ['v=spf1 include:example.com include:example.net -all'] },
    'la.example.org': { TXT: ['v=spf1 redirect=example.org'] },
    'example.com': { TXT: ['v=spf1 ip4:192.0.2.0/25 -all'] },
    'example.net': { TXT: ['v=spf1 ip4:198.51.100.0/24 ~all'] },
  };
  it.each([
    ['example.org', '192.0.2.1', 'pass', 'include:example.com'],
    ['example.org', '198.51.100.7', 'pass', 'include:example.net'],
    ['example.org', '203.0.113.1', 'fail', '-all'],
    ['la.example.org', '198.51.100.7', 'pass', 'include:example.net'],
    ['la.example.org', '203.0.113.1', 'fail', '-all'],
  ])('%s from %s: %s by %s of example.org, as a mail server reports it', async (domain, ip, result, term) => {
    const answer = await evaluateSpf({ ip, domain }, memoryResolver(zone));
    expect(answer.result).toBe(result);
    expect(answer.matched).toEqual({ term, domain: 'example.org' });
  });

  it('an include whose target fails or softfails does not match (§5.2): evaluation goes on to the next term', async () => {
    const answer = await evaluateSpf({ ip: '203.0.113.1', domain: 'example.org' }, memoryResolver(zone));
    expect(answer.trace.map((step) => [step.domain, step.term, step.outcome])).toEqual([
      ['example.org', 'include:example.com', 'no match'],
      ['example.com', 'ip4:192.0.2.0/25', 'no match'],
      ['example.com', '-all', 'match'],
      ['example.org', 'include:example.net', 'no match'],
      ['example.net', 'ip4:198.51.100.0/24', 'no match'],
      ['example.net', '~all', 'match'],
      ['example.org', '-all', 'match'],
    ]);
    expect(answer.lookups).toBe(2);
  });
});

describe('RFC 7208 Appendix A.3: DNSBL style, with macros', () => {
  const zone: Zone = {
    'example.com': { TXT: ['v=spf1 mx include:mobile-users._spf.%{d} include:remote-users._spf.%{d} -all'], MX: [{ exchange: 'mx.example.com', priority: 10 }] },
    'mx.example.com': { A: ['192.0.2.1'] },
    'mobile-users._spf.example.com': { TXT: ['v=spf1 exists:%{l1r+}.%{d}'] },
    'remote-users._spf.example.com': { TXT: ['v=spf1 exists:%{ir}.%{l1r+}.%{d}'] },
    'mary.mobile-users._spf.example.com': { A: ['127.0.0.2'] },
    'fred.mobile-users._spf.example.com': { A: ['127.0.0.2'] },
    '15.15.168.192.joel.remote-users._spf.example.com': { A: ['127.0.0.2'] },
    '16.15.168.192.joel.remote-users._spf.example.com': { A: ['127.0.0.2'] },
  };
  it.each([
    ['mary@example.com', '203.0.113.9', 'pass'],
    ['fred+spam@example.com', '203.0.113.9', 'pass'],
    ['joel@example.com', '192.168.15.15', 'pass'],
    ['joel@example.com', '192.168.15.16', 'pass'],
    ['joel@example.com', '192.168.15.17', 'fail'],
  ])('%s from %s: %s', async (sender, ip, result) => {
    expect((await evaluateSpf({ ip, domain: 'example.com', sender }, memoryResolver(zone))).result).toBe(result);
  });

  it('shows the name an exists: term expanded to', async () => {
    const answer = await evaluateSpf({ ip: '192.168.15.15', domain: 'example.com', sender: 'joel@example.com' }, memoryResolver(zone));
    expect(answer.trace.find((step) => step.outcome === 'match' && step.term.startsWith('exists'))?.target).toBe('15.15.168.192.joel.remote-users._spf.example.com');
  });
});

describe('RFC 7208 Appendix A.4: multiple requirements', () => {
  const zone: Zone = {
    'example.com': { TXT: ['v=spf1 -include:ip4._spf.%{d} -include:ptr._spf.%{d} +all'] },
    'ip4._spf.example.com': { TXT: ['v=spf1 -ip4:192.0.2.0/24 +all'] },
    'ptr._spf.example.com': { TXT: ['v=spf1 -ptr +all'] },
    'mail.ptr._spf.example.com': { A: ['192.0.2.5'] },
    '5.2.0.192.in-addr.arpa': { PTR: ['mail.ptr._spf.example.com'] },
    'other.example.net': { A: ['192.0.2.6'] },
    '6.2.0.192.in-addr.arpa': { PTR: ['other.example.net'] },
  };
  it.each([
    ['192.0.2.5', 'pass', 'in 192.0.2.0/24 with a validated name under ptr._spf.example.com'],
    ['192.0.2.6', 'fail', 'in the range but named elsewhere'],
    ['198.51.100.1', 'fail', 'outside the range'],
  ])('%s: %s (%s)', async (ip, result) => {
    expect((await evaluateSpf({ ip, domain: 'example.com' }, memoryResolver(zone))).result).toBe(result);
  });
});

describe('check_host() results (RFC 7208 §2.6, §4)', () => {
  it('§4.3: a malformed domain or one without a record is none', async () => {
    expect((await evaluateSpf({ ip: '192.0.2.1', domain: 'nothing.example' }, memoryResolver({}))).result).toBe('none');
    expect((await evaluateSpf({ ip: '192.0.2.1', domain: 'museum' }, memoryResolver({}))).result).toBe('none');
    expect((await evaluateSpf({ ip: '192.0.2.1', domain: 'text.example' }, memoryResolver({ 'text.example': { TXT: ['hello'] } }))).result).toBe('none');
  });

  it('§4.4: a DNS failure fetching the record is temperror', async () => {
    const answer = await evaluateSpf({ ip: '192.0.2.1', domain: 'broken.example' }, memoryResolver({ 'broken.example': { error: 'ESERVFAIL' } }));
    expect(answer.result).toBe('temperror');
    expect(answer.reason).toContain('SERVFAIL');
  });

  it('§4.5: two SPF records are permerror', async () => {
    expect((await evaluateSpf({ ip: '192.0.2.1', domain: 'two.example' }, memoryResolver({ 'two.example': { TXT: ['v=spf1 -all', 'v=spf1 +all'] } }))).result).toBe('permerror');
  });

  it('§4.6: a syntax error anywhere is permerror, even after a term that would match', async () => {
    expect((await evaluateSpf({ ip: '192.0.2.1', domain: 's.example' }, memoryResolver({ 's.example': { TXT: ['v=spf1 ip4:192.0.2.1 a:111.222.33.44 -all'] } }))).result).toBe('permerror');
  });

  it('§4.7: no match and no redirect is neutral', async () => {
    const answer = await evaluateSpf({ ip: '192.0.2.9', domain: 'n.example' }, memoryResolver({ 'n.example': { TXT: ['v=spf1 ip4:192.0.2.1'] } }));
    expect(answer).toMatchObject({ result: 'neutral', matched: undefined });
  });

  it.each([
    ['+', 'pass'],
    ['-', 'fail'],
    ['~', 'softfail'],
    ['?', 'neutral'],
  ])('§4.6.2: the qualifier %s gives %s', async (qualifier, result) => {
    expect((await evaluateSpf({ ip: '192.0.2.1', domain: 'q.example' }, memoryResolver({ 'q.example': { TXT: [`v=spf1 ${qualifier}ip4:192.0.2.0/24 -all`] } }))).result).toBe(result);
  });

  it('§4.6.4: the 11th DNS-querying term is permerror', async () => {
    const zone: Zone = { 'many.example': { TXT: [`v=spf1 ${Array.from({ length: 11 }, (_, index) => `a:h${index}.many.example`).join(' ')} -all`] } };
    for (let index = 0; index < 11; index += 1) zone[`h${index}.many.example`] = { A: ['198.51.100.1'] };
    const answer = await evaluateSpf({ ip: '192.0.2.1', domain: 'many.example' }, memoryResolver(zone));
    expect(answer).toMatchObject({ result: 'permerror', lookups: 11 });
    // Ten are fine: the same record with one a: fewer fails normally.
    zone['many.example'] = { TXT: [`v=spf1 ${Array.from({ length: 10 }, (_, index) => `a:h${index}.many.example`).join(' ')} -all`] };
    expect((await evaluateSpf({ ip: '192.0.2.1', domain: 'many.example' }, memoryResolver(zone))).result).toBe('fail');
  });

  it('§4.6.4: a third void lookup is permerror; two are allowed', async () => {
    const zone = (count: number): Zone => ({ 'v.example': { TXT: [`v=spf1 ${Array.from({ length: count }, (_, index) => `exists:gone${index}.v.example`).join(' ')} -all`] } });
    expect((await evaluateSpf({ ip: '192.0.2.1', domain: 'v.example' }, memoryResolver(zone(2)))).result).toBe('fail');
    expect((await evaluateSpf({ ip: '192.0.2.1', domain: 'v.example' }, memoryResolver(zone(3)))).result).toBe('permerror');
  });

  it('§4.6.4: the address lookups of MX hosts count as void lookups', async () => {
    const zone: Zone = {
      'm.example': { TXT: ['v=spf1 mx -all'], MX: [1, 2, 3].map((index) => ({ exchange: `gone${index}.m.example`, priority: index })) },
    };
    const answer = await evaluateSpf({ ip: '192.0.2.1', domain: 'm.example' }, memoryResolver(zone));
    expect(answer).toMatchObject({ result: 'permerror', voidLookups: 3, lookups: 1 });
  });

  it('§4.6.4: more than 10 MX hosts is permerror', async () => {
    const zone: Zone = { 'm.example': { TXT: ['v=spf1 mx -all'], MX: Array.from({ length: 11 }, (_, index) => ({ exchange: `mx${index}.m.example`, priority: index })) } };
    expect((await evaluateSpf({ ip: '192.0.2.1', domain: 'm.example' }, memoryResolver(zone))).result).toBe('permerror');
  });

  it.each(['a:down.example', 'mx:down.example', 'exists:down.example', 'include:down.example'])('§2.6.7: a DNS failure resolving %s is temperror, never ignored', async (term) => {
    const zone: Zone = { 't.example': { TXT: [`v=spf1 ${term} ip4:192.0.2.1 -all`] }, 'down.example': { error: 'ETIMEOUT' } };
    const answer = await evaluateSpf({ ip: '192.0.2.1', domain: 't.example' }, memoryResolver(zone));
    expect(answer.result).toBe('temperror');
    expect(answer.reason).toContain('down.example');
  });

  it('§2.6.7: a DNS failure resolving a redirect target is temperror', async () => {
    const zone: Zone = { 't.example': { TXT: ['v=spf1 redirect=down.example'] }, 'down.example': { error: 'ESERVFAIL' } };
    expect((await evaluateSpf({ ip: '192.0.2.1', domain: 't.example' }, memoryResolver(zone))).result).toBe('temperror');
  });

  it('§2.6.7: a DNS failure on an MX host address lookup is temperror', async () => {
    const zone: Zone = { 't.example': { TXT: ['v=spf1 mx -all'], MX: [{ exchange: 'down.example', priority: 1 }] }, 'down.example': { error: 'ETIMEOUT' } };
    expect((await evaluateSpf({ ip: '192.0.2.1', domain: 't.example' }, memoryResolver(zone))).result).toBe('temperror');
  });

  it('§5.2: include of a domain without SPF is permerror; include of a permerror is permerror', async () => {
    expect(
      (await evaluateSpf({ ip: '192.0.2.1', domain: 'i.example' }, memoryResolver({ 'i.example': { TXT: ['v=spf1 include:none.example -all'] }, 'none.example': { A: ['192.0.2.1'] } })))
        .result,
    ).toBe('permerror');
    expect(
      (
        await evaluateSpf(
          { ip: '192.0.2.1', domain: 'i.example' },
          memoryResolver({ 'i.example': { TXT: ['v=spf1 include:bad.example -all'] }, 'bad.example': { TXT: ['v=spf1 ip4:192.0.2.1/033 -all'] } }),
        )
      ).result,
    ).toBe('permerror');
  });

  it('§5.2: an include loop ends in permerror through the lookup limit, never hangs', async () => {
    const zone: Zone = { 'a.example': { TXT: ['v=spf1 include:b.example -all'] }, 'b.example': { TXT: ['v=spf1 include:a.example -all'] } };
    expect((await evaluateSpf({ ip: '192.0.2.1', domain: 'a.example' }, memoryResolver(zone))).result).toBe('permerror');
  });

  it('§6.1: redirect is followed when nothing matched, and a redirect to no record is permerror', async () => {
    const zone: Zone = {
      'r.example': { TXT: ['v=spf1 ip4:198.51.100.1 redirect=_spf.r.example'] },
      '_spf.r.example': { TXT: ['v=spf1 ip4:192.0.2.0/24 -all'] },
      'gone.example': { TXT: ['v=spf1 redirect=nowhere.example'] },
    };
    expect(await evaluateSpf({ ip: '192.0.2.1', domain: 'r.example' }, memoryResolver(zone))).toMatchObject({
      result: 'pass',
      matched: { term: 'ip4:192.0.2.0/24', domain: '_spf.r.example' },
      lookups: 1,
    });
    expect((await evaluateSpf({ ip: '192.0.2.1', domain: 'gone.example' }, memoryResolver(zone))).result).toBe('permerror');
  });

  it('§6.1: redirect is ignored when the record has all', async () => {
    const zone: Zone = { 'r.example': { TXT: ['v=spf1 -all redirect=_spf.r.example'] }, '_spf.r.example': { TXT: ['v=spf1 +all'] } };
    expect((await evaluateSpf({ ip: '192.0.2.1', domain: 'r.example' }, memoryResolver(zone))).result).toBe('fail');
  });

  it('§6.2: a fail carries the explanation, macros expanded (c, r and t allowed there)', async () => {
    const zone: Zone = {
      'e.example': { TXT: ['v=spf1 mx -all exp=explain._spf.%{d}'] },
      'explain._spf.e.example': { TXT: [['%{i} is not one of %{d}', "'s designated mail servers (%{c}, seen by %{r})."]] },
    };
    const answer = await evaluateSpf({ ip: '192.0.2.1', domain: 'e.example', receiver: 'mx.receiver.example' }, memoryResolver(zone));
    expect(answer).toMatchObject({ result: 'fail', explanation: "192.0.2.1 is not one of e.example's designated mail servers (192.0.2.1, seen by mx.receiver.example)." });
  });

  it('§6.2: an explanation that cannot be read is left out; the result stays fail', async () => {
    const zone: Zone = { 'e.example': { TXT: ['v=spf1 -all exp=gone.example'] } };
    expect(await evaluateSpf({ ip: '192.0.2.1', domain: 'e.example' }, memoryResolver(zone))).toMatchObject({ result: 'fail', explanation: undefined });
  });

  it('§5: IPv6 clients match a (AAAA), ip6 and //cidr; ip4 never matches them; an IPv4-mapped address is IPv4', async () => {
    const zone: Zone = { 'six.example': { TXT: ['v=spf1 ip4:192.0.2.0/24 a//64 -all'], AAAA: ['2001:db8:1::1'] } };
    expect((await evaluateSpf({ ip: '2001:db8:1::beef', domain: 'six.example' }, memoryResolver(zone))).result).toBe('pass');
    expect((await evaluateSpf({ ip: '2001:db8:2::1', domain: 'six.example' }, memoryResolver(zone))).result).toBe('fail');
    expect((await evaluateSpf({ ip: '::ffff:192.0.2.7', domain: 'six.example' }, memoryResolver(zone))).result).toBe('pass');
  });

  it('§5.7: exists always asks for an A record, also for an IPv6 client', async () => {
    const resolver = memoryResolver({
      'x.example': { TXT: ['v=spf1 exists:%{ir}.%{v}.list.example -all'] },
      '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.list.example': { A: ['127.0.0.2'] },
    });
    expect((await evaluateSpf({ ip: '2001:db8::1', domain: 'x.example' }, resolver)).result).toBe('pass');
    expect(resolver.queries).toContain('A 1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.list.example');
  });

  it('a text that is not an address answers none with the reason, and never throws', async () => {
    expect(await evaluateSpf({ ip: 'mail.example.com', domain: 'example.com' }, memoryResolver({}))).toMatchObject({ result: 'none' });
  });
});
