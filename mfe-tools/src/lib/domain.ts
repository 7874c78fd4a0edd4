/**
 * What the tools accept in their inputs, checked in the browser before anything is sent.
 * Domains follow spec §5's monitor-domain rule (the same words, so the site speaks with one
 * voice); DNS names and selectors are looser because `_dmarc.` and `_domainkey.` owner
 * names carry underscores.
 */

export type FieldResult = { ok: true; value: string } | { ok: false; message: string };

const MAX_NAME_LENGTH = 253;
const HOSTNAME_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
// Owner names of service records (`_dmarc`, `selector._domainkey`) may hold underscores.
const DNS_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i;

/** Trims, removes a leading http(s):// and one trailing slash or dot, lowercases. */
export function normalizeDomainInput(raw: string): string {
  return raw
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/[/.]$/, '')
    .toLowerCase();
}

function checkLabels(name: string, label: RegExp, example: string): FieldResult {
  if (name.length > MAX_NAME_LENGTH) return { ok: false, message: 'Domain name is too long' };
  const labels = name.split('.');
  if (labels.length < 2 || !labels.every((part) => label.test(part))) {
    return { ok: false, message: `Please enter a valid domain name (e.g., ${example})` };
  }
  return { ok: true, value: name };
}

/** Spec §5: a domain such as `example.com`; scheme and trailing slash are forgiven. */
export function validateDomain(raw: string): FieldResult {
  if (raw.length === 0) return { ok: false, message: 'Domain is required' };
  const domain = normalizeDomainInput(raw);
  if (domain.length === 0) return { ok: false, message: 'Please enter a domain name' };
  return checkLabels(domain, HOSTNAME_LABEL, 'example.com');
}

/** Any DNS owner name, e.g. `_dmarc.example.com` or `s1._domainkey.example.com`. */
export function validateDnsName(raw: string): FieldResult {
  if (raw.length === 0) return { ok: false, message: 'Name is required' };
  const name = normalizeDomainInput(raw);
  if (name.length === 0) return { ok: false, message: 'Please enter a domain name' };
  const result = checkLabels(name, DNS_LABEL, '_dmarc.example.com');
  return result.ok ? result : { ok: false, message: result.message.replace('domain name', 'DNS name') };
}

/** A DKIM or BIMI selector: the label(s) before `._domainkey` or `._bimi`. Empty means "not given". */
export function validateSelector(raw: string): FieldResult {
  const selector = raw.trim().toLowerCase();
  if (selector.length === 0) return { ok: true, value: '' };
  if (selector.length > 63 || !selector.split('.').every((part) => DNS_LABEL.test(part))) {
    return { ok: false, message: 'A selector is letters, digits, hyphens or underscores, such as default or s1' };
  }
  return { ok: true, value: selector };
}

/** An https:// address of a published file (a mark certificate PEM, an SVG logo). */
export function validateHttpsUrl(raw: string): FieldResult {
  const text = raw.trim();
  if (text.length === 0) return { ok: false, message: 'Address is required' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'Please enter a full address, such as https://example.com/bimi/vmc.pem' };
  }
  if (url.protocol !== 'https:') return { ok: false, message: 'BIMI files must be served over https://' };
  if (url.username || url.password) return { ok: false, message: 'The address must not contain a user name or password' };
  return { ok: true, value: url.href };
}
