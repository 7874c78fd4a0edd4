import type { Migration, MigrationProvider } from 'kysely';
import { newsletterAndTelemetry } from './0001_newsletter_and_telemetry';

/** Every migration, by name; Kysely runs them in name order and records which have run. */
const migrations: Record<string, Migration> = {
  '0001_newsletter_and_telemetry': newsletterAndTelemetry,
};

export const storeMigrations: MigrationProvider = {
  getMigrations: async () => migrations,
};
