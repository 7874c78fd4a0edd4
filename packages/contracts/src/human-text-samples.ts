/**
 * Samples for the tests of human text (human-text.ts), shared by the schema tests here and the
 * bff's API tests: what must be refused, and real text in many scripts that must pass unchanged.
 */

/** Hostile inputs every human text field refuses, single-line or not. */
export const HOSTILE_TEXT: [string, string][] = [
  ['NUL', 'Jane\u0000Doe'],
  ['BEL', 'Jane\u0007Doe'],
  ['escape sequence', 'Jane\u001b[31mDoe'],
  ['DEL', 'Jane\u007fDoe'],
  ['C1 control (NEL)', 'Jane\u0085Doe'],
  ['right-to-left override', 'Jane \u202Egnp.exe'],
  ['left-to-right embedding', 'Jane\u202ADoe'],
  ['pop directional formatting', 'Jane\u202CDoe'],
  ['first strong isolate', 'Jane\u2068Doe\u2069'],
  ['right-to-left mark', 'Jane\u200FDoe'],
  ['zero-width space', 'Ja\u200Bne'],
  ['soft hyphen', 'Ja\u00ADne'],
  ['word joiner', 'Ja\u2060ne'],
  ['byte order mark inside', 'Ja\uFEFFne'],
  ['tag characters (hidden text)', 'Jane\u{E0049}\u{E0047}\u{E004E}'],
  ['lone high surrogate', 'Jane\uD800Doe'],
  ['lone low surrogate', 'Jane\uDC00'],
  ['line separator', 'Jane\u2028Doe'],
  ['vertical tab', 'Jane\u000BDoe'],
];

/** Breaks that only single-line fields refuse. */
export const LINE_BREAKS: [string, string][] = [
  ['CR LF (header injection)', 'Jane\r\nBcc: victim@example.com'],
  ['LF', 'Jane\nDoe'],
  ['CR', 'Jane\rDoe'],
  ['tab', 'Jane\tDoe'],
];

/** Real names and subjects in many scripts, none with a control or override character. */
export const LEGITIMATE_TEXT = [
  'Zoë Ångström-Núñez',
  "Seán O'Brien",
  '山田 太郎',
  '김민준',
  'محمد بن سلمان',
  'דוד בן-גוריון',
  'Ана Петровић',
  'नमस्ते दुनिया',
  'مریم\u200Cها', // Persian: a zero-width non-joiner belongs in the word
  'Team 🚀 launch 👩‍💻', // emoji with a zero-width joiner sequence
  'Flags 🇫🇷 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}', // Scotland: a tag sequence
  'Ünïcödé Ltd. & Co. (Zürich)',
];
