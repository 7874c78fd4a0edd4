// One formatter for the whole process: building an Intl formatter per call (what
// toLocaleDateString does) cost about 4% of the bff's time while webhooks sent their mails.
const LONG_DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** "March 5, 2027": the UTC day of an ISO timestamp, as the mails and receipts write dates. */
export function longDate(iso: string): string {
  return LONG_DATE.format(new Date(iso));
}
