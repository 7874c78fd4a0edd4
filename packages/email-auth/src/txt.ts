/** TXT record values as DNS carries them: character-strings of at most 255 bytes each. */

/** One DNS character-string holds at most 255 bytes (RFC 1035 §3.3). */
export const TXT_STRING_LIMIT = 255;

export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Cuts a TXT value into as few strings of at most 255 bytes as possible; receivers join them back without spaces. */
export function splitTxt(text: string): string[] {
  const strings: string[] = [];
  let rest = text;
  while (rest !== '') {
    let cut = Math.min(rest.length, TXT_STRING_LIMIT);
    while (cut > 1 && byteLength(rest.slice(0, cut)) > TXT_STRING_LIMIT) cut -= 1;
    strings.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return strings;
}
