/**
 * The one rule for domain names, DNS names and selectors as people type them: the tools' forms,
 * the bff's query strings and the Add Monitor modal all read input through these functions, so
 * they accept the same things and say the same words (spec §5's monitor-domain messages).
 *
 * Each answer is the kept value or a `reason` code with its message, so a caller that needs other
 * words for one case (the monitor form) maps the code instead of writing its own rule.
 * Browser-safe: IDN conversion uses the platform's URL parser. No Public Suffix List here.
 */

export type DomainInputReason =
  /** Nothing was typed at all. */
  | 'required'
  /** Only spaces, or only a scheme: nothing that could be a name. */
  | 'empty'
  /** Over 253 characters. */
  | 'too-long'
  /** An IPv4 or IPv6 address instead of a name. */
  | 'ip-address'
  /** An e-mail address or a URL with a path, where only a domain is wanted (not forgiving). */
  | 'not-a-domain-only'
  /** Anything else that is not a name: a bad label, one label only, spaces, punctuation. */
  | 'invalid';

export type DomainInput = { ok: true; domain: string } | { ok: false; reason: DomainInputReason; message: string };

export interface DomainInputOptions {
  /**
   * Reduce a pasted URL (`https://www.example.com/path`) or e-mail address (`jo@example.com`) to
   * its domain instead of refusing it (also `example.com/page` without a scheme). The bff reads
   * query strings so, and since issue 17 every tool form does too, showing what was kept.
   */
  forgiving?: boolean;
  /** The host in "Please enter a valid domain name (e.g., {host})"; example.com by default. */
  example?: string;
  /** Owner names of service records (`_dmarc.example.com`) may hold underscores. */
  underscores?: boolean;
}

/** Longest name DNS carries (RFC 1035 §2.3.4), written without the trailing dot. */
export const MAX_DOMAIN_LENGTH = 253;
const HOSTNAME_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const DNS_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const IPV6 = /^\[?[0-9a-f]*:[0-9a-f:.]*\]?$/;

export const DOMAIN_MESSAGES = {
  required: 'Domain is required',
  empty: 'Please enter a domain name',
  tooLong: 'Domain name is too long',
  ipAddress: 'Please enter a domain name, not an IP address',
  domainOnly: 'Please enter the domain only, without an address or path (e.g., {host})',
  invalid: 'Please enter a valid domain name (e.g., {host})',
} as const;

function refuse(reason: DomainInputReason, message: string, example: string): DomainInput {
  return { ok: false, reason, message: message.replace('{host}', example) };
}

/** IDN to punycode through the platform's URL parser; null when it cannot be converted. */
function toAscii(name: string): string | null {
  try {
    return new URL(`http://${name}`).hostname;
  } catch {
    return null;
  }
}

function hostnameOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/**
 * What the user typed, as the domain to look up: trimmed, lower-cased, a leading http(s):// and
 * one trailing slash or dot removed (spec §5), an internationalized name in its ASCII form.
 * Then labels of letters, digits and inner hyphens (underscores too with `underscores`), at least
 * two, each at most 63 characters, 253 in all; never an IP address. Never throws.
 */
export function normalizeDomainInput(raw: unknown, options: DomainInputOptions = {}): DomainInput {
  const example = options.example ?? 'example.com';
  // No value at all is "required"; an empty field is "empty" (spec §5: "Please enter a domain name").
  if (typeof raw !== 'string') return refuse('required', DOMAIN_MESSAGES.required, example);
  const typed = raw;
  if (typed.length === 0) return refuse('empty', DOMAIN_MESSAGES.empty, example);
  if (typed.length > 2048) return refuse('too-long', DOMAIN_MESSAGES.tooLong, example);
  let text = typed.trim().toLowerCase();
  if (options.forgiving) {
    if (/^[a-z][a-z0-9+.-]*:\/\/./.test(text)) text = hostnameOf(text) ?? text;
    else if (text.includes('@')) text = text.slice(text.lastIndexOf('@') + 1);
    // A URL pasted without its scheme: `example.com/page` or `example.com?x` is example.com.
    else if (/^[^/?#\s:]+[/?#]./.test(text)) text = text.split(/[/?#]/)[0] ?? text;
  }
  text = text.replace(/^https?:\/\//, '').replace(/[/.]$/, '');
  if (text.length === 0) return refuse('empty', DOMAIN_MESSAGES.empty, example);
  if (IPV4.test(text) || (IPV6.test(text) && text.includes(':'))) return refuse('ip-address', DOMAIN_MESSAGES.ipAddress, example);
  if (/[@/]/.test(text) && !/\s/.test(text)) return refuse('not-a-domain-only', DOMAIN_MESSAGES.domainOnly, example);
  // Non-ASCII letters: the ASCII (punycode) form is what DNS is asked.
  if (/[^\x20-\x7e]/.test(text) && !/\s/.test(text)) text = toAscii(text) ?? text;
  if (text.length > MAX_DOMAIN_LENGTH) return refuse('too-long', DOMAIN_MESSAGES.tooLong, example);
  const labels = text.split('.');
  const label = options.underscores ? DNS_LABEL : HOSTNAME_LABEL;
  // A name whose last label is all digits reads as an address (RFC 7208 §7.1, RFC 3696 §2).
  if (labels.length < 2 || !labels.every((part) => label.test(part)) || /^\d+$/.test(labels[labels.length - 1] ?? '')) {
    return refuse('invalid', DOMAIN_MESSAGES.invalid, example);
  }
  return { ok: true, domain: text };
}

/** A DNS owner name such as `_dmarc.example.com` or `s1._domainkey.example.com`. */
export function normalizeDnsNameInput(raw: unknown, options: Omit<DomainInputOptions, 'underscores'> = {}): DomainInput {
  const result = normalizeDomainInput(raw, { example: '_dmarc.example.com', ...options, underscores: true });
  if (result.ok) return result;
  const message = result.reason === 'required' ? 'Name is required' : result.message.replace('domain name', 'DNS name');
  return { ...result, message };
}

export type SelectorInput = { ok: true; selector: string } | { ok: false; message: string };

export const SELECTOR_MESSAGE = 'A selector is letters, digits, hyphens or underscores, such as default or s1';

/**
 * A DKIM or BIMI selector (RFC 6376 §3.1): one or more labels of letters, digits, hyphens and
 * underscores. Empty means "not given" and is kept as ''.
 */
export function normalizeSelectorInput(raw: unknown): SelectorInput {
  const selector = (typeof raw === 'string' ? raw : '').trim().toLowerCase();
  if (selector === '') return { ok: true, selector: '' };
  if (selector.length > 200 || !selector.split('.').every((part) => DNS_LABEL.test(part))) return { ok: false, message: SELECTOR_MESSAGE };
  return { ok: true, selector };
}
