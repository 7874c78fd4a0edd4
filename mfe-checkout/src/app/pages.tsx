import { lazyPage, type PreloadablePage } from '@bimi/ui/lazy-page';
import { CheckoutPage } from '../features/checkout/CheckoutPage';

/**
 * The pages a payment comes back to, with the orders' contract they read it with (and Zod), are
 * chunks of their own, which `/checkout` does without. They load when first shown, or earlier
 * when a link to them is pointed at (the routes module's `preload`).
 */
export const pages: Record<string, PreloadablePage> = {
  '/checkout': CheckoutPage,
  '/checkout/success': lazyPage(() => import('../features/checkout/SuccessPage'), 'SuccessPage'),
  '/checkout/cancel': lazyPage(() => import('../features/checkout/CancelPage'), 'CancelPage'),
};
