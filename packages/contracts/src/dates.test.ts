import { longDate, shortDate } from './dates';

describe('the days the site writes', () => {
  it("are the UTC day, in English, whatever the runtime's zone", () => {
    expect(longDate('2027-03-05T00:00:00.000Z')).toBe('March 5, 2027');
    expect(longDate('2027-03-05T23:59:59.999Z')).toBe('March 5, 2027');
    expect(shortDate('2027-03-05T12:00:00.000Z')).toBe('Mar 5, 2027');
  });

  it('are empty for a timestamp that is not one, never a thrown RangeError', () => {
    expect(longDate('not a date')).toBe('');
    expect(shortDate('')).toBe('');
  });
});
