import { normalizeDnsNameInput, normalizeDomainInput, normalizeSelectorInput, type DomainInputReason } from './domain-input';

/** One table of what people type and what every form and the bff answer (spec §5's words). */

const VALID = 'Please enter a valid domain name (e.g., example.com)';

describe('normalizeDomainInput: the one domain rule', () => {
  it.each<[string, string | [DomainInputReason, string]]>([
    ['example.com', 'example.com'],
    ['  Example.COM ', 'example.com'],
    ['https://example.com/', 'example.com'],
    ['HTTP://mail.example.co.uk', 'mail.example.co.uk'],
    ['example.com.', 'example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['123.example', '123.example'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
    // Issue 32: an empty field is empty (spec §5); "required" is for no value at all.
    ['', ['empty', 'Please enter a domain name']],
    ['   ', ['empty', 'Please enter a domain name']],
    ['https://', ['empty', 'Please enter a domain name']],
    ['1.2.3.4', ['ip-address', 'Please enter a domain name, not an IP address']],
    ['2001:db8::1', ['ip-address', 'Please enter a domain name, not an IP address']],
    ['[2001:db8::1]', ['ip-address', 'Please enter a domain name, not an IP address']],
    ['user@example.com', ['not-a-domain-only', 'Please enter the domain only, without an address or path (e.g., example.com)']],
    ['example.com/path', ['not-a-domain-only', 'Please enter the domain only, without an address or path (e.g., example.com)']],
    ['example', ['invalid', VALID]],
    ['example.123', ['invalid', VALID]],
    ['mail.123', ['invalid', VALID]],
    ['-example.com', ['invalid', VALID]],
    ['example-.com', ['invalid', VALID]],
    ['exa mple.com', ['invalid', VALID]],
    ['example..com', ['invalid', VALID]],
    ['ex_ample.com', ['invalid', VALID]],
    ['semi;colon.com', ['invalid', VALID]],
    [`${'a'.repeat(64)}.com`, ['invalid', VALID]],
    [`${Array.from({ length: 4 }, () => 'a'.repeat(63)).join('.')}.com`, ['too-long', 'Domain name is too long']],
    ['x'.repeat(5000), ['too-long', 'Domain name is too long']],
  ])('%j → %j', (input, expected) => {
    expect(normalizeDomainInput(input)).toEqual(typeof expected === 'string' ? { ok: true, domain: expected } : { ok: false, reason: expected[0], message: expected[1] });
  });

  it('forgiving: a pasted URL or e-mail address gives its domain (the bff reads query strings so)', () => {
    expect(normalizeDomainInput('https://www.Example.com/path?q=1', { forgiving: true })).toEqual({ ok: true, domain: 'www.example.com' });
    expect(normalizeDomainInput('postmaster@Mail.Example.org', { forgiving: true })).toEqual({ ok: true, domain: 'mail.example.org' });
    expect(normalizeDomainInput('1.2.3.4', { forgiving: true })).toMatchObject({ ok: false, reason: 'ip-address' });
    // Issue 17: a URL pasted without its scheme too; an IP address in any of these shapes is still refused.
    expect(normalizeDomainInput('example.com/page', { forgiving: true })).toEqual({ ok: true, domain: 'example.com' });
    expect(normalizeDomainInput('Example.com?utm=1', { forgiving: true })).toEqual({ ok: true, domain: 'example.com' });
    expect(normalizeDomainInput('192.0.2.1/page', { forgiving: true })).toMatchObject({ ok: false, reason: 'ip-address' });
    expect(normalizeDomainInput('https://', { forgiving: true })).toMatchObject({ ok: false, reason: 'empty' });
    expect(normalizeDomainInput('example.com/page')).toMatchObject({ ok: false, reason: 'not-a-domain-only' });
  });

  it("spec §5 monitor rule: the example host is the caller's, and every refusal maps to its three messages by reason", () => {
    const monitorMessage = (input: string) => {
      const result = normalizeDomainInput(input, { example: 'brand.example' });
      if (result.ok) return result.domain;
      if (result.reason === 'required' || result.reason === 'empty' || result.reason === 'too-long') return result.message;
      return 'Please enter a valid domain name (e.g., brand.example)';
    };
    expect(monitorMessage('   ')).toBe('Please enter a domain name');
    expect(monitorMessage('1.2.3.4')).toBe('Please enter a valid domain name (e.g., brand.example)');
    expect(monitorMessage('nope')).toBe('Please enter a valid domain name (e.g., brand.example)');
    expect(monitorMessage('a.'.repeat(130) + 'com')).toBe('Domain name is too long');
    expect(monitorMessage('https://Brand.Example/')).toBe('brand.example');
  });

  it('never throws on what is not a string', () => {
    for (const value of [undefined, null, 42, {}, []]) expect(normalizeDomainInput(value)).toMatchObject({ ok: false, reason: 'required' });
  });
});

describe('normalizeDnsNameInput and normalizeSelectorInput', () => {
  it.each([
    ['_dmarc.Example.com', { ok: true, domain: '_dmarc.example.com' }],
    ['s1._domainkey.example.com.', { ok: true, domain: 's1._domainkey.example.com' }],
    ['', { ok: false, reason: 'empty', message: 'Please enter a DNS name' }],
    ['not a name', { ok: false, reason: 'invalid', message: 'Please enter a valid DNS name (e.g., _dmarc.example.com)' }],
  ])('DNS name %j → %j', (input, expected) => {
    expect(normalizeDnsNameInput(input)).toEqual(expected);
  });

  it.each([
    ['  ', { ok: true, selector: '' }],
    ['Selector1', { ok: true, selector: 'selector1' }],
    ['k1.mail', { ok: true, selector: 'k1.mail' }],
    ['my selector', { ok: false, message: 'A selector is letters, digits, hyphens or underscores, such as default or s1' }],
    ['s1;drop', { ok: false, message: 'A selector is letters, digits, hyphens or underscores, such as default or s1' }],
  ])('selector %j → %j', (input, expected) => {
    expect(normalizeSelectorInput(input)).toEqual(expected);
  });
});
