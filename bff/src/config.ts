import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { REMOTE_NAMES, type RemoteName } from '@bimi/contracts/remote-modules';
import { OWN_NEWSLETTER_PATH } from '@bimi/contracts/site';
import { PAYMENT_IDENTIFIER_PATTERN, PRICE_SETTING_NAMES, type PriceSettingName } from '@bimi/catalog/price-ids';
import { z } from 'zod';

export { OWN_NEWSLETTER_PATH };

/** Thrown when the environment is invalid; its message is one line naming every bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function hasProtocol(value: string, protocols: readonly string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** `1.2.3.4`, `1.2.3.4:5353`, `::1` or `[::1]:5353`, as `dns.Resolver#setServers` accepts them. */
function isDnsServer(value: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(value);
  if (bracketed) return isIP(bracketed[1] ?? '') === 6 && (bracketed[2] === undefined || Number(bracketed[2]) <= 65535);
  if (isIP(value) !== 0) return true;
  const withPort = /^([^:]+):(\d{1,5})$/.exec(value);
  return withPort !== null && isIP(withPort[1] ?? '') === 4 && Number(withPort[2]) <= 65535;
}

// An empty variable (`PORT=` in a .env file) means "not set", not "set to nothing".
const unsetWhenEmpty = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(unsetWhenEmpty, schema.optional());

const readableFile = z.string().refine((path) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}, 'must name a readable file');
const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((value) => value >= min && value <= max, `must be a whole number from ${min} to ${max}`);

/** An address (`10.0.0.2`, `::1`) or a CIDR block (`10.0.0.0/8`), as Fastify's trustProxy takes them. */
function isAddressOrCidr(value: string): boolean {
  const [address = '', bits, ...rest] = value.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}
const PROXY_ADDRESS_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
/**
 * TRUST_PROXY: true (every peer), false, or a comma-separated list of addresses, CIDRs and named
 * ranges. No hop count: Fastify 5.12 trusts no peer for one, as a count cannot check who is talking.
 */
const trustProxySetting = z.string().transform((value, context): boolean | string[] => {
  const trimmed = value.trim();
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  const entries = trimmed
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length > 0 && entries.every((entry) => PROXY_ADDRESS_NAMES.includes(entry) || isAddressOrCidr(entry))) return entries;
  context.addIssue({
    code: 'custom',
    message: "must be true, false, or a comma-separated list of the proxies' addresses or CIDRs (10.0.0.0/8, ::1, loopback, linklocal, uniquelocal)",
  });
  return z.NEVER;
});

// The card payment provider's price and product identifiers (spec §9), handed to the browser in the public config.
const paymentIdentifier = optional(z.string().regex(PAYMENT_IDENTIFIER_PATTERN, 'must be a price or product identifier (letters, digits and _)'));
const PRICE_SETTINGS = Object.fromEntries(PRICE_SETTING_NAMES.map((name) => [name, paymentIdentifier])) as Record<PriceSettingName, typeof paymentIdentifier>;
const priceSettingsFrom = (env: Partial<Record<PriceSettingName, string>>) =>
  Object.fromEntries(PRICE_SETTING_NAMES.flatMap((name) => (env[name] ? [[name, env[name]]] : []))) as Partial<Record<PriceSettingName, string>>;

const absoluteHttpUrl = z.string().refine((value) => hasProtocol(value, ['http:', 'https:']), 'must be an absolute http(s) URL');
const remoteBaseUrl = z.string().refine((value) => hasProtocol(value, ['http:', 'https:']) && value.endsWith('/'), 'must be an absolute http(s) URL ending in /');

/**
 * The remotes the site is composed of (issue 15). Without REMOTES_CONFIG: storefront, checkout,
 * account, tools and any other `mfe-<name>` folder in ROOT_DIR, each built into `mfe-<name>/dist`
 * and served at `/mfe/<name>/` (or from REMOTE_<NAME>_URL). With it, the file lists them: a remote
 * added, or moved to another origin (a CDN), is a change of this file and a bff restart, not a
 * release. `prefixes` limits where a remote may have pages.
 */
const RemotesFile = z.object({
  remotes: z
    .array(
      z.strictObject({
        name: z
          .string()
          .regex(/^[a-z][a-z0-9_]*$/, 'must be a lowercase identifier (the federation name)')
          .refine((name) => name !== 'shell', 'must not be shell, the host'),
        url: remoteBaseUrl.optional(),
        prefixes: z
          .array(z.string().regex(/^\/[A-Za-z0-9._~/-]*$/, 'must be a path starting with /'))
          .min(1)
          .optional(),
      }),
    )
    .min(1, 'must list at least one remote')
    .refine((remotes) => new Set(remotes.map((remote) => remote.name)).size === remotes.length, 'must not list a remote twice'),
});
export type RemoteConfig = z.infer<typeof RemotesFile>['remotes'][number];

const KNOWN_REMOTES: readonly string[] = REMOTE_NAMES;

/** The project's own four remotes (each may live on another origin: REMOTE_<NAME>_URL), then any other `mfe-<name>` folder in ROOT_DIR. */
function remotesOfRoot(rootDir: string): RemoteConfig[] {
  let folders: string[];
  try {
    folders = readdirSync(rootDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && /^mfe-[a-z][a-z0-9_]*$/.test(entry.name))
      .map((entry) => entry.name.slice('mfe-'.length))
      .filter((name) => name !== 'shell');
  } catch {
    folders = [];
  }
  const others = folders.filter((name) => !KNOWN_REMOTES.includes(name)).sort();
  return [...KNOWN_REMOTES, ...others].map((name) => ({ name }));
}

/** The remotes from REMOTES_CONFIG, or a sentence saying what is wrong with it. */
function remotesOfFile(file: string): RemoteConfig[] | string {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return `cannot be read as JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  const result = RemotesFile.safeParse(json);
  if (result.success) return result.data.remotes;
  return result.error.issues.map((issue) => `${issue.path.join('.') || 'file'} ${issue.message}`).join('; ');
}

const Environment = z.object({
  ...PRICE_SETTINGS,
  HOST: optional(z.string()),
  PORT: optional(
    z
      .string()
      .regex(/^\d{1,5}$/, 'must be a whole number from 0 to 65535')
      .transform(Number)
      .refine((port) => port <= 65535, 'must be a whole number from 0 to 65535'),
  ),
  NODE_ENV: optional(z.enum(['development', 'production', 'test'], 'must be development, production or test')),
  LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'must be one of fatal, error, warn, info, debug, trace, silent')),
  ROOT_DIR: optional(z.string()),
  DATA_DIR: optional(z.string()),
  NEWSLETTER_URL: optional(absoluteHttpUrl),
  // It ends up in the page and in the content security policy, so only the documented shape passes.
  TAG_MANAGER_ID: optional(z.string().regex(/^GTM-[A-Z0-9]{1,16}$/, 'must look like GTM-XXXXXXX')),
  REMOTES_CONFIG: optional(readableFile),
  REMOTE_STOREFRONT_URL: optional(remoteBaseUrl),
  REMOTE_CHECKOUT_URL: optional(remoteBaseUrl),
  REMOTE_ACCOUNT_URL: optional(remoteBaseUrl),
  REMOTE_TOOLS_URL: optional(remoteBaseUrl),
  STRIPE_SECRET_KEY: optional(z.string()),
  // Payments (issue 11): the webhook signing secret, where the Stripe SDK sends its calls (tests
  // point it at the HTTP double), and the built-in test payments, which never run in production
  // unless TEST_PAYMENTS=true says so.
  STRIPE_WEBHOOK_SECRET: optional(z.string().min(8, 'must be the signing secret Stripe shows (whsec_…)')),
  STRIPE_API_BASE_URL: optional(absoluteHttpUrl),
  STRIPE_API_HOST: optional(z.string().regex(/^[A-Za-z0-9.-]{1,253}$|^\[[0-9A-Fa-f:.]+\]$/, 'must be a host name or address')),
  STRIPE_API_PORT: optional(wholeNumber(1, 65535)),
  STRIPE_API_PROTOCOL: optional(z.enum(['http', 'https'], 'must be http or https')),
  TEST_PAYMENTS: optional(z.enum(['true', 'false'], 'must be true or false').transform((value) => value === 'true')),
  SMTP_URL: optional(z.string().refine((value) => hasProtocol(value, ['smtp:', 'smtps:']), 'must be an smtp:// or smtps:// URL')),
  DATABASE_URL: optional(z.string().refine((value) => hasProtocol(value, ['postgres:', 'postgresql:']), 'must be a postgres:// or postgresql:// URL')),
  REDIS_URL: optional(z.string().refine((value) => hasProtocol(value, ['redis:', 'rediss:']), 'must be a redis:// or rediss:// URL')),
  // Several stores may share one Redis: each keeps its keys under its own prefix.
  REDIS_KEY_PREFIX: optional(z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1 to 64 letters, digits or : _ . -')),
  // Signs the session and CSRF cookies; every replica of the bff needs the same one.
  SESSION_SECRET: optional(z.string().min(32, 'must be at least 32 characters')),
  // Where the site is reached from outside: the base of every link in a mail and of sign-in redirects.
  PUBLIC_URL: optional(absoluteHttpUrl.transform((value) => value.replace(/\/+$/, ''))),
  MAIL_FROM: optional(z.string().min(3, 'must be an address such as "BIMI Store <no-reply@example.com>"')),
  DNS_SERVERS: optional(
    z
      .string()
      .transform((list) =>
        list
          .split(',')
          .map((server) => server.trim())
          .filter(Boolean),
      )
      .refine((servers) => servers.length > 0 && servers.every(isDnsServer), 'must be a comma-separated list of IP addresses, each with an optional :port'),
  ),
  // Email-authentication tools (issue 5). Loopback fetches exist for the fixture HTTPS server only.
  TOOLS_ALLOW_LOOPBACK: optional(z.enum(['true', 'false'], 'must be true or false').transform((value) => value === 'true')),
  // A clock the e2e flows can move forward (POST /dev/clock), for renewals and expiry seen in a browser; never in production.
  DEV_CLOCK: optional(z.enum(['true', 'false'], 'must be true or false').transform((value) => value === 'true')),
  // Whether /mfe/<app>/ serves the builds' source maps (*.map); off unless set (issue 31).
  SERVE_SOURCE_MAPS: optional(z.enum(['true', 'false'], 'must be true or false').transform((value) => value === 'true')),
  TOOLS_EXTRA_CA_FILE: optional(readableFile),
  TOOLS_EXTRA_MARK_ROOTS_FILE: optional(readableFile),
  TOOLS_DNS_TIMEOUT_MS: optional(wholeNumber(100, 30_000)),
  TOOLS_CACHE_TTL_SECONDS: optional(wholeNumber(0, 3600)),
  TOOLS_RATE_LIMIT_PER_MINUTE: optional(wholeNumber(1, 1_000_000)),
  // How many tool answers are worked out at once across all visitors (as many again wait); past that 503.
  TOOLS_CONCURRENCY: optional(wholeNumber(1, 1000)),
  // Worker threads that read uploaded and fetched certificates and logos (issue 10), and each task's limits.
  TOOLS_WORKERS: optional(wholeNumber(1, 32)),
  TOOLS_WORK_TIMEOUT_MS: optional(wholeNumber(100, 60_000)),
  TOOLS_WORK_MEMORY_MB: optional(wholeNumber(32, 4096)),
  // Sign-ups allowed per address and hour; the e2e server raises it, as every flow signs up from 127.0.0.1.
  SIGNUP_RATE_LIMIT_PER_HOUR: optional(wholeNumber(1, 100_000)),
  // Requests a signed-in user may make of /api/account/* per minute, all routes together (issue 31).
  ACCOUNT_REQUESTS_PER_MINUTE: optional(wholeNumber(1, 1_000_000)),
  // Which proxies in front of the bff to believe about the client (X-Forwarded-For, -Proto, -Host):
  // none by default; in production the TLS-terminating proxy (docs/security.md, "Cookies and TRUST_PROXY").
  TRUST_PROXY: optional(trustProxySetting),
  // Server timeouts in ms (docs/security.md, "Timeouts"): the whole request, its headers, an idle kept-alive
  // connection, a connection with no traffic.
  REQUEST_TIMEOUT_MS: optional(wholeNumber(100, 600_000)),
  HEADERS_TIMEOUT_MS: optional(wholeNumber(100, 600_000)),
  KEEP_ALIVE_TIMEOUT_MS: optional(wholeNumber(100, 600_000)),
  CONNECTION_TIMEOUT_MS: optional(wholeNumber(100, 600_000)),
  // Server rendering of pages: how long a render may take before the page is left
  // to the browser; 0 turns it off.
  SERVER_RENDER_TIMEOUT_MS: optional(wholeNumber(0, 30_000)),
  // Domain monitors (docs/monitors.md): the schedule, the limits, and the assistant's
  // OpenAI-compatible endpoint (all three ASSISTANT_* or none: without them the built-in assistant answers).
  MONITOR_CHECK_INTERVAL_HOURS: optional(wholeNumber(1, 720)),
  MONITOR_LIMIT_PER_USER: optional(wholeNumber(1, 10_000)),
  MONITOR_CONCURRENCY: optional(wholeNumber(1, 1000)),
  MONITOR_DNS_CONCURRENCY: optional(wholeNumber(1, 10_000)),
  // 0 turns the scheduler off (tests call it).
  MONITOR_SCHEDULER_SECONDS: optional(wholeNumber(0, 3600)),
  MONITOR_FIRST_RUN_TIMEOUT_MS: optional(wholeNumber(100, 120_000)),
  MONITOR_RECHECKS_PER_HOUR: optional(wholeNumber(1, 10_000)),
  MONITOR_QUEUE_SCHEMA: optional(z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a PostgreSQL schema name (lower-case letters, digits and _)')),
  ASSISTANT_API_URL: optional(absoluteHttpUrl),
  ASSISTANT_API_KEY: optional(z.string().min(1).max(500)),
  ASSISTANT_MODEL: optional(z.string().regex(/^[A-Za-z0-9._:/-]{1,200}$/, 'must be a model name (letters, digits and . _ : / -)')),
  ASSISTANT_QUESTIONS_PER_HOUR: optional(wholeNumber(1, 10_000)),
});

const Config = Environment.refine((env) => (env.HEADERS_TIMEOUT_MS ?? 15_000) <= (env.REQUEST_TIMEOUT_MS ?? 30_000), {
  path: ['HEADERS_TIMEOUT_MS'],
  message: 'must not be longer than REQUEST_TIMEOUT_MS (default 30000), which the headers are part of',
})
  .refine((env) => !(env.TOOLS_ALLOW_LOOPBACK && env.NODE_ENV === 'production'), {
    path: ['TOOLS_ALLOW_LOOPBACK'],
    message: 'must not be true when NODE_ENV is production (it lets the tools fetch from this machine)',
  })
  .refine((env) => !(env.DEV_CLOCK && env.NODE_ENV === 'production'), {
    path: ['DEV_CLOCK'],
    message: 'must not be true when NODE_ENV is production (it lets anyone move the store clock)',
  })
  .refine((env) => !(env.NODE_ENV === 'production' && !env.SESSION_SECRET), {
    path: ['SESSION_SECRET'],
    message: 'is required when NODE_ENV is production (at least 32 random characters, the same on every replica)',
  })
  .refine((env) => !(env.NODE_ENV === 'production' && stripeApiProtocol(env) === 'http'), {
    path: ['STRIPE_API_BASE_URL'],
    message: 'must use https when NODE_ENV is production (STRIPE_API_BASE_URL, STRIPE_API_PROTOCOL)',
  })
  .refine((env) => !(env.NODE_ENV === 'production' && env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET), {
    path: ['STRIPE_WEBHOOK_SECRET'],
    message: 'is required with STRIPE_SECRET_KEY when NODE_ENV is production (without it no payment is ever confirmed)',
  })
  .refine(
    (env) =>
      [env.ASSISTANT_API_URL, env.ASSISTANT_API_KEY, env.ASSISTANT_MODEL].every((value) => value === undefined) ||
      [env.ASSISTANT_API_URL, env.ASSISTANT_API_KEY, env.ASSISTANT_MODEL].every((value) => value !== undefined),
    {
      path: ['ASSISTANT_API_URL'],
      message: 'ASSISTANT_API_URL, ASSISTANT_API_KEY and ASSISTANT_MODEL go together: set all three, or none for the built-in assistant',
    },
  )
  .transform((env, context) => {
    const rootDir = env.ROOT_DIR ? resolve(env.ROOT_DIR) : resolve(__dirname, '..', '..');
    const configured = env.REMOTES_CONFIG ? remotesOfFile(env.REMOTES_CONFIG) : remotesOfRoot(rootDir);
    if (typeof configured === 'string') {
      context.addIssue({ code: 'custom', path: ['REMOTES_CONFIG'], message: configured });
      return z.NEVER;
    }
    // REMOTE_<NAME>_URL moves one of the project's own remotes without a configuration file.
    const urlSettings = new Map<string, string | undefined>([
      ['storefront', env.REMOTE_STOREFRONT_URL],
      ['checkout', env.REMOTE_CHECKOUT_URL],
      ['account', env.REMOTE_ACCOUNT_URL],
      ['tools', env.REMOTE_TOOLS_URL],
    ] satisfies Array<[RemoteName, string | undefined]>);
    const remotes: RemoteConfig[] = configured.map((remote) => ({ ...remote, url: urlSettings.get(remote.name) ?? remote.url }));
    return {
      host: env.HOST ?? '127.0.0.1',
      port: env.PORT ?? 3000,
      nodeEnv: env.NODE_ENV ?? 'development',
      logLevel: env.LOG_LEVEL ?? 'info',
      rootDir,
      dataDir: env.DATA_DIR ? resolve(env.DATA_DIR) : join(rootDir, 'data'),
      newsletterUrl: env.NEWSLETTER_URL,
      tagManagerId: env.TAG_MANAGER_ID,
      serverRenderTimeoutMs: env.SERVER_RENDER_TIMEOUT_MS ?? 1500,
      remotes,
      remotesConfig: env.REMOTES_CONFIG,
      stripeSecretKey: env.STRIPE_SECRET_KEY,
      stripe: {
        webhookSecret: env.STRIPE_WEBHOOK_SECRET,
        api: stripeApiAddress(env),
      },
      testPayments: env.TEST_PAYMENTS,
      priceSettings: priceSettingsFrom(env),
      smtpUrl: env.SMTP_URL,
      databaseUrl: env.DATABASE_URL,
      redisUrl: env.REDIS_URL,
      redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'bimi:',
      sessionSecret: env.SESSION_SECRET,
      publicUrl: env.PUBLIC_URL,
      mailFrom: env.MAIL_FROM ?? 'BIMI Store <no-reply@localhost>',
      signUpRateLimitPerHour: env.SIGNUP_RATE_LIMIT_PER_HOUR ?? 10,
      accountRequestsPerMinute: env.ACCOUNT_REQUESTS_PER_MINUTE ?? 300,
      trustProxy: env.TRUST_PROXY ?? false,
      devClock: env.DEV_CLOCK ?? false,
      serveSourceMaps: env.SERVE_SOURCE_MAPS ?? false,
      timeouts: {
        requestMs: env.REQUEST_TIMEOUT_MS ?? 30_000,
        headersMs: env.HEADERS_TIMEOUT_MS ?? 15_000,
        keepAliveMs: env.KEEP_ALIVE_TIMEOUT_MS ?? 72_000,
        idleMs: env.CONNECTION_TIMEOUT_MS ?? 60_000,
      },
      dnsServers: env.DNS_SERVERS,
      tools: {
        allowLoopback: env.TOOLS_ALLOW_LOOPBACK ?? false,
        extraCaFile: env.TOOLS_EXTRA_CA_FILE,
        extraMarkRootsFile: env.TOOLS_EXTRA_MARK_ROOTS_FILE,
        dnsTimeoutMs: env.TOOLS_DNS_TIMEOUT_MS ?? 2500,
        cacheTtlSeconds: env.TOOLS_CACHE_TTL_SECONDS ?? 60,
        rateLimitPerMinute: env.TOOLS_RATE_LIMIT_PER_MINUTE ?? 30,
        concurrency: env.TOOLS_CONCURRENCY ?? 16,
        workers: { threads: env.TOOLS_WORKERS ?? 2, timeoutMs: env.TOOLS_WORK_TIMEOUT_MS ?? 2000, memoryMb: env.TOOLS_WORK_MEMORY_MB ?? 64 },
      },
      monitors: {
        checkIntervalHours: env.MONITOR_CHECK_INTERVAL_HOURS ?? 24,
        limitPerUser: env.MONITOR_LIMIT_PER_USER ?? 25,
        concurrency: env.MONITOR_CONCURRENCY ?? 50,
        dnsConcurrency: env.MONITOR_DNS_CONCURRENCY ?? 200,
        schedulerSeconds: env.MONITOR_SCHEDULER_SECONDS ?? 60,
        firstRunTimeoutMs: env.MONITOR_FIRST_RUN_TIMEOUT_MS ?? 20_000,
        rechecksPerHour: env.MONITOR_RECHECKS_PER_HOUR ?? 6,
        queueSchema: env.MONITOR_QUEUE_SCHEMA,
      },
      assistant: {
        model: env.ASSISTANT_API_URL && env.ASSISTANT_API_KEY && env.ASSISTANT_MODEL ? { url: env.ASSISTANT_API_URL, apiKey: env.ASSISTANT_API_KEY, model: env.ASSISTANT_MODEL } : undefined,
        questionsPerHour: env.ASSISTANT_QUESTIONS_PER_HOUR ?? 30,
      },
    };
  });
export type Config = z.output<typeof Config>;

type StripeApiSettings = { STRIPE_API_BASE_URL?: string; STRIPE_API_HOST?: string; STRIPE_API_PORT?: number; STRIPE_API_PROTOCOL?: 'http' | 'https' };

/** Where the Stripe SDK sends its calls when not api.stripe.com: the base URL, or host/port/protocol one by one. */
function stripeApiAddress(env: StripeApiSettings): { host: string; port: number; protocol: 'http' | 'https' } | undefined {
  if (env.STRIPE_API_BASE_URL) {
    const url = new URL(env.STRIPE_API_BASE_URL);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
  }
  if (!env.STRIPE_API_HOST && !env.STRIPE_API_PORT && !env.STRIPE_API_PROTOCOL) return undefined;
  const protocol = env.STRIPE_API_PROTOCOL ?? 'https';
  return { host: env.STRIPE_API_HOST ?? 'api.stripe.com', port: env.STRIPE_API_PORT ?? (protocol === 'http' ? 80 : 443), protocol };
}

function stripeApiProtocol(env: StripeApiSettings): 'http' | 'https' | undefined {
  return stripeApiAddress(env)?.protocol;
}

/** Which payment provider runs: Stripe with a key, else the built-in test payments (never in production unless TEST_PAYMENTS=true), else none. */
export function paymentProviderName(config: Config): 'stripe' | 'test' | 'none' {
  if (config.stripeSecretKey) return 'stripe';
  if (config.testPayments === false) return 'none';
  if (config.nodeEnv === 'production' && config.testPayments !== true) return 'none';
  return 'test';
}

/** The site's address as seen from outside, without a trailing slash: PUBLIC_URL, else where the bff listens. */
export function publicBaseUrl(config: Config): string {
  if (config.publicUrl) return config.publicUrl;
  const host = ['0.0.0.0', '::'].includes(config.host) ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

/** Reads the configuration from the environment; throws a ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = Config.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
  throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
}

/**
 * One line per optional setting left unset, saying which default takes its place; logged at start.
 * Not the payment settings (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, the price identifiers): the
 * payments plugin describes those as it starts, once, at the severity the provider in use gives
 * them (plugins/app/payments/payments.ts: an error with Stripe, a note with the test payments).
 */
export function describeDefaults(config: Config): string[] {
  const notes: string[] = [];
  if (!config.databaseUrl) notes.push(`DATABASE_URL not set: using the embedded SQLite database in ${join(config.dataDir, 'store.sqlite')}`);
  if (!config.redisUrl) notes.push('REDIS_URL not set: sessions and rate-limit counters live in the database and in memory');
  if (!config.sessionSecret) notes.push('SESSION_SECRET not set: a random secret is used, so sessions end when the bff restarts');
  if (!config.smtpUrl) notes.push('SMTP_URL not set: mail goes to the development outbox (logged, and listed at /dev/outbox outside production)');
  if (config.trustProxy === false) notes.push("TRUST_PROXY not set: X-Forwarded-* headers are ignored, and the client address is the socket's");
  if (!config.publicUrl) notes.push(`PUBLIC_URL not set: links in mails and sign-in redirects start with ${publicBaseUrl(config)}`);
  if (!config.newsletterUrl) notes.push(`NEWSLETTER_URL not set: newsletter sign-ups go to the bff's own ${OWN_NEWSLETTER_PATH}`);
  if (!config.tagManagerId) notes.push('TAG_MANAGER_ID not set: no tag manager is loaded, even after consent');
  if (!config.dnsServers) notes.push('DNS_SERVERS not set: DNS lookups use the system resolver');
  if (config.devClock) notes.push('DEV_CLOCK=true: POST /dev/clock moves the store clock forward (tests only)');
  if (config.tools.allowLoopback) notes.push('TOOLS_ALLOW_LOOPBACK=true: the tools may fetch logos and certificates from this machine (tests only)');
  if (!config.remotesConfig) notes.push(`REMOTES_CONFIG not set: the remotes are the mfe-* folders in ${config.rootDir} (${config.remotes.map((remote) => remote.name).join(', ')})`);
  for (const remote of config.remotes) {
    if (!remote.url) notes.push(`${remote.name} is served from /mfe/${remote.name}/ (${join(config.rootDir, `mfe-${remote.name}`, 'dist')})`);
  }
  return notes;
}
