import type { ComponentType } from 'react';
import type { PageProps } from '@bimi/ui/RouteTable';
import { CancelPage } from '../features/checkout/CancelPage';
import { CheckoutPage } from '../features/checkout/CheckoutPage';
import { SuccessPage } from '../features/checkout/SuccessPage';

export const pages: Record<string, ComponentType<PageProps>> = {
  '/checkout': CheckoutPage,
  '/checkout/success': SuccessPage,
  '/checkout/cancel': CancelPage,
};
