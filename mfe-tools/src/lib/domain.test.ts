import { keptNote, validateDnsName, validateDomain, validateHttpsUrl, validateSelector } from './domain';

describe('validateDomain (spec §5 monitor-domain rule)', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Example.COM ', 'example.com'],
    ['https://example.com/', 'example.com'],
    ['http://mail.example.co.uk', 'mail.example.co.uk'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
  ])('accepts %j as %j', (input, domain) => {
    expect(validateDomain(input)).toEqual({ ok: true, value: domain });
  });

  it('asks for a name when the field is empty or only a scheme was typed (spec §5, issue 32)', () => {
    expect(validateDomain('')).toEqual({ ok: false, message: 'Please enter a domain name' });
    expect(validateDomain('   ')).toEqual({ ok: false, message: 'Please enter a domain name' });
    expect(validateDomain('https://')).toEqual({ ok: false, message: 'Please enter a domain name' });
  });

  it.each(['example', '-example.com', 'example-.com', 'exa mple.com', 'example..com', 'ex_ample.com', `${'a'.repeat(64)}.com`, 'mail.123'])('refuses %j with the spec message', (input) => {
    expect(validateDomain(input)).toEqual({ ok: false, message: 'Please enter a valid domain name (e.g., example.com)' });
  });

  it('refuses a name over 253 characters as too long', () => {
    const long = `${Array.from({ length: 4 }, () => 'a'.repeat(63)).join('.')}.com`;
    expect(long.length).toBeGreaterThan(253);
    expect(validateDomain(long)).toEqual({ ok: false, message: 'Domain name is too long' });
  });

  it('refuses an IP address, also pasted in a URL, with its own words, as the bff does', () => {
    expect(validateDomain('1.2.3.4')).toEqual({ ok: false, message: 'Please enter a domain name, not an IP address' });
    expect(validateDomain('https://192.0.2.1/page')).toEqual({ ok: false, message: 'Please enter a domain name, not an IP address' });
    expect(validateDomain('user@192.0.2.1')).toEqual({ ok: false, message: 'Please enter a domain name, not an IP address' });
  });
});

describe('validateDnsName', () => {
  it('accepts the underscore owner names of mail records', () => {
    expect(validateDnsName('_dmarc.Example.com')).toEqual({ ok: true, value: '_dmarc.example.com' });
    expect(validateDnsName('s1._domainkey.example.com.')).toEqual({ ok: true, value: 's1._domainkey.example.com' });
  });
  it('refuses what is not a DNS name', () => {
    expect(validateDnsName('')).toEqual({ ok: false, message: 'Please enter a DNS name' });
    expect(validateDnsName('not a name')).toEqual({ ok: false, message: 'Please enter a valid DNS name (e.g., _dmarc.example.com)' });
  });
});

describe('validateSelector', () => {
  it('treats an empty selector as not given, and lowercases one that is', () => {
    expect(validateSelector('  ')).toEqual({ ok: true, value: '' });
    expect(validateSelector('Selector1')).toEqual({ ok: true, value: 'selector1' });
    expect(validateSelector('k1.mail')).toEqual({ ok: true, value: 'k1.mail' });
  });
  it('refuses spaces and punctuation', () => {
    expect(validateSelector('my selector').ok).toBe(false);
    expect(validateSelector('s1;drop').ok).toBe(false);
  });
});

describe('validateHttpsUrl', () => {
  it('accepts an https address and refuses http, credentials and non-URLs', () => {
    expect(validateHttpsUrl(' https://example.com/bimi/vmc.pem ')).toEqual({ ok: true, value: 'https://example.com/bimi/vmc.pem' });
    expect(validateHttpsUrl('http://example.com/vmc.pem')).toEqual({ ok: false, message: 'BIMI files must be served over https://' });
    expect(validateHttpsUrl('https://user:pw@example.com/vmc.pem').ok).toBe(false);
    expect(validateHttpsUrl('example.com/vmc.pem').ok).toBe(false);
    expect(validateHttpsUrl('')).toEqual({ ok: false, message: 'Address is required' });
  });
});

describe('forgiving domain fields (issue 17)', () => {
  it.each([
    ['https://example.com/page', 'example.com'],
    ['someone@example.com', 'example.com'],
    ['example.com/path', 'example.com'],
  ])('%s is checked as %s, and the field says what was kept', (typed, kept) => {
    expect(validateDomain(typed)).toEqual({ ok: true, value: kept });
    expect(keptNote(typed, kept)).toBe(`Checking ${kept}, the domain of what you entered`);
  });

  it('a plain domain needs no note; an IP address is still refused', () => {
    expect(keptNote('Example.com/', 'example.com')).toBeUndefined();
    expect(validateDomain('192.0.2.1')).toEqual({ ok: false, message: 'Please enter a domain name, not an IP address' });
  });
});
