import * as z from 'zod/mini';
import { PASSWORD_MESSAGES, SignUpRequest } from '@bimi/contracts/auth';
import { checkForm } from './api';

beforeAll(() => Object.assign(globalThis, { window: { location: { origin: 'http://127.0.0.1:3100' } } }));

describe('checkForm', () => {
  it('gives the data when the form passes its schema', () => {
    expect(checkForm(z.object({ name: z.string() }), { name: 'Ada' })).toEqual({ data: { name: 'Ada' }, errors: null });
  });

  it('gives the first message of each field against the shared sign-up rules', () => {
    const { errors } = checkForm(SignUpRequest, { name: '', email: 'not-an-email', password: 'adalovelace' });
    expect(errors).toEqual({ name: 'Name is required', email: 'Enter a valid email address', password: PASSWORD_MESSAGES.noDigitOrSymbol });
  });
});
