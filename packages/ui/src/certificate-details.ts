import { normalizeDomainInput } from '@bimi/email-auth/domain-input';
import { PRODUCTS, type ProductId } from '@bimi/catalog/products';
import type { CertificateDetails } from '@bimi/contracts/orders';

/**
 * The validation details of one certificate as the buyer fills them in, and the checks the
 * browser makes before they go to the bff (which checks them again): the same domain rule and
 * SVG Tiny PS check as the tools, from @bimi/email-auth.
 */
export interface DetailsDraft {
  organizationId: string;
  /** One field per domain the line is for. */
  domains: string[];
  logo: LogoFile | null;
  trademarkStatus: 'Registered' | 'Pending';
  agencyLevel: 'Federal' | 'State' | 'Local';
  contacts: { legal: string; technical: string; billing: string };
}

export interface LogoFile {
  name: string;
  svg: string;
  /** What the SVG Tiny PS check failed on, named; empty when the logo passes. */
  failures: string[];
  warnings: string[];
}

export interface DetailsErrors {
  organizationId?: string;
  domains?: (string | undefined)[];
  logo?: string;
  contacts?: Partial<Record<'legal' | 'technical' | 'billing', string>>;
}

export function emptyDraft(domainCount: number, defaults: { trademarkStatus?: string; agencyLevel?: string } = {}): DetailsDraft {
  return {
    organizationId: '',
    domains: Array.from({ length: domainCount }, () => ''),
    logo: null,
    trademarkStatus: defaults.trademarkStatus === 'Pending' ? 'Pending' : 'Registered',
    agencyLevel: defaults.agencyLevel === 'State' || defaults.agencyLevel === 'Local' ? defaults.agencyLevel : 'Federal',
    contacts: { legal: '', technical: '', billing: '' },
  };
}

/**
 * Checks a logo's text in the browser; a failed check is named ("viewBox is not square: …"), never
 * silently accepted. The SVG checker (with its XML parser, about 20 KB gzip) loads with the first
 * logo chosen, not with the checkout page.
 */
export async function checkLogo(name: string, svg: string): Promise<LogoFile> {
  const { checkSvgTinyPs } = await import('@bimi/email-auth/svg');
  const { checks } = checkSvgTinyPs(svg);
  return {
    name,
    svg,
    failures: checks.filter((c) => c.status === 'fail').map((c) => `${c.title}: ${c.detail}`),
    warnings: checks.filter((c) => c.status === 'warn').map((c) => `${c.title}: ${c.detail}`),
  };
}

/** Government marks take an agency level; verified, common and modified marks a trademark status. */
export function usesAgencyLevel(productId: ProductId): boolean {
  return PRODUCTS[productId].agencyLevelOptions.length > 0;
}

/**
 * The details as the contract takes them, or what is wrong field by field. Each domain passes the
 * store's one domain rule; there are exactly as many distinct domains as the line is for.
 */
export function checkDetails(draft: DetailsDraft, productId: ProductId): { details: CertificateDetails; errors: null } | { details: null; errors: DetailsErrors } {
  const errors: DetailsErrors = {};
  if (!draft.organizationId) errors.organizationId = 'Choose the organization that owns the mark';
  const domains: string[] = [];
  const domainErrors = draft.domains.map((typed, index) => {
    if (typed.trim() === '') return `Enter domain ${index + 1}`;
    const checked = normalizeDomainInput(typed);
    if (!checked.ok) return checked.message;
    if (domains.includes(checked.domain)) return `${checked.domain} is already listed`;
    domains.push(checked.domain);
    return undefined;
  });
  if (domainErrors.some(Boolean)) errors.domains = domainErrors;
  if (!draft.logo) errors.logo = 'Choose your logo as an SVG file';
  else if (draft.logo.failures.length > 0) errors.logo = `The logo does not meet SVG Tiny PS: ${draft.logo.failures.join(' ')}`;
  const contactErrors: DetailsErrors['contacts'] = {};
  for (const kind of ['legal', 'technical', 'billing'] as const) {
    if (!draft.contacts[kind]) contactErrors[kind] = `Choose the ${kind} contact`;
  }
  if (Object.keys(contactErrors).length > 0) errors.contacts = contactErrors;
  if (Object.keys(errors).length > 0 || !draft.logo) return { details: null, errors };
  const details: CertificateDetails = {
    organizationId: draft.organizationId,
    domains,
    logoSvg: draft.logo.svg,
    contacts: { ...draft.contacts },
    ...(usesAgencyLevel(productId) ? { agencyLevel: draft.agencyLevel } : { trademarkStatus: draft.trademarkStatus }),
  };
  return { details, errors: null };
}
