import { byId } from './check-expectations';
import { parseSpf } from './spf-record';

/** The SPF grammar of RFC 7208 §12, rule by rule, as the RFC words it. */

const invalid = (term: string) => parseSpf(`v=spf1 ${term} -all`).record.invalid;

describe('§7.1 domain-spec: domain-end = ( "." toplabel [ "." ] ) / macro-expand', () => {
  it.each(['a:111.222.33.44', 'mx:abc.123', 'include:192.0.2.1', 'exists:foo.123.', 'ptr:example.42', 'redirect=10.0.0.1'])('%s: a top label of digits only is a permerror', (term) => {
    expect(invalid(term)).toHaveLength(1);
    expect(invalid(term)[0]?.reason).toMatch(/ends in "\d+", all digits/);
  });

  it.each(['a:museum', 'a:museum.', 'include:localhost'])('%s: a name without a dot before its top label is a permerror', (term) => {
    expect(invalid(term)).toHaveLength(1);
  });

  it.each([
    ['a:foo:bar/baz.example.com', 'foo:bar/baz.example.com'],
    ['a:example.com.', 'example.com.'],
    ['include:_spf.example-mail.com', '_spf.example-mail.com'],
    ['a:abc.co-m', 'abc.co-m'],
    ['exists:%{i}.%{d}', '%{i}.%{d}'],
    ['mx:x.123abc', 'x.123abc'],
  ])('%s: any visible character but a stray %% is allowed before the end; the value is %j', (term, value) => {
    const { record } = parseSpf(`v=spf1 ${term} -all`);
    expect(record.invalid).toEqual([]);
    expect(record.terms[0]).toMatchObject({ value });
    expect(record.terms[0]).not.toHaveProperty('cidr4', expect.anything());
  });

  it.each(['a:foo%bar.example.com', 'include:%{z}.example.com', 'a:exa\tmple.com'])('%s: a stray %% or a bad macro is a permerror', (term) => {
    expect(invalid(term)).toHaveLength(1);
  });
});

describe('§5.6 CIDR lengths: no leading zeros, at most /32 and //128', () => {
  it.each([
    'ip4:192.0.2.0/032',
    'ip4:192.0.2.0/00',
    'ip6:2001:db8::/064',
    'a/032',
    'a:example.com/024',
    'mx//064',
    'mx:example.com/24//0128',
    'a/33',
    'a//129',
    'ip4:192.0.2.0/33',
    'ip6:2001:db8::/129',
  ])('%s is a permerror', (term) => {
    expect(invalid(term)).toHaveLength(1);
    expect(invalid(term)[0]?.reason).toContain('RFC 7208 §5.6');
  });

  it.each([
    ['ip4:192.0.2.0/0', { cidr4: 0 }],
    ['ip4:192.0.2.0/32', { cidr4: 32 }],
    ['ip6:2001:db8::/0', { cidr6: 0 }],
    ['a/24', { cidr4: 24 }],
    ['a//64', { cidr6: 64 }],
    ['mx:example.com/24//128', { cidr4: 24, cidr6: 128 }],
  ])('%s is valid', (term, lengths) => {
    const { record } = parseSpf(`v=spf1 ${term} -all`);
    expect(record.invalid).toEqual([]);
    expect(record.terms[0]).toMatchObject(lengths);
  });

  it('ip4-network: qnum has no leading zeros', () => {
    expect(invalid('ip4:192.0.02.1')).toHaveLength(1);
  });
});

describe('§7.1–7.3 macros in terms', () => {
  it.each(['a:%{c}.example.com', 'exists:%{r}.example.com', 'include:%{t}.example.com', 'redirect=%{c}.example.com', 'exp=%{t}.example.com'])(
    '%s: c, r and t are never allowed in a domain-spec',
    (term) => {
      expect(invalid(term)[0]?.reason).toContain('explanation text only');
    },
  );

  it.each(['foo=%abc', 'foo=%{x}', 'foo=100%'])('%s: an unknown modifier must still hold a valid macro-string (§6)', (term) => {
    expect(invalid(term)).toHaveLength(1);
    expect(byId(parseSpf(`v=spf1 ${term} -all`).checks, 'spf.syntax.term')?.status).toBe('fail');
  });

  it.each(['foo=bar', 'foo=%{d}%%%_%-', 'moo.cow-far_out=man:dog/cat', 'foo='])('%s: an unknown modifier with a valid macro-string is ignored, not an error', (term) => {
    expect(invalid(term)).toEqual([]);
  });

  it.each(['exists:%{ir}.%{l1r+-}._spf.%{d}', 'include:%{d2}.trusted.example.net', 'a:%{l}.%{o}', 'exp=explain.%{d}'])('%s is valid', (term) => {
    expect(invalid(term)).toEqual([]);
  });
});

describe('a record of many invalid terms', () => {
  const detailOf = (record: string) => byId(parseSpf(record).checks, 'spf.syntax.term')?.detail ?? '';

  it('gives each reason once and counts the terms, so the detail stays short', () => {
    const detail = detailOf(`v=spf1 ${'; '.repeat(1000)}-all`);
    expect(detail.match(/is not an SPF mechanism/g)).toHaveLength(1);
    expect(detail).toContain('1,000 terms are invalid in all.');
    expect(detail.length).toBeLessThan(400);
  });

  it('names at most five different reasons', () => {
    const terms = Array.from({ length: 40 }, (_, index) => `bad${index}`).join(' ');
    expect(detailOf(`v=spf1 ${terms} -all`).match(/is not an SPF mechanism/g)).toHaveLength(5);
  });

  it('names every reason, without a count, when each term has its own', () => {
    const detail = detailOf('v=spf1 ; all:x -all');
    expect(detail).toContain('";" is not an SPF mechanism');
    expect(detail).toContain('"all" takes no value');
    expect(detail).not.toContain('in all');
  });
});
