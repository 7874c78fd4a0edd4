import { getDomain } from 'tldts';
import { asText } from './input';

// The bff reads validateDomain and organizationalDomain from this one module.
export { isDomainName, isSelector, validateDomain, type DomainValidation } from './domain-name';

/**
 * The organizational domain (RFC 7489 §3.2): the public suffix plus one label, from the Public
 * Suffix List's ICANN section (tldts). A name that is itself a public suffix, or unknown to the
 * list, is its own organizational domain.
 */
export function organizationalDomain(domain: string): string {
  const name = asText(domain).toLowerCase().replace(/\.$/, '');
  return getDomain(name, { allowPrivateDomains: false, validateHostname: false }) ?? name;
}
