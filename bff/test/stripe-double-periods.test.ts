import { periodEndOf } from './fixtures/stripe/server';

const at = (iso: string) => Date.parse(iso) / 1000;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

describe("the Stripe double's billing periods", () => {
  it('count from the anchor, so a month-end anchor comes back to its day after a shorter month', () => {
    const anchor = at('2026-01-31T09:00:00Z');
    expect([1, 2, 3, 4].map((n) => iso(periodEndOf(anchor, 'month', 1, n)))).toEqual(['2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31']);
  });

  it('end a leap-day anchor on February 28, and on the 29th again in a leap year', () => {
    const anchor = at('2028-02-29T09:00:00Z');
    expect([1, 4].map((n) => iso(periodEndOf(anchor, 'year', 1, n)))).toEqual(['2029-02-28', '2032-02-29']);
  });

  it('keep the time of day, and count weeks and days plainly', () => {
    const anchor = at('2026-11-23T10:30:00Z');
    expect(new Date(periodEndOf(anchor, 'month', 1) * 1000).toISOString()).toBe('2026-12-23T10:30:00.000Z');
    expect(iso(periodEndOf(anchor, 'week', 2))).toBe('2026-12-07');
  });
});
