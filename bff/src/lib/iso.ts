/**
 * A moment (epoch ms) as the store writes it: ISO 8601 in UTC with milliseconds,
 * "2026-11-27T10:41:19.000Z". Timestamps are TEXT columns in both databases and are compared as
 * text (`expires_at <= ?`), which orders them only because every one has this one shape; the
 * answers of the API carry the same. Pass the store's clock (`fastify.now()`), never Date.now().
 */
export function iso(at: number): string {
  return new Date(at).toISOString();
}

/** The UTC day of a moment (epoch ms), "2026-11-27": the date a certificate's validity or an operator's --expires names. */
export function isoDay(at: number): string {
  return iso(at).slice(0, 10);
}
