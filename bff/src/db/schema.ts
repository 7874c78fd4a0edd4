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
