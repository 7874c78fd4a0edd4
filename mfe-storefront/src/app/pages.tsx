import type { ComponentType } from 'react';
import type { PageProps } from '@bimi/ui/RouteTable';
import { PageIntro } from '@bimi/ui/PageIntro';
import { HomePage } from '../features/home/HomePage';
import { ProductPage } from '../features/products/ProductPage';

/** Pages with their own component; the others show their heading and lead from routes.json. */
export const pages: Record<string, ComponentType<PageProps>> = {
  '/': HomePage,
  '/products/digicert-mark-certificates': ProductPage,
  '/products/digicert-verified-mark-certificate': ProductPage,
  '/products/digicert-common-mark-certificate': ProductPage,
  '/products/digicert-government-mark-certificate': ProductPage,
  '/products/easydmarc-enforcement': ProductPage,
};

export function GenericPage({ route }: PageProps) {
  return <PageIntro title={route.title} lead={route.description} />;
}
