/**
 * Domain names as users type them and as records write them. No Public Suffix List here, so the
 * builders and validators that run in the page stay light; organizational domains are in domain.ts.
 */
import { normalizeDomainInput, normalizeSelectorInput } from './domain-input';
import { asText } from './input';

/** Longest name DNS carries (RFC 1035 §2.3.4), written without the trailing dot. */
const MAX_NAME_LENGTH = 253;
/** Letters, digits, hyphens; underscores too because names like `_dmarc.` and `s1._domainkey.` use them. */
const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

export type DomainValidation = { ok: true; domain: string } | { ok: false; error: string };

/**
 * The domain an inspection or builder is asked about, read by the one rule of domain-input.ts,
 * forgivingly (a pasted URL or e-mail address gives its domain) and with underscores allowed
 * (`_dmarc.example.com`). Never throws.
 */
export function validateDomain(input: string): DomainValidation {
  const result = normalizeDomainInput(input, { forgiving: true, underscores: true });
  return result.ok ? result : { ok: false, error: result.message };
}

/** Whether `name` is a DNS name as written (no URL, address or IDN conversion): at least two labels. */
export function isDomainName(name: string): boolean {
  const text = asText(name).replace(/\.$/, '');
  if (text.length === 0 || text.length > MAX_NAME_LENGTH) return false;
  const labels = text.toLowerCase().split('.');
  return labels.length >= 2 && labels.every((label) => LABEL.test(label));
}

/** A DKIM or BIMI selector: one or more DNS labels (RFC 6376 §3.1). */
export function isSelector(selector: string): boolean {
  const read = normalizeSelectorInput(selector);
  return read.ok && read.selector !== '' && read.selector === selector.toLowerCase();
}
