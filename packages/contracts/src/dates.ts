/**
 * Days as the site writes them, in its mails, its receipts and its pages: the UTC day of an ISO
 * timestamp, in English. The same on the server, which renders a signed-in visitor's pages, and in
 * every browser that hydrates them (a day in the runtime's own zone drew "March 3" over the
 * server's "March 4"). A moment within a day is the visitor's own (mfe-account's LocalTime).
 */

// One formatter each, made at first use: building one per call (what toLocaleDateString does) cost
// about 4% of the bff's time while webhooks sent their mails.
let formats: { long: Intl.DateTimeFormat; short: Intl.DateTimeFormat } | undefined;

function dayOf(iso: string, length: 'long' | 'short'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  formats ??= {
    long: new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }),
    short: new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }),
  };
  return formats[length].format(date);
}

/** "March 5, 2027"; '' for a timestamp that is not one. */
export const longDate = (iso: string) => dayOf(iso, 'long');

/** "Mar 5, 2027"; '' for a timestamp that is not one. */
export const shortDate = (iso: string) => dayOf(iso, 'short');

/**
 * `from` plus `months` calendar months in UTC, as Stripe ends a billing period counted from its
 * anchor: a day the month lacks becomes its last (January 31 plus a month is February 28; February 29
 * plus a year, February 28). The checkout's renewal date and the end of the built-in test payments'
 * first period are both this; the n-th period ends at `addMonths(anchor, n × months)`, never at the
 * previous end plus a period (that drifts to the 28th after February).
 */
export function addMonths(from: Date, months: number): Date {
  const date = new Date(from.getTime());
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date;
}
