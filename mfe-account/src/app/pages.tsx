import { lazy, type ComponentType } from 'react';
import { lazyPage, type PreloadablePage } from '@bimi/ui/lazy-page';
import type { PageProps } from '@bimi/ui/RouteTable';
import { DASHBOARD_ANSWERS } from '../features/dashboard/dashboard-answers';
import { prefetchApi } from '../lib/prefetch-api';

/**
 * A page whose code loads when it is first shown: the dashboard does not download the sign-up
 * form's phone-number rules, the buy-now stepper or the settings' dialogs (the routes module
 * imported them all: 40 requests and about 450 KB before the dashboard rendered, issue 14). What
 * it will show (`answers`) is asked for beside its code, whether the shell preloads the page
 * (exposed/routes.tsx) or it renders first.
 */
function page<Name extends string>(load: () => Promise<Record<Name, ComponentType<PageProps>>>, name: Name, answers: readonly string[] = []): PreloadablePage {
  return lazyPage(load, name, () => prefetchApi(answers));
}

const DashboardPage = page(() => import('../features/dashboard/load-dashboard-page').then(({ loadDashboardPage }) => loadDashboardPage()), 'DashboardPage', DASHBOARD_ANSWERS);
const SignInPage = page(() => import('../features/auth/SignInPage'), 'SignInPage');
const SignUpPage = page(() => import('../features/auth/SignUpPage'), 'SignUpPage');
const PartnerSignUpPage = page(() => import('../features/auth/PartnerSignUpPage'), 'PartnerSignUpPage');
const CheckEmailPage = page(() => import('../features/auth/CheckEmailPage'), 'CheckEmailPage');
const VerifyPage = page(() => import('../features/auth/VerifyPage'), 'VerifyPage');
const ForgotPasswordPage = page(() => import('../features/auth/ForgotPasswordPage'), 'ForgotPasswordPage');
const ResetPasswordPage = page(() => import('../features/auth/ResetPasswordPage'), 'ResetPasswordPage');
const ProfilePage = page(() => import('../features/profile/ProfilePage'), 'ProfilePage');
const NotificationsPage = page(() => import('../features/notifications/NotificationsPage'), 'NotificationsPage');
const OrganizationsPage = page(() => import('../features/organizations/OrganizationsPage'), 'OrganizationsPage');
const ContactsPage = page(() => import('../features/contacts/ContactsPage'), 'ContactsPage');
const SupportPage = page(() => import('../features/support/SupportPage'), 'SupportPage');
const BuyNowPage = page(() => import('../features/buy-now/BuyNowPage'), 'BuyNowPage');
const OrdersPage = page(() => import('../features/orders/OrdersPage'), 'OrdersPage');
const OrderPage = page(() => import('../features/orders/OrderPage'), 'OrderPage');
const TransactionsPage = page(() => import('../features/billing/TransactionsPage'), 'TransactionsPage');
const PaymentMethodsPage = page(() => import('../features/billing/PaymentMethodsPage'), 'PaymentMethodsPage');
// The monitor page carries the inbox mock-ups and, lazily again, @mui/x-charts: its own chunk.
const MonitorPage = lazy(() => import('../features/monitors/MonitorPage'));

export const pages: Record<string, PreloadablePage> = {
  '/account/dashboard': DashboardPage,
  '/auth/signin': SignInPage,
  '/auth/signup': SignUpPage,
  '/auth/partner-signup': PartnerSignUpPage,
  '/auth/check-email': CheckEmailPage,
  '/auth/verify': VerifyPage,
  '/forgot-password': ForgotPasswordPage,
  '/auth/reset-password': ResetPasswordPage,
  '/account/settings/profile': ProfilePage,
  '/account/settings/notifications': NotificationsPage,
  '/account/settings/organizations': OrganizationsPage,
  '/account/settings/contacts': ContactsPage,
  '/account/support': SupportPage,
  '/account/buy-now': BuyNowPage,
  '/account/orders': OrdersPage,
  '/account/orders/:orderId': OrderPage,
  '/account/billing/transactions': TransactionsPage,
  '/account/billing/payment-methods': PaymentMethodsPage,
  '/account/monitors/:domain': MonitorPage,
};
