import type { ComponentType } from 'react';
import type { PageProps } from '@bimi/ui/RouteTable';
import { PageIntro } from '@bimi/ui/PageIntro';
import { CheckoutPage } from '../features/checkout/CheckoutPage';

export const pages: Record<string, ComponentType<PageProps>> = {
  '/checkout': CheckoutPage,
};

export function GenericPage({ route }: PageProps) {
  return <PageIntro title={route.title} lead={route.description} />;
}
