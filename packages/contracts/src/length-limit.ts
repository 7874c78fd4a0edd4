import * as z from 'zod/mini';

/**
 * A length limit that ends the checks of a value that breaks it. Zod runs a string's checks on
 * after a failed one unless it aborts, so a pattern or refinement after a plain `maxLength` read the
 * whole of an overlong value (15 KB in a query string made a quadratic pattern stall the bff for
 * half a second). Every limit in the contracts is this one, placed before what reads the text
 * (`bounded-text.test.ts` walks every exported schema for it).
 */
export function lengthLimit(max: number, error?: string) {
  return z.maxLength(max, { error, abort: true });
}
