/**
 * Domain names as users type them and as records write them. No Public Suffix List here, so the
 * builders and validators that run in the page stay light; organizational domains are in domain.ts.
 */
import { asText } from './input';

/** Longest name DNS carries (RFC 1035 §2.3.4), written without the trailing dot. */
const MAX_NAME_LENGTH = 253;
/** Letters, digits, hyphens; underscores too because names like `_dmarc.` and `s1._domainkey.` use them. */
const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

export type DomainValidation = { ok: true; domain: string } | { ok: false; error: string };

/**
 * Turns what a user typed into the domain to look up: trims, lower-cases, drops a trailing dot,
 * accepts a pasted URL or e-mail address, converts an internationalized name to its ASCII (punycode)
 * form. Never throws; says in plain words what is wrong.
 */
export function validateDomain(input: string): DomainValidation {
  let text = asText(input).trim().toLowerCase();
  if (text === '') return { ok: false, error: 'Enter a domain name, for example example.com.' };
  if (text.length > 1024) return { ok: false, error: 'That is too long to be a domain name.' };
  // A pasted address or URL: keep the part a person means.
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(text)) text = hostnameOf(text) ?? text;
  else if (text.includes('@')) text = text.slice(text.lastIndexOf('@') + 1);
  text = text.replace(/\.$/, '');
  if (/[^\x21-\x7e]/.test(text) && !/\s/.test(text)) text = toAscii(text) ?? text;
  if (/\s/.test(text)) return { ok: false, error: 'A domain name cannot contain spaces.' };
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(text) || /^\[?[0-9a-f:.]*:[0-9a-f:.]*\]?$/.test(text)) return { ok: false, error: 'Enter a domain name, not an IP address.' };
  if (text.length > MAX_NAME_LENGTH) return { ok: false, error: `A domain name is at most ${MAX_NAME_LENGTH} characters long.` };
  const labels = text.split('.');
  if (labels.length < 2) return { ok: false, error: 'Enter a full domain name with a dot, for example example.com.' };
  const badLabel = labels.find((label) => !LABEL.test(label));
  if (badLabel !== undefined) {
    return {
      ok: false,
      error:
        badLabel === ''
          ? 'A domain name cannot have two dots in a row or start with a dot.'
          : `"${badLabel}" is not a valid part of a domain name: use letters, digits and hyphens (not at the start or end), at most 63 characters.`,
    };
  }
  return { ok: true, domain: text };
}

/** Whether `name` is a DNS name as written (no URL, address or IDN conversion): at least two labels. */
export function isDomainName(name: string): boolean {
  const text = asText(name).replace(/\.$/, '');
  if (text.length === 0 || text.length > MAX_NAME_LENGTH) return false;
  const labels = text.toLowerCase().split('.');
  return labels.length >= 2 && labels.every((label) => LABEL.test(label));
}

/** The host of a pasted URL, through the platform's URL parser (present in browsers and Node). */
function hostnameOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/** IDN to punycode through the platform's URL parser. */
function toAscii(name: string): string | null {
  try {
    return new URL(`http://${name}`).hostname;
  } catch {
    return null;
  }
}

/** A DKIM or BIMI selector: one or more DNS labels (RFC 6376 §3.1). */
export function isSelector(selector: string): boolean {
  return selector.length <= 200 && selector.split('.').every((label) => /^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$/.test(label));
}
