import { addMonths, longDate, shortDate } from './dates';

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

describe('a billing period', () => {
  const utc = (iso: string) => new Date(iso);
  it('ends the same day of the month, months or years on, in UTC', () => {
    expect(addMonths(utc('2026-11-23T10:00:00.000Z'), 1).toISOString()).toBe('2026-12-23T10:00:00.000Z');
    expect(addMonths(utc('2026-11-23T23:30:00.000Z'), 24).toISOString()).toBe('2028-11-23T23:30:00.000Z');
    expect(addMonths(utc('2026-12-15T00:00:00.000Z'), 1).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });

  it("ends on the month's last day when the month is shorter, as Stripe counts it", () => {
    expect(addMonths(utc('2026-01-31T08:00:00.000Z'), 1).toISOString()).toBe('2026-02-28T08:00:00.000Z');
    expect(addMonths(utc('2028-01-31T08:00:00.000Z'), 1).toISOString()).toBe('2028-02-29T08:00:00.000Z');
    expect(addMonths(utc('2028-02-29T08:00:00.000Z'), 12).toISOString()).toBe('2029-02-28T08:00:00.000Z');
    expect(addMonths(utc('2026-03-31T08:00:00.000Z'), 1).toISOString()).toBe('2026-04-30T08:00:00.000Z');
  });
});
