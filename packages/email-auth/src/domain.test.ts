import { organizationalDomain } from './domain';
import { isDomainName, validateDomain } from './domain-name';

describe('validateDomain', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Example.COM. ', 'example.com'],
    ['https://www.example.com/path?q=1', 'www.example.com'],
    ['postmaster@Mail.Example.org', 'mail.example.org'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['_dmarc.example.com', '_dmarc.example.com'],
  ])('accepts %j as %s', (input, domain) => {
    expect(validateDomain(input)).toEqual({ ok: true, domain });
  });

  it.each(['', '   ', 'localhost', 'exa mple.com', '192.0.2.1', 'a..b', '-bad.com', 'bad-.com', `${'a'.repeat(64)}.com`, `${'abc.'.repeat(70)}com`, 'x'.repeat(2000), 'semi;colon.com'])(
    'rejects %j with a message',
    (input) => {
      const result = validateDomain(input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.length).toBeGreaterThan(10);
    },
  );
});

describe('organizationalDomain (RFC 7489 §3.2, public suffix list)', () => {
  it.each([
    ['example.com', 'example.com'],
    ['a.b.example.com', 'example.com'],
    ['mail.shop.co.uk', 'shop.co.uk'],
    ['co.uk', 'co.uk'],
    ['foo.unknown-tld-xyz', 'foo.unknown-tld-xyz'],
  ])('%s → %s', (domain, org) => {
    expect(organizationalDomain(domain)).toBe(org);
  });

  it('isDomainName takes names as written only', () => {
    expect(isDomainName('_spf.example.com')).toBe(true);
    expect(isDomainName('https://example.com')).toBe(false);
    expect(isDomainName('com')).toBe(false);
  });
});
