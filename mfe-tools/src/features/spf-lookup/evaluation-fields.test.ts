import { validateSender, validateSendingIp } from './evaluation-fields';

describe('the SPF evaluation fields', () => {
  it.each([
    ['192.0.2.10', '192.0.2.10'],
    [' 2001:DB8::1 ', '2001:db8::1'],
    ['::ffff:192.0.2.10', '192.0.2.10'],
  ])('accepts the address %j as %j', (input, value) => {
    expect(validateSendingIp(input)).toEqual({ ok: true, value });
  });

  it.each(['192.0.2', '999.1.1.1', 'mail.example.com', '192.0.02.1'])('refuses %j', (input) => {
    expect(validateSendingIp(input)).toEqual({ ok: false, message: 'Please enter an IPv4 or IPv6 address, e.g., 192.0.2.10' });
  });

  it('takes a sender only with an address, as the bff does', () => {
    expect(validateSender('bounce@example.com', { ip: '192.0.2.10' })).toEqual({ ok: true, value: 'bounce@example.com' });
    expect(validateSender('bounce@example.com', { ip: '' })).toEqual({ ok: false, message: 'Give the IP address of the sending server to evaluate a sender.' });
    expect(validateSender('two words@example.com', { ip: '192.0.2.10' }).ok).toBe(false);
  });
});
