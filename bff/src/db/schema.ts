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
}
