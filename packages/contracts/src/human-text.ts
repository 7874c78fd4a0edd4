import * as z from 'zod/mini';
import { lengthLimit } from './length-limit';

/**
 * Text people type for other people to read: names, organization and company names, ticket
 * subjects and messages, the contact and partner forms. Such text ends up in pages, in the
 * database and in mail (subjects and greetings), so one rule decides what it may hold:
 *
 * - NFC-normalized ("é" typed as e + accent is stored as one "é") and trimmed;
 * - no lone UTF-16 surrogates (not text at all: they break JSON, PostgreSQL and mail encoders);
 * - no control characters (C0, DEL, C1): a NUL or a CR/LF has no place in a name and is how a
 *   mail header gets split; multi-line fields keep newline and tab, and their CRLF/CR line
 *   endings become LF, as a browser's textarea sends them;
 * - no bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069) nor other invisible format
 *   characters (category Cf: bidi marks, zero-width space, soft hyphen, word joiner, BOM…),
 *   which can make a name or subject display as something else; except the zero-width joiner
 *   and non-joiner that emoji sequences and Persian or Indic names need, and the tag characters
 *   of a subdivision flag emoji (🏴 + tags + cancel tag);
 * - line and paragraph separators (U+2028, U+2029) count as line breaks;
 * - a length cap.
 *
 * Refused rather than stripped, so what is stored is exactly what the person sees in the form,
 * with a message naming the character. Arabic, Hebrew, CJK, accents and emoji pass unchanged.
 */

/** Lone high or low surrogates (with the `u` flag a lone surrogate is its own code point, category Cs). */
const LONE_SURROGATE = /\p{Cs}/u;

/** A subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿): black flag, tag letters or digits, cancel tag. Its tags are allowed, and only there. */
const FLAG_TAG_SEQUENCE = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,8}\u{E007F}/gu;

/** Characters no human text field accepts, newline and tab aside (see MULTI_LINE_ALLOWED). */
const REFUSED = /[\p{Cc}\u2028\u2029]|(?![\u200C\u200D])\p{Cf}/u;
/** Newline and tab, which multi-line fields keep. */
const MULTI_LINE_ALLOWED = /[\n\t]/gu;

function codePointName(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What is wrong with `text` as human text, or null when nothing is. `text` is already normalized and trimmed. */
export function humanTextProblem(text: string, label: string, multiline = false): string | null {
  if (LONE_SURROGATE.test(text)) return `${label} contains a broken character (an unpaired surrogate)`;
  let checked = text.replace(FLAG_TAG_SEQUENCE, '');
  if (multiline) checked = checked.replace(MULTI_LINE_ALLOWED, '');
  const found = REFUSED.exec(checked)?.[0];
  if (found === undefined) return null;
  if (!multiline && /[\n\r\u2028\u2029]/u.test(found)) return `${label} must be on one line`;
  return `${label} must not contain control or invisible formatting characters (found ${codePointName(found)})`;
}

/** True when `text` holds nothing a human text field refuses (for checks outside a schema, e.g. before a mail header). */
export function isCleanHumanText(text: string, multiline = false): boolean {
  return humanTextProblem(text, 'text', multiline) === null;
}

/**
 * Makes any stored text safe for one line of a mail header or greeting: line breaks and tabs become
 * spaces, other refused characters go (a row stored before these rules, say; a subdivision flag
 * keeps only its 🏴), whitespace runs become one space, and it is cut to `max` characters.
 */
export function toOneLine(text: string, max = 200): string {
  const kept = [...text.normalize('NFC').replace(/[\n\r\t\u2028\u2029]/g, ' ')]
    .filter((character) => !LONE_SURROGATE.test(character) && !REFUSED.test(character))
    .join('')
    .replace(/\s+/gu, ' ')
    .trim();
  const characters = [...kept];
  return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : kept;
}

export interface HumanTextRule {
  /** The field's name in messages: "Name", "Organization name". */
  label: string;
  /** At most this many UTF-16 code units, after trimming. */
  max: number;
  /** At least this many (1 unless said: a required field must not be blank). */
  min?: number;
  /** Message when shorter than `min`; "<label> is required" for min 1. */
  minMessage?: string;
  /** Keeps newline and tab (messages); single-line fields refuse every control character. */
  multiline?: boolean;
}

/** The checks of a human text field, for `z.string().check(...)`. */
function humanTextChecks({ label, max, min = 1, minMessage, multiline = false }: HumanTextRule) {
  const tooLong = `${label} must be at most ${max} characters`;
  return [
    // Text far over the limit is refused before anything reads it (trimming may still bring text a little over it within).
    lengthLimit(4 * max + 64, tooLong),
    // Refused before normalizing: String.normalize would carry a lone surrogate along silently.
    z.refine<string>((text) => !LONE_SURROGATE.test(text), { message: `${label} contains a broken character (an unpaired surrogate)`, abort: true }),
    ...(multiline ? [z.overwrite<string>((text) => text.replace(/\r\n?/g, '\n'))] : []),
    z.normalize('NFC'),
    z.trim(),
    z.superRefine<string>((text, context) => {
      const problem = humanTextProblem(text, label, multiline);
      if (problem) context.addIssue({ code: 'custom', message: problem, input: text, abort: true });
    }),
    ...(min > 0 ? [z.minLength(min, minMessage ?? (min === 1 ? `${label} is required` : `${label} must be at least ${min} characters`))] : []),
    lengthLimit(max, tooLong),
  ];
}

/** A required human text field. */
export function humanText(rule: HumanTextRule) {
  return z.string({ error: `${rule.label} is required` }).check(...humanTextChecks(rule));
}

/** An optional human text field: absent, or checked like a required one but may be empty. */
export function optionalHumanText(rule: Omit<HumanTextRule, 'min' | 'minMessage'>) {
  return z.optional(z.string().check(...humanTextChecks({ ...rule, min: 0 })));
}

/** An optional human text field that may also be null (stored as null). */
export function nullableHumanText(rule: Omit<HumanTextRule, 'min' | 'minMessage'>) {
  return z.optional(z.nullable(z.string().check(...humanTextChecks({ ...rule, min: 0 }))));
}
