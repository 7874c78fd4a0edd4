import type { ComponentType } from 'react';
import type { PageProps } from '@bimi/ui/RouteTable';
import { HomePage } from '../features/home/HomePage';
import { contentPages } from './content-pages';
import { CommonMarkPage, DmarcEnforcementPage, GovernmentMarkPage, MarkCertificatesPage, VerifiedMarkPage } from '../features/products/lazy-pages';

/** Pages with their own component; the others show their heading and lead from routes.json. */
export const pages: Record<string, ComponentType<PageProps>> = {
  '/': HomePage,
  ...contentPages,
  '/products/digicert-mark-certificates': MarkCertificatesPage,
  '/products/digicert-verified-mark-certificate': VerifiedMarkPage,
  '/products/digicert-common-mark-certificate': CommonMarkPage,
  '/products/digicert-government-mark-certificate': GovernmentMarkPage,
  '/products/easydmarc-enforcement': DmarcEnforcementPage,
};
