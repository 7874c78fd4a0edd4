import * as z from 'zod/mini';

/**
 * The body of every 4xx/5xx JSON answer of the bff: a message fit to show or log, and where a page
 * acts on which refusal it is (one 409 among several), its `code`.
 */
export const ApiError = z.object({
  message: z.string(),
  code: z.optional(z.string()),
});
export type ApiError = z.infer<typeof ApiError>;

/** A field's code name before the words of a validation message: `currentPassword: …`, `items[0].domain: …`. */
const FIELD_PREFIX = /^([a-z_$][\w$]*(?:(?:\.[A-Za-z_$][\w$]*)|\[\d+\])*): (\S[\s\S]*)$/;
/** Where the bff joins the messages of several fields: `newEmail: …; currentPassword: …`. */
const NEXT_FIELD = /; (?=[a-z_$][\w$]*(?:(?:\.[A-Za-z_$][\w$]*)|\[\d+\])*: \S)/;

/**
 * What a person is shown of an ApiError's message: the bff names the field a validation error is
 * about (`currentPassword: The current password is incorrect`, several joined with "; "), so a form
 * can put the words under that field; the code name itself is never shown (issue 32). `field` is
 * the first field's code name, `fields` each field's words, `text` the words alone.
 */
export function shownMessage(message: string): { field?: string; fields: Record<string, string>; text: string } {
  const fields: Record<string, string> = {};
  const texts = message
    .trim()
    .split(NEXT_FIELD)
    .map((part) => {
      const match = FIELD_PREFIX.exec(part);
      if (!match) return part;
      fields[match[1] as string] ??= match[2] as string;
      return match[2] as string;
    });
  const field = Object.keys(fields)[0];
  return field === undefined ? { fields, text: texts.join('; ') } : { field, fields, text: texts.join('; ') };
}

/**
 * Whether text shown to a person carries a field's code name: a word in camelCase or snake_case, or
 * an indexed path (`currentPassword`, `new_email`, `items[0]`); addresses and URLs aside. The check
 * the bad-input sweep runs on every message as a page would show it.
 */
export function showsCodeName(text: string): boolean {
  return text
    .split(/\s+/)
    .map((word) => word.replace(/^["'(`]+|["'`),.;:!?]+$/g, ''))
    .some((word) => !/[@/]/.test(word) && (/^[a-z]+[A-Z][A-Za-z0-9]*$/.test(word) || /^[a-z]+(?:_[a-z0-9]+)+$/.test(word) || /\w\[\d+\]/.test(word)));
}
