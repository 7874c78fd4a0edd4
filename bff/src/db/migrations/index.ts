import type { Migration, MigrationProvider } from 'kysely';
import { newsletterAndTelemetry } from './0001_newsletter_and_telemetry';
import { contactMessages } from './0002_contact_messages';
import { identity } from './0003_identity';
import { sessionsByUser } from './0004_sessions_by_user';
import { orders } from './0005_orders';
import { signupCredentials } from './0006_signup_credentials';
import { monitors } from './0007_monitors';
import { orderNotifications } from './0008_order_notifications';
import { testPaymentSessions } from './0009_test_payment_sessions';
import { testPaymentSetups } from './0010_test_payment_setups';
import { organizationNames } from './0011_organization_names';
import { checkoutOpenedFor } from './0012_checkout_opened_for';

/** Every migration, by name; Kysely runs them in name order and records which have run. */
const migrations: Record<string, Migration> = {
  '0001_newsletter_and_telemetry': newsletterAndTelemetry,
  '0002_contact_messages': contactMessages,
  '0003_identity': identity,
  '0004_sessions_by_user': sessionsByUser,
  '0005_orders': orders,
  '0006_signup_credentials': signupCredentials,
  '0007_monitors': monitors,
  '0008_order_notifications': orderNotifications,
  '0009_test_payment_sessions': testPaymentSessions,
  '0010_test_payment_setups': testPaymentSetups,
  '0011_organization_names': organizationNames,
  '0012_checkout_opened_for': checkoutOpenedFor,
};

export const storeMigrations: MigrationProvider = {
  getMigrations: async () => migrations,
};
