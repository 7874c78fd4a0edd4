import type { Product, SubscriptionOption } from './product-schema';

/** Spec §3: every product the store knows. */
export const PRODUCT_IDS = [
  'verified-mark-certificate',
  'modified-registered-mark',
  'common-mark-certificate',
  'government-mark-certificate',
  'bimi-checker',
  'stripe-test-product',
  'dmarc-plus',
  'dmarc-premium',
] as const;
export type ProductId = (typeof PRODUCT_IDS)[number];

export const CERTIFICATE_IDS = ['verified-mark-certificate', 'modified-registered-mark', 'common-mark-certificate', 'government-mark-certificate'] as const satisfies readonly ProductId[];
export type CertificateId = (typeof CERTIFICATE_IDS)[number];

export const DMARC_PRODUCT_IDS = ['dmarc-plus', 'dmarc-premium'] as const satisfies readonly ProductId[];
export type DmarcProductId = (typeof DMARC_PRODUCT_IDS)[number];

export const PRODUCT_TYPES = ['certificate', 'dmarc', 'assessment', 'test'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/** Spec §5, §9: a certificate is bought for 1, 2 or 3 years (default 1). */
export const PLAN_YEARS = [1, 2, 3] as const;
export type PlanYears = (typeof PLAN_YEARS)[number];
export const DEFAULT_PLAN_YEARS: PlanYears = 1;

export const PLAN_KEYS = ['1yr', '2yr', '3yr'] as const;
export type PlanKey = (typeof PLAN_KEYS)[number];
export function planKey(years: PlanYears): PlanKey {
  return `${years}yr`;
}

export const TRADEMARK_STATUS_OPTIONS = ['Registered', 'Pending'] as const;
export type TrademarkStatus = (typeof TRADEMARK_STATUS_OPTIONS)[number];
export const AGENCY_LEVEL_OPTIONS = ['Federal', 'State', 'Local'] as const;
export type AgencyLevel = (typeof AGENCY_LEVEL_OPTIONS)[number];
/** Spec §3: a government mark is for a Federal agency unless the buyer says otherwise. */
export const DEFAULT_AGENCY_LEVEL: AgencyLevel = 'Federal';

/** Spec §9: up to 250 domains per certificate (re-exported by ./prices, where the price rules use it). */
export const MIN_DOMAINS = 1;
export const MAX_DOMAINS = 250;

/**
 * Spec §9: what each DMARC plan includes besides its email volume (the volumes and prices are
 * DMARC_OPTIONS in ./prices). The product features and every page read them from here.
 */
export const DMARC_PLAN_LIMITS = {
  'dmarc-plus': { domains: 2, reportHistory: '3 months', invitedUsers: 1 },
  'dmarc-premium': { domains: 4, reportHistory: '1 year', invitedUsers: 'unlimited' },
} as const satisfies Record<string, { domains: number; reportHistory: string; invitedUsers: number | 'unlimited' }>;

/** ["2 domains", "3 months of report history", "1 invited user"]: a plan's limits in the store's words. */
export function dmarcLimitPhrases(productId: keyof typeof DMARC_PLAN_LIMITS): [string, string, string] {
  const { domains, reportHistory, invitedUsers } = DMARC_PLAN_LIMITS[productId];
  return [`${domains} domains`, `${reportHistory} of report history`, invitedUsers === 'unlimited' ? 'Unlimited users' : `${invitedUsers} invited user${invitedUsers === 1 ? '' : 's'}`];
}

/**
 * A product's fields and a plan's, as types: their zod schemas are in ./product-schema, so the pages
 * that show products and prices load no zod for them (issue 34).
 */
export type { Product, SubscriptionOption };

/** Spec §9: 10% off the base and off extra domains; plans of 1, 2, 3 years cost 1, 1.9 and 2.75 years. */
const CERTIFICATE_DISCOUNT_PERCENT = 10;
const YEAR_MULTIPLIERS = { '1yr': 100, '2yr': 190, '3yr': 275 } satisfies Record<PlanKey, number>;
const ONE_YEAR_ONLY = { '1yr': 100, '2yr': 100, '3yr': 100 } satisfies Record<PlanKey, number>;

const PLAN_LABELS: Record<PlanKey, string> = { '1yr': '1 Year', '2yr': '2 Years', '3yr': '3 Years' };

/** The plan table of a certificate, derived from its base price by the rules of §9 (checked figure by figure in the tests). */
function certificatePlans(basePricePerDomain: number): Record<PlanKey, SubscriptionOption> {
  const plans = {} as Record<PlanKey, SubscriptionOption>;
  for (const years of PLAN_YEARS) {
    const key = planKey(years);
    const amount = (basePricePerDomain * (100 - CERTIFICATE_DISCOUNT_PERCENT) * YEAR_MULTIPLIERS[key]) / 10000;
    plans[key] = { amount, label: PLAN_LABELS[key], period: 'year', savings: basePricePerDomain * years - amount };
  }
  return plans;
}

function certificate(
  fields: Pick<Product, 'id' | 'name' | 'title' | 'abbreviation' | 'digiCertType' | 'features' | 'trademarkStatusOptions' | 'agencyLevelOptions'> & {
    basePricePerDomain: number;
  },
): Product {
  return {
    ...fields,
    type: 'certificate',
    digiCertEndpoint: fields.digiCertType ? `/services/v2/order/certificate/${fields.digiCertType}` : null,
    additionalDomainPrice: fields.basePricePerDomain,
    discountOffBase: CERTIFICATE_DISCOUNT_PERCENT,
    discountOffSAN: CERTIFICATE_DISCOUNT_PERCENT,
    billingPeriod: 'year',
    msrp: fields.basePricePerDomain,
    yearMultipliers: YEAR_MULTIPLIERS,
    subscriptionOptions: certificatePlans(fields.basePricePerDomain),
  };
}

function monthlyPlan(fields: Pick<Product, 'id' | 'name' | 'title' | 'abbreviation' | 'features' | 'msrp'>): Product {
  return {
    ...fields,
    type: 'dmarc',
    digiCertType: null,
    digiCertEndpoint: null,
    basePricePerDomain: fields.msrp,
    additionalDomainPrice: 0,
    discountOffBase: 0,
    discountOffSAN: 0,
    billingPeriod: 'month',
    yearMultipliers: ONE_YEAR_ONLY,
    trademarkStatusOptions: [],
    agencyLevelOptions: [],
  };
}

const VERIFIED_BASE = 160800;
const COMMON_BASE = 118800;

const MAILBOXES = 'Logo shown in Gmail, Apple Mail, Yahoo Mail, AOL, Fastmail and La Poste, among others';

export const PRODUCTS: Record<ProductId, Product> = {
  'verified-mark-certificate': certificate({
    id: 'verified-mark-certificate',
    name: 'Verified Mark Certificate',
    title: 'DigiCert Verified Mark Certificate (VMC)',
    abbreviation: 'VMC',
    digiCertType: 'vmc_basic',
    basePricePerDomain: VERIFIED_BASE,
    features: [
      'For a logo registered as a trademark with an accepted trademark office',
      MAILBOXES,
      'Blue verified checkmark in Gmail',
      'Organization and trademark validated by DigiCert',
      `Up to ${MAX_DOMAINS} domains on one certificate`,
    ],
    trademarkStatusOptions: [...TRADEMARK_STATUS_OPTIONS],
    agencyLevelOptions: [],
  }),
  'modified-registered-mark': certificate({
    id: 'modified-registered-mark',
    name: 'Modified Registered Mark Certificate',
    title: 'DigiCert Common Mark Certificate for a modified registered mark',
    abbreviation: 'CMC',
    digiCertType: 'cmc_basic',
    basePricePerDomain: COMMON_BASE,
    features: [
      'For a logo that changes a registered trademark (colour, layout or added elements)',
      'Logo shown in Gmail and other mailboxes that accept common marks',
      'Organization validated by DigiCert; the registered mark it derives from is checked',
      `Up to ${MAX_DOMAINS} domains on one certificate`,
    ],
    trademarkStatusOptions: [...TRADEMARK_STATUS_OPTIONS],
    agencyLevelOptions: [],
  }),
  'common-mark-certificate': certificate({
    id: 'common-mark-certificate',
    name: 'Common Mark Certificate',
    title: 'DigiCert Common Mark Certificate (CMC)',
    abbreviation: 'CMC',
    digiCertType: 'cmc_basic',
    basePricePerDomain: COMMON_BASE,
    features: [
      'No trademark needed: for a logo in public use on your website for at least a year',
      'Logo shown in Gmail and other mailboxes that accept common marks',
      'Organization validated by DigiCert; prior use checked in web archives',
      `Up to ${MAX_DOMAINS} domains on one certificate`,
    ],
    trademarkStatusOptions: [],
    agencyLevelOptions: [],
  }),
  'government-mark-certificate': certificate({
    id: 'government-mark-certificate',
    name: 'Government Mark Certificate',
    title: 'DigiCert Verified Mark Certificate for a government mark (GMC)',
    abbreviation: 'GMC',
    digiCertType: 'vmc_basic',
    basePricePerDomain: VERIFIED_BASE,
    features: [
      'For a seal or logo granted to a government body by statute or regulation',
      'Federal, state and local agencies',
      MAILBOXES,
      'Blue verified checkmark in Gmail',
      `Up to ${MAX_DOMAINS} domains on one certificate`,
    ],
    trademarkStatusOptions: [],
    agencyLevelOptions: [...AGENCY_LEVEL_OPTIONS],
  }),
  'bimi-checker': {
    id: 'bimi-checker',
    name: 'BIMI Checker',
    title: 'BIMI readiness check',
    abbreviation: 'BIMI',
    type: 'assessment',
    digiCertType: null,
    digiCertEndpoint: null,
    basePricePerDomain: 0,
    additionalDomainPrice: 0,
    discountOffBase: 0,
    discountOffSAN: 0,
    billingPeriod: 'once',
    msrp: 0,
    yearMultipliers: ONE_YEAR_ONLY,
    features: ['Checks the DMARC, BIMI and logo records of a domain', 'Free'],
    trademarkStatusOptions: [],
    agencyLevelOptions: [],
  },
  'stripe-test-product': {
    id: 'stripe-test-product',
    name: 'Test Product',
    title: 'Payment test product',
    abbreviation: 'TEST',
    type: 'test',
    digiCertType: null,
    digiCertEndpoint: null,
    basePricePerDomain: 100,
    additionalDomainPrice: 0,
    discountOffBase: 0,
    discountOffSAN: 0,
    billingPeriod: 'year',
    msrp: 100,
    yearMultipliers: ONE_YEAR_ONLY,
    features: ['Exercises a real card payment for one dollar'],
    trademarkStatusOptions: [],
    agencyLevelOptions: [],
  },
  'dmarc-plus': monthlyPlan({
    id: 'dmarc-plus',
    name: 'DMARC Plus',
    title: 'EasyDMARC enforcement: DMARC Plus',
    abbreviation: 'DMARC+',
    msrp: 3599,
    // The email volume is not a feature: it is chosen (DMARC_OPTIONS), and the plan cards state the chosen one.
    features: dmarcLimitPhrases('dmarc-plus'),
  }),
  'dmarc-premium': monthlyPlan({
    id: 'dmarc-premium',
    name: 'DMARC Premium',
    title: 'EasyDMARC enforcement: DMARC Premium',
    abbreviation: 'DMARC Premium',
    msrp: 7199,
    features: dmarcLimitPhrases('dmarc-premium'),
  }),
};

export function isProductId(value: unknown): value is ProductId {
  return typeof value === 'string' && (PRODUCT_IDS as readonly string[]).includes(value);
}

export function isCertificateId(value: unknown): value is CertificateId {
  return typeof value === 'string' && (CERTIFICATE_IDS as readonly string[]).includes(value);
}

export function isDmarcProductId(value: unknown): value is DmarcProductId {
  return typeof value === 'string' && (DMARC_PRODUCT_IDS as readonly string[]).includes(value);
}

export function getProduct(id: ProductId): Product;
export function getProduct(id: string): Product | undefined;
export function getProduct(id: string): Product | undefined {
  return isProductId(id) ? PRODUCTS[id] : undefined;
}
