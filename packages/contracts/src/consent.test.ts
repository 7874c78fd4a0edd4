import { readConsentCookie } from './consent';

describe('readConsentCookie', () => {
  it('reads an accepted or declined choice among other cookies', () => {
    expect(readConsentCookie('a=1; cookie_consent=accepted; b=2')).toBe('accepted');
    expect(readConsentCookie('cookie_consent=declined')).toBe('declined');
  });

  it('treats a missing or unknown value as no choice yet', () => {
    expect(readConsentCookie('')).toBeNull();
    expect(readConsentCookie('cookie_consent=maybe')).toBeNull();
    expect(readConsentCookie('other_cookie_consent=accepted')).toBeNull();
  });
});
