import { SIGN_IN_ERRORS } from '@bimi/contracts/auth';

/**
 * When a service the bff depends on is away (issue 16, "faults survived"): PostgreSQL restarting, or
 * Redis down. A request that needs it is answered at once with 503, these words and Retry-After,
 * instead of a 500 or a wait; everything else keeps working (see docs/replicas.md, "When PostgreSQL
 * or Redis goes away").
 */
export const DATABASE_UNAVAILABLE = 'Our database is unavailable for a moment. Please try again in a few minutes.';
/** Sessions live in Redis (REDIS_URL) and it does not answer: nobody can sign in or be signed in. The sign-in page's own words. */
export const SESSIONS_UNAVAILABLE = SIGN_IN_ERRORS.Configuration;
/** Seconds a client is told to wait before trying again. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

export type UnavailableService = 'database' | 'sessions';

/** A request failed because `service` does not answer; the error handler answers 503 with its message. */
export class ServiceUnavailableError extends Error {
  override name = 'ServiceUnavailableError';
  readonly statusCode = 503;
  constructor(
    readonly service: UnavailableService,
    options?: { cause?: unknown },
  ) {
    super(`${service === 'database' ? 'the database' : 'the session store (Redis)'} does not answer${describeCause(options?.cause)}`, options);
  }
}

function describeCause(cause: unknown): string {
  return cause instanceof Error ? `: ${cause.message}` : '';
}

// A connection that could not be made or was lost: Node's socket errors (pg passes them on).
const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// PostgreSQL's own: admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting
// down), too_many_connections; and class 08, connection exceptions.
const POSTGRES_UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
// node-postgres's messages for a connection that ended or never came.
const PG_CONNECTION_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
];

/** Where PostgreSQL listens (DATABASE_URL): a socket error names the address it was for. */
export interface DatabaseEndpoint {
  host: string;
  port: number;
}

export function databaseEndpointOf(databaseUrl: string | undefined): DatabaseEndpoint | null {
  if (!databaseUrl) return null;
  const url = new URL(databaseUrl);
  return { host: url.hostname, port: url.port ? Number(url.port) : 5432 };
}

/**
 * Whether a socket error was for the database: one that names its address (a refused or timed-out
 * connection names the port; a failed name lookup, the host) must name the database's, so a mail
 * or DNS server's refusal is never called a database outage; one that names none (a connection
 * reset in use) is taken as the database's when there is one.
 */
function forDatabase(error: { port?: unknown; hostname?: unknown; address?: unknown }, database: DatabaseEndpoint): boolean {
  if (typeof error.port === 'number') return error.port === database.port;
  if (typeof error.hostname === 'string') return error.hostname === database.host;
  return typeof error.address !== 'string';
}

/**
 * Whether a call failed because PostgreSQL is not there (stopped, restarting, unreachable), not
 * because of the query: such a failure is answered 503, a retry later may succeed. `database` is
 * where it listens; without it (an error known to come from a database call) any socket error counts.
 * Redis failures never get here as they are: the session stores turn them into ServiceUnavailableError.
 */
export function isDatabaseUnavailable(error: unknown, database?: DatabaseEndpoint): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (POSTGRES_UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) return database === undefined || forDatabase(error, database);
  return typeof message === 'string' && PG_CONNECTION_MESSAGES.includes(message);
}

/**
 * The service whose absence made a request fail, or undefined when it failed for another reason.
 * `database` is where PostgreSQL listens, null on the embedded SQLite database (no socket of it).
 */
export function unavailableService(error: unknown, database: DatabaseEndpoint | null): UnavailableService | undefined {
  if (error instanceof ServiceUnavailableError) return error.service;
  if (database && isDatabaseUnavailable(error, database)) return 'database';
  return undefined;
}

export const UNAVAILABLE_MESSAGES: Record<UnavailableService, string> = { database: DATABASE_UNAVAILABLE, sessions: SESSIONS_UNAVAILABLE };
