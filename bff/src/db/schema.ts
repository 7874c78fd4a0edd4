import type { ColumnType, Generated } from 'kysely';

/** Set by the database on insert; SQLite hands it back as text, PostgreSQL as a Date. */
type CreatedAt = ColumnType<Date | string, never, never>;

export interface NewsletterSubscribersTable {
  id: Generated<number>;
  /** Lowercased; unique. */
  email: string;
  created_at: CreatedAt;
}

export interface PageViewsTable {
  id: Generated<number>;
  path: string;
  referrer: string | null;
  title: string | null;
  created_at: CreatedAt;
}

export interface ClientErrorsTable {
  id: Generated<number>;
  kind: string;
  remote: string | null;
  message: string;
  path: string | null;
  stack: string | null;
  created_at: CreatedAt;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  company: string | null;
  /** One of CONTACT_TOPICS in @bimi/contracts/contact. */
  topic: string;
  message: string;
  created_at: CreatedAt;
}

export interface StoreDatabase {
  newsletter_subscribers: NewsletterSubscribersTable;
  page_views: PageViewsTable;
  client_errors: ClientErrorsTable;
  contact_messages: ContactMessagesTable;
  users: UsersTable;
  email_tokens: EmailTokensTable;
  sessions: SessionsTable;
  partner_applications: PartnerApplicationsTable;
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
  organization_invites: OrganizationInvitesTable;
  contacts: ContactsTable;
  support_tickets: SupportTicketsTable;
  outbox_messages: OutboxMessagesTable;
  payment_customers: PaymentCustomersTable;
  checkouts: CheckoutsTable;
  order_numbers: OrderNumbersTable;
  orders: OrdersTable;
  order_validation_steps: OrderValidationStepsTable;
  transactions: TransactionsTable;
  transaction_lines: TransactionLinesTable;
  processed_payment_events: ProcessedPaymentEventsTable;
  renewal_reminders: RenewalRemindersTable;
  order_notifications: OrderNotificationsTable;
  test_payment_methods: TestPaymentMethodsTable;
  test_payment_sessions: TestPaymentSessionsTable;
  test_payment_setups: TestPaymentSetupsTable;
  monitors: MonitorsTable;
  monitor_snapshots: MonitorSnapshotsTable;
  monitor_alerts: MonitorAlertsTable;
  monitor_conversations: MonitorConversationsTable;
}

// Identity tables (migration 0003): ids are UUIDs and times ISO 8601 strings, both made by the bff.

export interface UsersTable {
  id: string;
  /** Lowercased; unique. */
  email: string;
  name: string;
  /** argon2id, PHC string format. */
  password_hash: string;
  email_verified_at: string | null;
  /** An address waiting for its verification link to be followed. */
  pending_email: string | null;
  /** JSON of NotificationPreferences. */
  notification_preferences: string;
  /** Sessions started before this time are void: set when the password or the email changes (migration 0004). */
  sessions_valid_from: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  updated_at: string;
}

export type EmailTokenPurpose = 'signup' | 'email-change' | 'password-reset';

export interface EmailTokensTable {
  /** sha256 of the token sent by mail; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  /** The address the link went to (for an email change, the new one). */
  email: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
  /** A sign-up link's own name and password hash, applied when it is followed (migration 0006); null for other links. */
  signup_name: string | null;
  signup_password_hash: string | null;
}

export interface SessionsTable {
  sid: string;
  /** The signed-in user, so a password change can end their other sessions (migration 0004). */
  user_id: string | null;
  data: string;
  expires_at: string;
}

export interface PartnerApplicationsTable {
  id: string;
  company: string;
  website: string;
  contact_name: string;
  email: string;
  phone: string | null;
  message: string | null;
  status: 'pending';
  created_at: string;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: string;
}

export interface OrganizationMembersTable {
  organization_id: string;
  user_id: string;
  role: 'owner' | 'member';
  joined_at: string;
  /** The organization's name key (services/organizations/names), unique per user: no account holds two organizations of one name. */
  name_key: string | null;
}

export interface OrganizationInvitesTable {
  id: string;
  organization_id: string;
  email: string;
  role: 'owner' | 'member';
  token_hash: string;
  invited_by: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
}

export interface ContactsTable {
  id: string;
  user_id: string;
  kind: 'technical' | 'billing' | 'legal';
  name: string;
  email: string;
  phone: string | null;
  job_title: string | null;
  company: string | null;
  created_at: string;
  updated_at: string;
}

export interface SupportTicketsTable {
  id: string;
  user_id: string;
  reference: string;
  category: 'order' | 'validation' | 'billing' | 'technical' | 'other';
  subject: string;
  message: string;
  status: 'open' | 'closed';
  created_at: string;
}

export interface OutboxMessagesTable {
  id: string;
  recipient: string;
  subject: string;
  text: string;
  created_at: string;
}

// Orders and payments (migration 0005): ids UUIDs, times ISO 8601 strings, flags 0/1.

/**
 * Epoch ms of the provider event that set a state (0 before any): PostgreSQL hands a bigint back
 * as a string, SQLite as a number, so read it through Number().
 */
type StateVersion = ColumnType<number | string, number | undefined, number>;
/** 0 or 1. */
type Flag = ColumnType<number, number | undefined, number>;

export type PaymentProviderName = 'stripe' | 'test';

export interface PaymentCustomersTable {
  user_id: string;
  provider: PaymentProviderName;
  customer_ref: string;
  created_at: string;
}

/** The checkout states of the order lifecycle (@bimi/contracts/order-lifecycle). */
export type CheckoutStatus = 'open' | 'paid' | 'failed' | 'expired' | 'cancelled' | 'superseded';

export interface CheckoutsTable {
  id: string;
  user_id: string;
  provider: PaymentProviderName | null;
  /** The provider's checkout session id and the page where the buyer pays. */
  session_ref: string | null;
  session_url: string | null;
  status: CheckoutStatus;
  failure_message: string | null;
  status_version: StateVersion;
  /** What its page was opened for: the cart, or one order from its page (migration 0012). */
  opened_for: CheckoutOpenedFor;
  created_at: string;
  updated_at: string;
}

export type CheckoutOpenedFor = 'cart' | 'order';

export interface OrderNumbersTable {
  id: Generated<number>;
  created_at: string | null;
}

/**
 * unpaid until the first payment; failed: the first payment was declined; past_due when a renewal
 * charge failed; expired: its payment page expired unpaid; cancelled by the buyer unpaid;
 * superseded by a newer checkout of the cart (@bimi/contracts/order-lifecycle).
 */
export type OrderPaymentStatus = 'unpaid' | 'paid' | 'failed' | 'past_due' | 'expired' | 'cancelled' | 'superseded';

export interface OrdersTable {
  id: string;
  /** Shown as "O-000123". */
  number: number;
  user_id: string;
  checkout_id: string;
  product_id: string;
  domains: number | null;
  years: number | null;
  logos: number | null;
  email_volume: number | null;
  billing_period: 'monthly' | 'annual' | null;
  /** The cart line's quantity. */
  copies: number;
  /** Units charged per billing period (logos × copies for a certificate), and their quoted cents. */
  quantity: number;
  unit_amount: number;
  amount: number;
  currency: 'usd';
  billing_interval: 'month' | 'year';
  billing_interval_count: number;
  description: string;
  price_id: string | null;
  payment_status: OrderPaymentStatus;
  payment_version: StateVersion;
  failure_message: string | null;
  subscription_ref: string | null;
  item_ref: string | null;
  /** The provider's subscription status (active, past_due, canceled …). */
  subscription_status: string | null;
  subscription_version: StateVersion;
  renews: Flag;
  current_period_end: string | null;
  ended_at: string | null;
  /** CertificateDetails as JSON. */
  details: string | null;
  issued_at: string | null;
  certificate_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface OrderValidationStepsTable {
  order_id: string;
  /** One of VALIDATION_STEPS. */
  step: string;
  /** One of VALIDATION_STEP_STATES. */
  state: string;
  note: string | null;
  updated_at: string;
}

export interface TransactionsTable {
  id: string;
  user_id: string;
  /** The provider's invoice (or refund) id: one row each. */
  invoice_ref: string;
  kind: 'charge' | 'refund';
  status: 'paid' | 'failed' | 'refunded' | 'pending';
  status_version: StateVersion;
  amount: number;
  currency: string;
  description: string;
  number: string | null;
  failure_message: string | null;
  receipt_pdf_url: string | null;
  hosted_url: string | null;
  card_brand: string | null;
  card_last4: string | null;
  test_payment: Flag;
  date: string;
  created_at: string;
}

export interface TransactionLinesTable {
  transaction_id: string;
  order_id: string;
  description: string;
  amount: number;
  period_start: string | null;
  period_end: string | null;
}

export interface ProcessedPaymentEventsTable {
  event_id: string;
  kind: string;
  applied_at: string;
}

export interface RenewalRemindersTable {
  order_id: string;
  days_ahead: number;
  period_end: string;
  sent_at: string;
}

/** Mail and fulfilment owed by applied payment events, sent after the webhook answered (0008). */
export interface OrderNotificationsTable {
  id: string;
  kind: string;
  payload: string;
  created_at: string;
  position: number;
  next_attempt_at: string;
  attempts: Generated<number>;
  claimed_at: string | null;
  done_at: string | null;
  last_error: string | null;
}

export interface TestPaymentMethodsTable {
  id: string;
  customer_ref: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  is_default: Flag;
  created_at: string;
}

/** An open (or used) page of the built-in test payments (migration 0009). */
export interface TestPaymentSessionsTable {
  ref: string;
  checkout_id: string;
  user_id: string;
  form_token: string;
  status: 'open' | 'paid' | 'failed' | 'expired';
  /** The ProviderCheckout the page was opened with, as JSON. */
  checkout: string;
  created_at: string;
  expires_at: string;
}

/** Add-a-card pages of the built-in test payments (migration 0010); a row is deleted when its card is saved. */
export interface TestPaymentSetupsTable {
  ref: string;
  customer_ref: string;
  return_url: string;
  form_token: string;
  created_at: string;
  expires_at: string;
}

// Domain monitors (migration 0007).

export interface MonitorsTable {
  id: string;
  user_id: string;
  domain: string;
  status: 'active' | 'paused';
  health_score: number | null;
  /** JSON of the worst MonitorIssue of the latest run. */
  worst_issue: string | null;
  last_checked_at: string | null;
  certificate_expires_at: string | null;
  next_check_at: string;
  checking: Flag;
  created_at: string;
  updated_at: string;
}

export interface MonitorSnapshotsTable {
  id: string;
  monitor_id: string;
  checked_at: string;
  health_score: number;
  change_count: number;
  /** JSON of the MonitorSnapshot. */
  report: string;
}

export interface MonitorAlertsTable {
  id: string;
  monitor_id: string;
  kind: string;
  alert_key: string;
  subject: string;
  sent_at: string;
}

export interface MonitorConversationsTable {
  id: Generated<number>;
  monitor_id: string;
  role: 'user' | 'assistant';
  text: string;
  created_at: string;
}
