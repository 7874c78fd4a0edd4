import { DMARC_OPTIONS, formatEmailVolume } from './prices';
import { type CertificateId, DMARC_PLAN_LIMITS, type DmarcProductId, MAX_DOMAINS, PRODUCTS, dmarcLimitPhrases } from './products';

/**
 * The facts more than one page states, each in one wording (issue 17: the VMC page said validation
 * of a pending trademark "starts at once" while the help center said it waits for registration;
 * one page said "one to two weeks", another "one to three"). Pages, the FAQ, the enrollment guides
 * and the validation guide PDF read these sentences; the numbers in them come from ./products and
 * ./prices, never a second copy. Pure: no React, so jest and the bff can read it too.
 */

/**
 * How long validation takes. "One to three weeks" is what DigiCert's manual checks take once the
 * file is complete (the validation guide, the FAQ and how-it-works said so); the one page that said
 * "one to two" promised more than the certificate authority does.
 */
export const VALIDATION_TIME = 'Validation usually takes one to three weeks once your documents are complete.';

/** The pending-trademark rule, for every certificate that rests on a registered trademark (VMC, modified registered mark). */
export const PENDING_TRADEMARK_START =
  'With a trademark application still pending, you can order now and choose Pending as the trademark status: validation starts only once the trademark is registered.';

/** The rule as the VMC's pages and the FAQ state it, with the way to show a logo meanwhile. */
export const PENDING_TRADEMARK_RULE = `A VMC needs a registered trademark. ${PENDING_TRADEMARK_START} If you have shown the logo on your website for a year or more, a Common Mark Certificate shows it in Gmail in the meantime.`;

/** "Up to 250 domains per certificate." */
export const DOMAINS_PER_CERTIFICATE = `Up to ${MAX_DOMAINS} domains per certificate.`;

export interface CertificateFact {
  id: CertificateId;
  /** "Verified Mark Certificate (VMC)": the name a list of the four shows. */
  name: string;
  abbreviation: string;
  /** The kind of mark it proves. */
  mark: string;
  /** The product page that sells it. */
  path: string;
}

/**
 * The four certificates, in the order a buyer usually decides (trademark first). The home page, the
 * comparison page and the validation guide list exactly these.
 */
export const CERTIFICATES: readonly CertificateFact[] = [
  { id: 'verified-mark-certificate', mark: 'Registered trademark', path: '/products/digicert-verified-mark-certificate' },
  { id: 'common-mark-certificate', mark: 'Prior use mark', path: '/products/digicert-common-mark-certificate' },
  { id: 'modified-registered-mark', mark: 'Modified registered mark', path: '/products/digicert-common-mark-certificate?mark=modified' },
  { id: 'government-mark-certificate', mark: 'Government mark', path: '/products/digicert-government-mark-certificate' },
].map(({ id, mark, path }) => {
  const product = PRODUCTS[id as CertificateId];
  return { id: id as CertificateId, name: `${product.name} (${product.abbreviation})`, abbreviation: product.abbreviation, mark, path };
});

/** "2 domains, 3 months of report history, 1 invited user." */
export function dmarcPlanSummary(productId: DmarcProductId): string {
  const [domains, history, users] = dmarcLimitPhrases(productId);
  return `${domains}, ${history}, ${users.charAt(0).toLowerCase()}${users.slice(1)}.`;
}

/** The largest monthly email volume a plan is sold for. */
export function dmarcMaxVolume(productId: DmarcProductId): number {
  return Math.max(...DMARC_OPTIONS[productId].map((option) => option.emails));
}

/** Whether a plan is sold for a monthly email volume. */
export function dmarcOffersVolume(productId: DmarcProductId, emails: number): boolean {
  return DMARC_OPTIONS[productId].some((option) => option.emails === emails);
}

/**
 * What a plan card says about the selected volume: "Up to 100,000 emails a month", or for a
 * volume the plan is not sold for, "Not offered above 1,000,000 emails a month".
 */
export function dmarcVolumeFact(productId: DmarcProductId, emails: number): string {
  if (dmarcOffersVolume(productId, emails)) return `Up to ${formatEmailVolume(emails)} a month`;
  return `Not offered above ${formatEmailVolume(dmarcMaxVolume(productId))} a month`;
}

export { DMARC_PLAN_LIMITS };
