/**
 * PostgreSQL cannot store U+0000 in text (SQLite can), so a NUL anywhere in a request would reach
 * the database as a 500 on one engine and a stored oddity on the other. No field of ours has a use
 * for it: every request carrying one is refused up front, whatever route it is for.
 */
export const NUL_REFUSED = 'The request contains a NUL character (U+0000), which no field accepts.';

const MAX_DEPTH = 64;

/** Whether a parsed request part (params, query or JSON body) holds a string with U+0000, keys included. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || containsNul(item, depth + 1)) return true;
  }
  return false;
}
