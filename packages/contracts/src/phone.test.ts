import { ContactInput } from './account';
import { PartnerSignUpRequest } from './partners';
import { PHONE_MESSAGE, formatPhone, isPhoneNumber, toE164 } from './phone';

describe('phone numbers (libphonenumber-js)', () => {
  it('accepts real numbers, international or US national, and stores them in E.164', () => {
    expect(toE164('+1 202 555 0143')).toBe('+12025550143');
    expect(toE164('(415) 555-2671')).toBe('+14155552671');
    expect(toE164('+44 20 7946 0018')).toBe('+442079460018');
    expect(toE164('+33 1 23 45 67 89')).toBe('+33123456789');
    expect(formatPhone('+442079460018')).toBe('+44 20 7946 0018');
    expect(formatPhone('old value')).toBe('old value');
  });

  it('refuses what is not a phone number', () => {
    for (const text of ['not a phone', '12', '+1 555', '+1 800 FLOWERS', 'call 202 555 0143 please', '020 7946 0018', '+1 202 555 0143\u202E']) {
      expect({ text, valid: isPhoneNumber(text) }).toEqual({ text, valid: false });
    }
  });

  const contact = { kind: 'technical', name: 'Ann', email: 'ann@acme.example' } as const;
  it('ContactInput: "not a phone" is refused on the phone field with our message; a number is kept in E.164; blank or null is none', () => {
    const refused = ContactInput.safeParse({ ...contact, phone: 'not a phone' });
    expect(refused.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([[['phone'], PHONE_MESSAGE]]);
    expect(ContactInput.parse({ ...contact, phone: ' 202-555-0143 ' }).phone).toBe('+12025550143');
    expect(ContactInput.parse({ ...contact, phone: null }).phone).toBeNull();
    expect(ContactInput.parse({ ...contact, phone: '' }).phone).toBe('');
    expect(ContactInput.parse(contact).phone).toBeUndefined();
  });

  it('PartnerSignUpRequest: the same rule', () => {
    const partner = { company: 'Acme', website: 'acme.example', contactName: 'Ann', email: 'ann@acme.example' };
    expect(PartnerSignUpRequest.safeParse({ ...partner, phone: 'not a phone' }).error?.issues[0]?.message).toBe(PHONE_MESSAGE);
    expect(PartnerSignUpRequest.parse({ ...partner, phone: '+49 30 901820' }).phone).toBe('+4930901820');
  });
});
