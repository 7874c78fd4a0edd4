/**
 * The tag=value list shared by DKIM (RFC 6376 §3.2), DMARC (RFC 7489 §6.4) and BIMI records:
 * `tag = value` pairs separated by `;`, spaces around either allowed, a trailing `;` allowed.
 */
export interface Tag {
  name: string;
  value: string;
}

export interface TagList {
  tags: Tag[];
  /** Pieces that are not `name=value` (a stray word, `=value`, a bad tag name), as written. */
  malformed: string[];
  /** Tag names that appear more than once. */
  duplicates: string[];
  /** First value of each tag, by name. */
  byName: Map<string, string>;
}

/** A tag name is a letter followed by letters, digits or underscores (RFC 6376 §3.2 tag-name). */
const TAG_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

export function parseTagList(text: string): TagList {
  const tags: Tag[] = [];
  const malformed: string[] = [];
  const duplicates = new Set<string>();
  const byName = new Map<string, string>();
  for (const piece of text.split(';')) {
    const trimmed = piece.trim();
    if (trimmed === '') continue;
    const equals = trimmed.indexOf('=');
    const name = equals < 0 ? '' : trimmed.slice(0, equals).trim();
    if (!TAG_NAME.test(name)) {
      malformed.push(trimmed);
      continue;
    }
    const value = trimmed.slice(equals + 1).trim();
    tags.push({ name, value });
    if (byName.has(name)) duplicates.add(name);
    else byName.set(name, value);
  }
  return { tags, malformed, duplicates: [...duplicates], byName };
}

/** Shortens what a user published for quoting in a check's detail. */
export function quote(text: string, max = 60): string {
  const clean = text.replace(/\s+/g, ' ');
  return `"${clean.length > max ? `${clean.slice(0, max)}…` : clean}"`;
}

/**
 * "a, b and c" for lists in plain words. Past `max` items it names the first ones and counts the
 * rest ("a, b, c and 92 more"): the lists come from untrusted record text and may hold thousands.
 */
export function listWords(items: readonly string[], max = 8): string {
  if (items.length <= 1) return items.join('');
  if (items.length > max) return `${items.slice(0, max).join(', ')} and ${(items.length - max).toLocaleString('en-US')} more`;
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
