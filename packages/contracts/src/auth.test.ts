import { CredentialsSignInForm, PASSWORD_MESSAGES, passwordProblems, SessionAnswer, SignUpRequest } from './auth';

describe('the password strength rule', () => {
  it('accepts a long password with a letter and a digit or symbol', () => {
    expect(passwordProblems('correct horse 9')).toEqual([]);
    expect(passwordProblems('abcdefghij!')).toEqual([]);
  });

  it('names every unmet requirement', () => {
    expect(passwordProblems('short')).toEqual([PASSWORD_MESSAGES.tooShort, PASSWORD_MESSAGES.noDigitOrSymbol]);
    expect(passwordProblems('1234567890')).toEqual([PASSWORD_MESSAGES.noLetter]);
    expect(passwordProblems(`a1${'x'.repeat(127)}`)).toEqual([PASSWORD_MESSAGES.tooLong]);
    expect(passwordProblems('jane.doe-2024!', { email: 'Jane.Doe@example.com' })).toEqual([PASSWORD_MESSAGES.containsEmail]);
  });

  it('is applied by the sign-up form, with the email check on the password field', () => {
    const result = SignUpRequest.safeParse({ name: 'Jane', email: 'jane.doe@example.com', password: 'jane.doe-2024!' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['password', PASSWORD_MESSAGES.containsEmail]]);
    expect(SignUpRequest.parse({ name: ' Jane ', email: ' Jane@Example.com ', password: 'correct horse 9' })).toEqual({
      name: 'Jane',
      email: 'jane@example.com',
      password: 'correct horse 9',
    });
  });
});

describe('the NextAuth answers', () => {
  it('reads a signed-out session as {} and refuses other shapes', () => {
    expect(SessionAnswer.safeParse({}).success).toBe(true);
    expect(SessionAnswer.safeParse({ user: { name: 'J', email: 'j@example.com', image: null }, expires: '2030-01-01T00:00:00.000Z' }).success).toBe(true);
    expect(SessionAnswer.safeParse({ user: null }).success).toBe(false);
  });

  it('takes the credentials form with the extra fields the client sends', () => {
    const form = CredentialsSignInForm.parse({ csrfToken: 't', email: 'A@b.co', password: 'x', redirect: 'false', json: 'true', callbackUrl: '/' });
    expect(form.email).toBe('a@b.co');
  });
});
