import { shownMessage, showsCodeName } from './api-error';

// Issue 32, finding 6: a wrong current password showed "currentPassword: The current password is incorrect".
describe('shownMessage', () => {
  it.each([
    ['currentPassword: The current password is incorrect', 'currentPassword', 'The current password is incorrect'],
    ['newEmail: Email is required; currentPassword: Password is required', 'newEmail', 'Email is required; Password is required'],
    ['items[0].domain: Please enter a valid domain name (e.g., example.com)', 'items[0].domain', 'Please enter a valid domain name (e.g., example.com)'],
    ['You already monitor good.example.', undefined, 'You already monitor good.example.'],
    ['Invalid input: expected boolean', undefined, 'Invalid input: expected boolean'],
  ])('%p shows %p', (message, field, text) => {
    const shown = shownMessage(message);
    expect(shown.field).toBe(field);
    expect(shown.text).toBe(text);
    expect(showsCodeName(shown.text)).toBe(false);
  });

  it('keeps each field its words, for the form to show under each', () => {
    expect(shownMessage('newEmail: Email is required; currentPassword: Password is required').fields).toEqual({ newEmail: 'Email is required', currentPassword: 'Password is required' });
  });
});

describe('showsCodeName', () => {
  it.each(['currentPassword: The current password is incorrect', 'Please fill new_email', 'items[0] is wrong', 'The value of certificateExpiry is missing'])('catches %p', (text) => {
    expect(showsCodeName(text)).toBe(true);
  });
  it.each(['The current password is incorrect', 'Reports go to dmarc_reports@example.com', 'See https://example.com/a_b', 'Please enter a domain name', 'DMARC is at p=none.'])(
    'passes %p',
    (text) => {
      expect(showsCodeName(text)).toBe(false);
    },
  );
});
