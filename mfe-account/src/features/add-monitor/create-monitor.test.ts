import { checkMonitorDomain } from './create-monitor';

/** Spec §5, as the modal reads it: the one rule of @bimi/email-auth through the contract's schema. */
describe('checkMonitorDomain', () => {
  it.each([
    // Issue 32: spec §5, an empty field.
    ['', 'Please enter a domain name'],
    ['   ', 'Please enter a domain name'],
    ['https://', 'Please enter a domain name'],
    ['not a domain', 'Please enter a valid domain name (e.g., example.com)'],
    ['-bad-.example', 'Please enter a valid domain name (e.g., example.com)'],
    [`${'a'.repeat(64)}.example`, 'Please enter a valid domain name (e.g., example.com)'],
    ['localhost', 'Please enter a valid domain name (e.g., example.com)'],
    ['192.0.2.1', 'Please enter a valid domain name (e.g., example.com)'],
    ['jo@example.com', 'Please enter a valid domain name (e.g., example.com)'],
    [`${['a', 'b', 'c', 'd'].map((letter) => letter.repeat(61)).join('.')}.example`, 'Domain name is too long'],
  ])('%j: %s', (typed, message) => {
    expect(checkMonitorDomain(typed)).toEqual({ ok: false, message });
  });

  it.each([
    ['HTTPS://Good.Example/', 'good.example'],
    ['http://mail.Example.COM', 'mail.example.com'],
    ['  example.org/ ', 'example.org'],
  ])('%j is sent as %j (lower case, no scheme or trailing slash)', (typed, domain) => {
    expect(checkMonitorDomain(typed)).toEqual({ ok: true, domain });
  });
});
