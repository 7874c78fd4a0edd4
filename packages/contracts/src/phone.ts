import { parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js/min';
import * as z from 'zod/mini';
import { lengthLimit } from './length-limit';
import { humanTextProblem } from './human-text';

/**
 * Phone numbers, checked with libphonenumber-js (its `min` metadata: lengths and prefixes per
 * country, light enough for the browser) the same way in the account pages and the bff. A number
 * is stored in E.164 ("+12025550143") and shown in international format ("+1 202 555 0143").
 * Without a country code a number is read as a US one: the store sells in US dollars and most
 * buyers type US numbers nationally; anyone else is asked for the code.
 */
export const PHONE_DEFAULT_COUNTRY = 'US';
export const PHONE_MAX_LENGTH = 40;
export const PHONE_MESSAGE = 'Enter a valid phone number, with the country code outside the US (e.g., +44 20 7946 0018)';

/** Digits, spaces, + ( ) . - only: the library would otherwise find a number inside "call 202 555 0143 please". */
const PHONE_CHARACTERS = /^\+?[0-9 ().-]+$/;

function parsedPhone(text: string): PhoneNumber | undefined {
  const trimmed = text.trim();
  if (trimmed.length > PHONE_MAX_LENGTH || !PHONE_CHARACTERS.test(trimmed)) return undefined;
  const parsed = parsePhoneNumberFromString(trimmed, PHONE_DEFAULT_COUNTRY);
  return parsed?.isValid() ? parsed : undefined;
}

export function isPhoneNumber(text: string): boolean {
  return parsedPhone(text) !== undefined;
}

/** "202-555-0143" → "+12025550143"; text that is not a valid number comes back unchanged. */
export function toE164(text: string): string {
  return parsedPhone(text)?.number ?? text;
}

/** "+12025550143" → "+1 202 555 0143"; a stored value from before the check is shown as it is. */
export function formatPhone(stored: string): string {
  return parsedPhone(stored)?.formatInternational() ?? stored;
}

/**
 * An optional phone field (absent, null or "" for none): a valid number, stored in E.164. The
 * rewrite is a zod overwrite (a check, not a transform), so the schema still describes a string.
 */
export function nullablePhone(label = 'Phone') {
  return z.optional(
    z.nullable(
      z.string().check(
        // Far over the limit: refused before anything reads it.
        lengthLimit(4 * PHONE_MAX_LENGTH + 64, `${label} must be at most ${PHONE_MAX_LENGTH} characters`),
        // Hostile text gets the human-text rule's own message (the character named), before "not a phone".
        z.superRefine<string>((text, context) => {
          const problem = humanTextProblem(text, label);
          if (problem) context.addIssue({ code: 'custom', message: problem, input: text, abort: true });
        }),
        z.trim(),
        lengthLimit(PHONE_MAX_LENGTH, `${label} must be at most ${PHONE_MAX_LENGTH} characters`),
        z.refine((text) => text === '' || isPhoneNumber(text), { message: PHONE_MESSAGE, abort: true }),
        z.overwrite((text) => (text === '' ? text : toE164(text))),
      ),
    ),
  );
}
