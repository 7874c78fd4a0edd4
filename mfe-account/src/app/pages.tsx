import { lazy, type ComponentType } from 'react';
import { Navigate } from 'react-router-dom';
import type { PageProps } from '@bimi/ui/RouteTable';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { SignInPage } from '../features/auth/SignInPage';
import { SignUpPage } from '../features/auth/SignUpPage';
import { PartnerSignUpPage } from '../features/auth/PartnerSignUpPage';
import { CheckEmailPage } from '../features/auth/CheckEmailPage';
import { VerifyPage } from '../features/auth/VerifyPage';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';
import { ProfilePage } from '../features/profile/ProfilePage';
import { NotificationsPage } from '../features/notifications/NotificationsPage';
import { OrganizationsPage } from '../features/organizations/OrganizationsPage';
import { ContactsPage } from '../features/contacts/ContactsPage';
import { SupportPage } from '../features/support/SupportPage';
import { BuyNowPage } from '../features/buy-now/BuyNowPage';
import { OrdersPage } from '../features/orders/OrdersPage';
import { OrderPage } from '../features/orders/OrderPage';
import { TransactionsPage } from '../features/billing/TransactionsPage';
import { PaymentMethodsPage } from '../features/billing/PaymentMethodsPage';

// The monitor page carries the inbox mock-ups and, lazily again, @mui/x-charts: its own chunk.
const MonitorPage = lazy(() => import('../features/monitors/MonitorPage'));

export const pages: Record<string, ComponentType<PageProps>> = {
  '/account': () => <Navigate to="/account/dashboard" replace />,
  '/account/settings': () => <Navigate to="/account/settings/profile" replace />,
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
