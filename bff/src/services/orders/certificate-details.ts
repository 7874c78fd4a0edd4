import { PRODUCTS, isProductId } from '@bimi/catalog/products';
import type { CertificateDetails } from '@bimi/contracts/orders';
import { normalizeDomainInput } from '@bimi/email-auth/domain-input';
import { Refusal } from '../../lib/refusal';
import { logoCheckUnavailable, type UntrustedFiles } from '../untrusted-files/untrusted-files';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The order line the details are for: its product and how many domains it covers. */
export interface DetailsLine {
  productId: string;
  domains?: number | null;
}

/** What the check reads of the user's own records (their memberships and their contacts), and where it reads the logo. */
export interface DetailsOwnership {
  organizations: { isMember(organizationId: string, userId: string): Promise<boolean> };
  contacts: { ownedAmong(userId: string, ids: readonly string[]): Promise<string[]> };
  /** The untrusted-files worker threads: a stranger's logo is never parsed on the event loop (issue 31). */
  files: Pick<UntrustedFiles, 'checkLogo'>;
}

/**
 * Checks a certificate's validation details against the line and the user's own records, as the
 * validation guide asks: a certificate line only; exactly as many domains as the line covers, each
 * one a domain name by the store's one domain rule (@bimi/email-auth), none twice; the logo an SVG
 * Tiny PS file (every failed check named; read in the untrusted-files worker threads, refused as
 * unavailable when they are busy); the trademark status (VMC, CMC) or agency level (GMC);
 * an organization the user belongs to and contacts of their own. Throws a Refusal naming the field at
 * fault (`where` prefixes it); answers the details with the domains normalized.
 */
export async function checkCertificateDetails(records: DetailsOwnership, userId: string, line: DetailsLine, details: CertificateDetails, where = 'details'): Promise<CertificateDetails> {
  const product = isProductId(line.productId) ? PRODUCTS[line.productId] : undefined;
  if (product?.type !== 'certificate') throw new Refusal('invalid', `${where}: only certificate orders take validation details`);
  const domainCount = line.domains ?? 1;
  if (details.domains.length !== domainCount) {
    throw new Refusal('invalid', `${where}.domains: give exactly ${domainCount} domain${domainCount === 1 ? '' : 's'}, as many as the certificate covers (${details.domains.length} given)`);
  }
  const domains = details.domains.map((domain, index) => {
    // Read exactly as the checkout and order pages read it, so the browser and the bff agree.
    const checked = normalizeDomainInput(domain);
    if (!checked.ok) throw new Refusal('invalid', `${where}.domains[${index}]: ${checked.message}`);
    return checked.domain;
  });
  const repeated = domains.find((domain, index) => domains.indexOf(domain) !== index);
  if (repeated) throw new Refusal('invalid', `${where}.domains: ${repeated} is given twice; each domain only once`);

  const verdict = await records.files.checkLogo(Buffer.from(details.logoSvg, 'utf8'));
  if (logoCheckUnavailable(verdict)) throw new Refusal('unavailable', `${where}.logoSvg: the logo could not be checked just now. Nothing was changed; please try again in a minute.`);
  const failed = verdict.checks.filter((check) => check.status === 'fail');
  if (failed.length > 0) {
    throw new Refusal('invalid', `${where}.logoSvg: the logo is not SVG Tiny PS: ${failed.map((check) => `${check.title} (${check.detail.replace(/\.$/, '')})`).join('; ')}`);
  }
  if (product.trademarkStatusOptions.length > 0 && !details.trademarkStatus) {
    throw new Refusal('invalid', `${where}.trademarkStatus: say whether the mark is registered or pending`);
  }
  if (product.agencyLevelOptions.length > 0 && !details.agencyLevel) throw new Refusal('invalid', `${where}.agencyLevel: choose Federal, State or Local`);

  // Our ids are UUIDs: anything else is nobody's (and never reaches the database, which may refuse its bytes).
  const isOurId = (id: string) => UUID.test(id);
  if (!isOurId(details.organizationId)) throw new Refusal('invalid', `${where}.organizationId: not one of your organizations`);
  if (!(await records.organizations.isMember(details.organizationId, userId))) throw new Refusal('invalid', `${where}.organizationId: not one of your organizations`);
  const contactIds = [...new Set([details.contacts.legal, details.contacts.technical, details.contacts.billing])];
  if (!contactIds.every(isOurId)) throw new Refusal('invalid', `${where}.contacts: each contact must be one of yours (Settings → Contacts)`);
  const owned = await records.contacts.ownedAmong(userId, contactIds);
  if (owned.length !== contactIds.length) throw new Refusal('invalid', `${where}.contacts: each contact must be one of yours (Settings → Contacts)`);
  return {
    organizationId: details.organizationId,
    domains,
    logoSvg: details.logoSvg,
    ...(product.trademarkStatusOptions.length > 0 ? { trademarkStatus: details.trademarkStatus } : {}),
    ...(product.agencyLevelOptions.length > 0 ? { agencyLevel: details.agencyLevel } : {}),
    contacts: details.contacts,
  };
}
