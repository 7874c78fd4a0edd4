import ipaddr from 'ipaddr.js';
import { SPF_MACRO_EXPANSION_LIMIT } from './spf-limits';

/**
 * SPF macros (RFC 7208 §7): the syntax of a macro-string, and its expansion for one message.
 *
 *   macro-string = *( macro-expand / macro-literal )
 *   macro-expand = ( "%{" macro-letter transformers *delimiter "}" ) / "%%" / "%_" / "%-"
 *   macro-literal = %x21-24 / %x26-7E       ; visible characters except "%"
 *   macro-letter = "s" / "l" / "o" / "d" / "i" / "p" / "h" / "c" / "r" / "t" / "v"
 *   transformers = *DIGIT [ "r" ]
 *   delimiter    = "." / "-" / "+" / "," / "/" / "_" / "="
 *
 * ABNF literals are case-insensitive, so `%{D}` and `%{d2R}` are macros too; an upper-case
 * letter asks for the value URL-escaped (§7.3).
 */

/** Where a macro-string is written: c, r and t are allowed in explanation text only (§7.1). */
export type MacroContext = 'domain-spec' | 'explanation' | 'modifier';

const DOMAIN_LETTERS = 'slodiphv';
const ALL_LETTERS = 'slodiphcrtv';

/** One piece of a macro-string: literal text or one macro to expand. */
type MacroPiece = { literal: string } | { letter: string; escape: boolean; keep?: number; reverse: boolean; delimiters: string };

/**
 * Reads a macro-string into literal text and macros, or says what is wrong with it in plain
 * words. `explanation` also admits spaces (explain-string = *( macro-string / SP )).
 */
function readMacroString(text: string, context: MacroContext): { pieces: MacroPiece[] } | { problem: string } {
  const pieces: MacroPiece[] = [];
  const letters = context === 'domain-spec' ? DOMAIN_LETTERS : ALL_LETTERS;
  let literal = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    const code = char.charCodeAt(0);
    if (char !== '%') {
      const visible = code >= 0x21 && code <= 0x7e;
      if (!visible && !(context === 'explanation' && char === ' ')) {
        return { problem: `has a character that is not allowed (${code === 0x20 ? 'a space' : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`})` };
      }
      literal += char;
      continue;
    }
    const next = text[index + 1];
    if (next === '%' || next === '_' || next === '-') {
      literal += next === '%' ? '%' : next === '_' ? ' ' : '%20';
      index += 1;
      continue;
    }
    if (next !== '{') return { problem: `has a "%" that starts no macro (write %% for a percent sign)` };
    const close = text.indexOf('}', index + 2);
    const body = close < 0 ? null : /^([a-z])(\d*)(r?)([.\-+,/_=]*)$/i.exec(text.slice(index + 2, close));
    if (!body) return { problem: `has a broken macro ${quoteMacro(text.slice(index, close < 0 ? index + 12 : close + 1))}` };
    const letter = body[1] as string;
    if (!letters.includes(letter.toLowerCase())) {
      return {
        problem: ALL_LETTERS.includes(letter.toLowerCase())
          ? `uses %{${letter}}, which is allowed in explanation text only (RFC 7208 §7.1)`
          : `uses %{${letter}}, which is not a macro letter (s, l, o, d, i, p, h, v${context === 'domain-spec' ? '' : ', c, r, t'})`,
      };
    }
    const digits = body[2] as string;
    if (digits !== '' && Number(digits) === 0) return { problem: `has %{${body[0]}}: the number of parts to keep must be 1 or more (RFC 7208 §7.3)` };
    if (literal) pieces.push({ literal });
    literal = '';
    pieces.push({
      letter,
      escape: letter !== letter.toLowerCase(),
      // More parts than a name has keeps them all; the cap keeps a huge number harmless.
      keep: digits === '' ? undefined : Math.min(Number(digits.slice(0, 4)), 256),
      reverse: body[3] !== '',
      delimiters: body[4] || '.',
    });
    index = close;
  }
  if (literal) pieces.push({ literal });
  return { pieces };
}

function quoteMacro(text: string): string {
  return `"${text.length > 20 ? `${text.slice(0, 20)}…` : text}"`;
}

/** What is wrong with a macro-string written in `context`, in plain words; null when it is valid. */
export function macroStringProblem(text: string, context: MacroContext): string | null {
  const read = readMacroString(text, context);
  return 'problem' in read ? read.problem : null;
}

/** Whether a term's value holds a macro to expand (a %{…}), not only %% / %_ / %- escapes. */
export function hasMacroExpand(text: string): boolean {
  return /%\{/.test(text.replace(/%%/g, ''));
}

/** What the macros of one check_host() evaluation stand for (RFC 7208 §7.2). */
export interface MacroValues {
  /** <sender>: the MAIL FROM address, or postmaster@<helo> when it was empty. */
  sender: string;
  /** <domain>: the domain whose record is being evaluated now. */
  domain: string;
  ip: ipaddr.IPv4 | ipaddr.IPv6;
  /** The HELO/EHLO name the client gave. */
  helo: string;
  /** The validated domain name of the ip, looked up only when a %{p} needs it. */
  validatedName?: () => Promise<string>;
  /** The receiving host's name (%{r}); "unknown" by default. */
  receiver?: string;
  /** Seconds since the epoch (%{t}). */
  timestamp?: number;
}

/** The value of one macro letter before its transformers. */
async function letterValue(letter: string, values: MacroValues): Promise<string> {
  const at = values.sender.lastIndexOf('@');
  switch (letter) {
    case 's':
      return values.sender;
    case 'l':
      return at < 0 ? 'postmaster' : values.sender.slice(0, at) || 'postmaster';
    case 'o':
      return at < 0 ? values.sender : values.sender.slice(at + 1);
    case 'd':
      return values.domain;
    case 'i':
      // IPv6 as 32 dot-separated nibbles (§7.3), IPv4 dotted.
      return values.ip.kind() === 'ipv6'
        ? (values.ip as ipaddr.IPv6)
            .toNormalizedString()
            .split(':')
            .map((group) => group.padStart(4, '0'))
            .join('')
            .split('')
            .join('.')
        : values.ip.toString();
    case 'p':
      return values.validatedName ? values.validatedName() : 'unknown';
    case 'v':
      return values.ip.kind() === 'ipv6' ? 'ip6' : 'in-addr';
    case 'h':
      return values.helo;
    case 'c':
      return values.ip.kind() === 'ipv6' ? (values.ip as ipaddr.IPv6).toRFC5952String() : values.ip.toString();
    case 'r':
      return values.receiver || 'unknown';
    case 't':
      return String(Math.floor(values.timestamp ?? Date.now() / 1000));
    default:
      return '';
  }
}

/** RFC 3986 unreserved characters stay; everything else is %-escaped (upper-case macro letters). */
function urlEscape(text: string): string {
  return Array.from(new TextEncoder().encode(text), (byte) => {
    const char = String.fromCharCode(byte);
    return /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
}

export type MacroExpansion = { ok: true; text: string } | { ok: false; problem: string };

/**
 * Expands a macro-string for one message (RFC 7208 §7.3): each macro's value is split on its
 * delimiters (default "."), reversed if asked, cut to the rightmost N parts and joined with dots.
 * A domain-spec longer than 253 characters loses labels on the left until it fits (§4.8).
 * Never throws: a syntax error comes back as a problem.
 */
export async function expandMacros(text: string, context: MacroContext, values: MacroValues): Promise<MacroExpansion> {
  const read = readMacroString(text, context);
  if ('problem' in read) return { ok: false, problem: read.problem };
  let out = '';
  for (const piece of read.pieces) {
    if ('literal' in piece) {
      out += piece.literal;
    } else {
      out += await expandMacro(piece, values);
    }
    if (out.length > SPF_MACRO_EXPANSION_LIMIT) return { ok: false, problem: `expands to more than ${SPF_MACRO_EXPANSION_LIMIT.toLocaleString('en-US')} characters` };
  }
  if (context === 'domain-spec') out = truncateDomain(out);
  return { ok: true, text: out };
}

/** One macro's text: the letter's value split on its delimiters, reversed and cut as asked, joined with dots, escaped for upper-case letters. */
async function expandMacro(piece: Extract<MacroPiece, { letter: string }>, values: MacroValues): Promise<string> {
  const value = await letterValue(piece.letter.toLowerCase(), values);
  let parts = value.split(
    new RegExp(
      `[${piece.delimiters
        .split('')
        .map((char) => `\\${char}`)
        .join('')}]`,
    ),
  );
  if (piece.reverse) parts = parts.reverse();
  if (piece.keep !== undefined && piece.keep < parts.length) parts = parts.slice(parts.length - piece.keep);
  const expanded = parts.join('.');
  return piece.escape ? urlEscape(expanded) : expanded;
}

/** §4.8: the left side is cut, label by label, until the name is at most 253 characters. */
function truncateDomain(name: string): string {
  let text = name.replace(/\.$/, '');
  while (text.length > 253 && text.includes('.')) text = text.slice(text.indexOf('.') + 1);
  return text.length > 253 ? text.slice(text.length - 253) : text;
}

/** Parses an address for evaluation; an IPv4-mapped IPv6 address is its IPv4 address. */
export function parseClientIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const trimmed = text.trim();
  if (ipaddr.IPv4.isValidFourPartDecimal(trimmed)) return ipaddr.IPv4.parse(trimmed);
  if (!trimmed.includes('%') && ipaddr.IPv6.isValid(trimmed)) {
    const address = ipaddr.IPv6.parse(trimmed);
    return address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
  }
  return null;
}
