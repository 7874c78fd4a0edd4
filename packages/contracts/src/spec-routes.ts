/**
 * Every route of spec §2 and the remote that owns it (DESIGN.md, "One site, five
 * deployables"). The unit tests check the remotes' published route tables against it; the
 * e2e flows check the running registry and pages against it.
 */

import type { RemoteName } from './remote-modules';

const TOOLS = [
  'vmc-validator',
  'dmarc-inspector',
  'bimi-checker',
  'txt-checker',
  'cname-checker',
  'domain-records',
  'spf-lookup',
  'dkim-lookup',
  'dmarc-generator',
  'spf-generator',
  'dkim-generator',
  'bimi-generator',
] as const;

export const SPEC_ROUTE_OWNERS: ReadonlyArray<readonly [path: string, owner: RemoteName]> = [
  ...(
    [
      '/',
      '/products/digicert-mark-certificates',
      '/products/digicert-verified-mark-certificate',
      '/products/digicert-common-mark-certificate',
      '/products/digicert-government-mark-certificate',
      '/products/easydmarc-enforcement',
      '/how-it-works',
      '/about',
      '/contact',
      '/help-center',
      '/articles',
      '/faq',
      '/glossary',
      '/privacy-policy',
      '/terms',
      '/refund-policy',
      '/landing/verified-mark-certificate',
      '/landing/common-mark-certificate',
      '/landing/government-mark-certificate',
      '/landing/entrust-to-digicert-vmc',
      '/landing/entrust-to-digicert/*',
      '/digicert-enrollment',
    ] as const
  ).map((path) => [path, 'storefront'] as const),
  ...(['/checkout', '/checkout/success', '/checkout/cancel'] as const).map((path) => [path, 'checkout'] as const),
  ...(
    [
      '/auth/signin',
      '/auth/signup',
      '/auth/partner-signup',
      '/auth/verify',
      '/auth/check-email',
      '/forgot-password',
      '/auth/reset-password',
      '/account/dashboard',
      '/account/orders',
      '/account/orders/:orderId',
      '/account/settings/profile',
      '/account/settings/notifications',
      '/account/settings/organizations',
      '/account/settings/contacts',
      '/account/billing/transactions',
      '/account/billing/payment-methods',
      '/account/support',
      '/account/buy-now',
      '/account/monitors/:domain',
    ] as const
  ).map((path) => [path, 'account'] as const),
  ...(['/vmc-validator', '/bimi-checker', '/dmarc-inspector', ...TOOLS.map((tool) => `/account/tools/${tool}`)] as const).map((path) => [path, 'tools'] as const),
];
