import { ApiFailure, failureMessage } from './api';

// Issue 32, finding 6: the refusal of a wrong current password is shown in words, under its field.
describe('ApiFailure', () => {
  it("takes a validation message's field code name off the words it shows", () => {
    const failure = new ApiFailure('currentPassword: The current password is incorrect', 400);
    expect(failure.field).toBe('currentPassword');
    expect(failureMessage(failure)).toBe('The current password is incorrect');
  });
  it('keeps a message that names no field as it is', () => {
    const failure = new ApiFailure('You already monitor good.example.', 409);
    expect(failure.field).toBeUndefined();
    expect(failureMessage(failure)).toBe('You already monitor good.example.');
  });
});
