/** The site's navigation, in the spec's words (§2). Paths only: each page belongs to a remote. */
export interface NavLink {
  label: string;
  to: string;
  description?: string;
  external?: boolean;
}

export const PRODUCT_LINKS: NavLink[] = [
  { label: 'All mark certificates', to: '/products/digicert-mark-certificates', description: 'Compare VMC, CMC and government marks' },
  { label: 'Verified Mark Certificate', to: '/products/digicert-verified-mark-certificate', description: 'For registered trademarks' },
  { label: 'Common Mark Certificate', to: '/products/digicert-common-mark-certificate', description: 'For logos in use for a year or more' },
  { label: 'Government Mark Certificate', to: '/products/digicert-government-mark-certificate', description: 'For government agencies' },
  { label: 'DMARC enforcement', to: '/products/easydmarc-enforcement', description: 'DMARC Plus and Premium plans' },
];

export const SUPPORT_LINKS: NavLink[] = [
  { label: 'Help center', to: '/help-center' },
  { label: 'FAQ', to: '/faq' },
  { label: 'Glossary', to: '/glossary' },
  { label: 'Articles', to: '/articles' },
  { label: 'How it works', to: '/how-it-works' },
  { label: 'Contact us', to: '/contact' },
];

export const PUBLIC_TOOL_LINKS: NavLink[] = [
  { label: 'BIMI checker', to: '/bimi-checker' },
  { label: 'VMC validator', to: '/vmc-validator' },
  { label: 'DMARC inspector', to: '/dmarc-inspector' },
];

/** The twelve tools of the account area (spec §2). */
export const ACCOUNT_TOOL_LINKS: NavLink[] = [
  { label: 'VMC validator', to: '/account/tools/vmc-validator' },
  { label: 'DMARC inspector', to: '/account/tools/dmarc-inspector' },
  { label: 'BIMI checker', to: '/account/tools/bimi-checker' },
  { label: 'TXT checker', to: '/account/tools/txt-checker' },
  { label: 'CNAME checker', to: '/account/tools/cname-checker' },
  { label: 'Domain records', to: '/account/tools/domain-records' },
  { label: 'SPF lookup', to: '/account/tools/spf-lookup' },
  { label: 'DKIM lookup', to: '/account/tools/dkim-lookup' },
  { label: 'DMARC generator', to: '/account/tools/dmarc-generator' },
  { label: 'SPF generator', to: '/account/tools/spf-generator' },
  { label: 'DKIM generator', to: '/account/tools/dkim-generator' },
  { label: 'BIMI generator', to: '/account/tools/bimi-generator' },
];

/** Spec §2: the signed-in Resources dropdown adds the account's checkers and lookups… */
export const ACCOUNT_CHECK_TOOL_LINKS: NavLink[] = ACCOUNT_TOOL_LINKS.filter((link) => !link.to.endsWith('-generator'));
/** …and its record generators. */
export const EMAIL_TOOL_LINKS: NavLink[] = ACCOUNT_TOOL_LINKS.filter((link) => link.to.endsWith('-generator'));

/** Spec §2: the header's user menu, signed in (Sign Out follows them). */
export const USER_MENU_LINKS: NavLink[] = [
  { label: 'Dashboard', to: '/account/dashboard' },
  { label: 'Profile', to: '/account/settings/profile' },
  { label: 'Orders', to: '/account/orders' },
  { label: 'Billing', to: '/account/billing/transactions' },
  { label: 'Manage Data', to: '/account/settings/organizations' },
  { label: 'Support', to: '/account/support' },
];

/**
 * The account's monitors: the spec's routes list only monitors/{domain}, so the list lives on the
 * dashboard, under this anchor.
 */
export const MONITORS_LINK: NavLink = { label: 'Monitors', to: '/account/dashboard#monitors' };

export const SETTINGS_LINKS: NavLink[] = [
  { label: 'Profile', to: '/account/settings/profile' },
  { label: 'Notifications', to: '/account/settings/notifications' },
  { label: 'Organizations', to: '/account/settings/organizations' },
  { label: 'Contacts', to: '/account/settings/contacts' },
];

export const ACCOUNT_SUPPORT_LINKS: NavLink[] = [
  { label: 'Support tickets', to: '/account/support' },
  { label: 'Help center', to: '/help-center', external: true },
  { label: 'FAQs', to: '/faq', external: true },
  { label: 'Glossary', to: '/glossary', external: true },
  { label: 'Validation guide', to: '/docs/Mark-Certificate-Validation-Guide.pdf', external: true },
  { label: 'Schedule a call', to: '/contact?topic=call', external: true },
];

export const LEGAL_LINKS: NavLink[] = [
  { label: 'Privacy policy', to: '/privacy-policy' },
  { label: 'Terms', to: '/terms' },
  { label: 'Refund policy', to: '/refund-policy' },
];

export const COMPANY_LINKS: NavLink[] = [
  { label: 'About', to: '/about' },
  { label: 'How it works', to: '/how-it-works' },
  { label: 'Contact', to: '/contact' },
];

export const BUY_NOW_PATH = '/products/digicert-mark-certificates';
export const SIGN_IN_PATH = '/auth/signin';
export const DASHBOARD_PATH = '/account/dashboard';
