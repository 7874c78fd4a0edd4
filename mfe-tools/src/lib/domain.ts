/**
 * What the tools accept in their inputs, checked in the browser before anything is sent. Domains,
 * DNS names and selectors follow the one rule of `@bimi/email-auth/domain-input` (spec §5's words),
 * which the bff reads its query strings with too; these wrap it in the form fields' result shape.
 */

import { normalizeDnsNameInput, normalizeDomainInput, normalizeSelectorInput, SELECTOR_MESSAGE } from '@bimi/email-auth/domain-input';

export type FieldResult = { ok: true; value: string } | { ok: false; message: string };

/**
 * Spec §5: a domain such as `example.com`, by the one rule of @bimi/email-auth, forgiving (issue 17):
 * a pasted URL (`https://example.com/page`) or e-mail address (`someone@example.com`) is reduced to
 * its domain, as the bff reduces its query strings; an IP address is still refused.
 */
export function validateDomain(raw: string): FieldResult {
  const result = normalizeDomainInput(raw, { forgiving: true });
  return result.ok ? { ok: true, value: result.domain } : { ok: false, message: result.message };
}

/** Any DNS owner name, e.g. `_dmarc.example.com` or `s1._domainkey.example.com`. */
export function validateDnsName(raw: string): FieldResult {
  const result = normalizeDnsNameInput(raw);
  return result.ok ? { ok: true, value: result.domain } : { ok: false, message: result.message };
}

/** A DKIM or BIMI selector: the label(s) before `._domainkey` or `._bimi`. Empty means "not given". */
export function validateSelector(raw: string): FieldResult {
  const result = normalizeSelectorInput(raw);
  return result.ok ? { ok: true, value: result.selector } : { ok: false, message: SELECTOR_MESSAGE };
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

/** The words under a field whose input was reduced to its domain, so the person sees what was kept. */
export function keptNote(raw: string, kept: string): string | undefined {
  const typed = raw
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/[/.]$/, '');
  return typed === kept ? undefined : `Checking ${kept}, the domain of what you entered`;
}
