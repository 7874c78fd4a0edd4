import { useHydrated } from '../lib/hydrated';

const OPTIONS: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' };
let formats: { local: Intl.DateTimeFormat; utc: Intl.DateTimeFormat } | undefined;

/**
 * A moment in the visitor's own time zone ("Nov 26, 5:15 AM"). The server, which renders a
 * signed-in visitor's pages, does not know that zone: it, and the browser while it hydrates the
 * server's page, write the moment in UTC ("Nov 26, 5:15 AM UTC"), which the browser then rewrites.
 */
export function LocalTime({ iso }: { iso: string }) {
  const hydrated = useHydrated();
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  formats ??= { local: new Intl.DateTimeFormat('en-US', OPTIONS), utc: new Intl.DateTimeFormat('en-US', { ...OPTIONS, timeZone: 'UTC' }) };
  return <time dateTime={iso}>{hydrated ? formats.local.format(date) : `${formats.utc.format(date)} UTC`}</time>;
}
