import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AUTH_PATHS, SITE_API_PATHS } from '@bimi/contracts/api-paths';
import { CsrfAnswer } from '@bimi/contracts/auth';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { z } from 'zod';
import { createFakeRoot } from './fixtures';
import { freePort } from './free-port';
import { GOOD_PASSWORD } from './identity-fixtures';

/**
 * Several compiled bff replicas behind nginx, started by the real `scripts/replicas.mjs` (the
 * command the root README gives a platform team) on a fresh PostgreSQL schema and a fresh Redis
 * key prefix. nginx adds X-Upstream-Addr (--upstream-header), so every answer says which replica
 * gave it.
 */

const ROOT = join(__dirname, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'replicas.mjs');
const READY_TIMEOUT_MS = 90_000;

/** What scripts/replicas.mjs --json prints, one object a line. */
const ScriptEvent = z.discriminatedUnion('event', [
  z.object({ event: z.literal('note'), message: z.string() }),
  z.object({ event: z.literal('built') }),
  z.object({ event: z.literal('replica'), id: z.number(), pid: z.number(), port: z.number(), log: z.string() }),
  z.object({ event: z.literal('ready'), url: z.string(), nginxPid: z.number(), prefix: z.string(), replicas: z.array(z.object({ id: z.number(), pid: z.number(), port: z.number() })) }),
  z.object({ event: z.literal('replica-exited'), id: z.number(), pid: z.number(), code: z.number().nullable(), signal: z.string().nullable() }),
  z.object({ event: z.literal('nginx-exited'), code: z.number().nullable(), signal: z.string().nullable() }),
  z.object({ event: z.literal('stopped'), exitCode: z.number() }),
]);
type ScriptEvent = z.infer<typeof ScriptEvent>;

export interface Replica {
  id: number;
  pid: number;
  port: number;
  /** `127.0.0.1:<port>`, as nginx names it in X-Upstream-Addr. */
  addr: string;
  /** The replica itself, bypassing the balancer. */
  url: string;
  log: string;
}

export interface ReplicaSite {
  /** The balancer. */
  url: string;
  replicas: Replica[];
  /** The schema every replica's DATABASE_URL uses, and a client on it. */
  schema: string;
  db: Client;
  /** A new client on that schema (the caller ends it). */
  connect(): Promise<Client>;
  /** Everything the script printed (JSON events). */
  events: ScriptEvent[];
  /** kill -9 of one replica; resolves when the script has seen it exit. */
  kill(replica: Replica): Promise<void>;
  cleanUp(): Promise<void>;
}

/** A PostgreSQL URL whose connections use `schema` (as identity-fixtures makes them). */
function withSchema(databaseUrl: string, schema: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/**
 * Runs `node scripts/replicas.mjs --json --upstream-header` with `count` replicas on their own
 * ports, a new schema in TEST_DATABASE_URL and a new prefix in TEST_REDIS_URL; `env` is added to
 * every replica's environment. The script builds bff/dist first when it is absent or stale.
 */
export async function startReplicaSite(count: number, env: Record<string, string>): Promise<ReplicaSite> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!databaseUrl || !redisUrl) throw new Error('TEST_DATABASE_URL and TEST_REDIS_URL must be set');
  const unique = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const schema = `bff_replicas_${unique}`;
  const redisPrefix = `bff-replicas:${unique}:`;
  const rootDir = createFakeRoot();
  const dataDir = mkdtempSync(join(tmpdir(), 'bff-replicas-data-'));
  const prefix = mkdtempSync(join(tmpdir(), 'bff-replicas-nginx-'));
  const admin = new Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const db = new Client({ connectionString: withSchema(databaseUrl, schema) });
  await db.connect();

  const port = await freePort();
  const replicaPorts: number[] = [];
  while (replicaPorts.length < count) {
    const candidate = await freePort();
    if (candidate !== port && !replicaPorts.includes(candidate)) replicaPorts.push(candidate);
  }
  const events: ScriptEvent[] = [];
  let stderr = '';
  const script: ChildProcess = spawn(
    process.execPath,
    [SCRIPT, '--json', '--upstream-header', '--replicas', String(count), '--port', String(port), '--replica-ports', replicaPorts.join(','), '--prefix', prefix],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: withSchema(databaseUrl, schema),
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: redisPrefix,
        SESSION_SECRET: randomBytes(32).toString('hex'),
        ROOT_DIR: rootDir,
        DATA_DIR: dataDir,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        ...env,
      },
    },
  );
  script.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)));
  const listeners = new Set<(event: ScriptEvent) => void>();
  createInterface({ input: script.stdout! }).on('line', (line) => {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return;
    }
    const parsed = ScriptEvent.safeParse(json);
    if (!parsed.success) return;
    events.push(parsed.data);
    for (const listener of listeners) listener(parsed.data);
  });
  const scriptExited = new Promise<number | null>((resolve) => script.once('exit', (code) => resolve(code)));
  const nextEvent = <Kind extends ScriptEvent['event']>(kind: Kind, test: (event: Extract<ScriptEvent, { event: Kind }>) => boolean = () => true, timeoutMs = 30_000) =>
    new Promise<Extract<ScriptEvent, { event: Kind }>>((resolve, reject) => {
      const seen = events.find((event): event is Extract<ScriptEvent, { event: Kind }> => event.event === kind && test(event as Extract<ScriptEvent, { event: Kind }>));
      if (seen) return resolve(seen);
      const timer = setTimeout(() => {
        listeners.delete(listener);
        reject(new Error(`scripts/replicas.mjs printed no ${kind} within ${timeoutMs / 1000} s:\n${stderr}`));
      }, timeoutMs);
      const listener = (event: ScriptEvent) => {
        if (event.event !== kind || !test(event as Extract<ScriptEvent, { event: Kind }>)) return;
        clearTimeout(timer);
        listeners.delete(listener);
        resolve(event as Extract<ScriptEvent, { event: Kind }>);
      };
      listeners.add(listener);
      void scriptExited.then((code) => {
        if (!listeners.has(listener)) return;
        clearTimeout(timer);
        listeners.delete(listener);
        reject(new Error(`scripts/replicas.mjs exited (${code}) before ${kind}:\n${stderr}`));
      });
    });

  const cleanUp = async () => {
    // True when the script, asked to stop, stopped its replicas and nginx itself.
    let stopped = false;
    if (script.exitCode === null && script.signalCode === null) {
      script.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      stopped = await Promise.race([scriptExited.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 40_000)))]);
      clearTimeout(timer);
      if (!stopped) script.kill('SIGKILL');
    }
    // Whatever the script left running when it did not stop by itself (it was killed, or failed
    // half-way): its replicas and nginx (master and workers: its process group) by pid.
    if (!stopped) {
      for (const event of events) {
        const pids = event.event === 'replica' ? [event.pid] : event.event === 'ready' ? [-event.nginxPid, event.nginxPid] : [];
        for (const pid of pids) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone, or not a group leader
          }
        }
      }
    }
    await db.end().catch(() => undefined);
    const dropper = new Client({ connectionString: databaseUrl });
    await dropper.connect();
    try {
      await dropper.query(`drop schema if exists ${schema} cascade`);
      await dropper.query(`drop schema if exists ${schema}_queue cascade`);
    } finally {
      await dropper.end();
    }
    const redis = new Redis(redisUrl);
    try {
      const keys = await redis.keys(`${redisPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      await redis.quit();
    }
    for (const dir of [rootDir, dataDir, prefix]) rmSync(dir, { recursive: true, force: true });
  };

  try {
    const ready = await nextEvent('ready', () => true, READY_TIMEOUT_MS);
    const logs = new Map(events.flatMap((event) => (event.event === 'replica' ? [[event.id, event.log] as const] : [])));
    const replicas = ready.replicas.map(({ id, pid, port: replicaPort }) => ({
      id,
      pid,
      port: replicaPort,
      addr: `127.0.0.1:${replicaPort}`,
      url: `http://127.0.0.1:${replicaPort}`,
      log: logs.get(id) ?? '',
    }));
    return {
      url: ready.url,
      replicas,
      schema,
      db,
      async connect() {
        const client = new Client({ connectionString: withSchema(databaseUrl, schema) });
        await client.connect();
        return client;
      },
      events,
      async kill(replica) {
        process.kill(replica.pid, 'SIGKILL');
        await nextEvent('replica-exited', (event) => event.id === replica.id, 10_000);
      },
      cleanUp,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  body: string;
  /** The replica nginx passed the request to last (X-Upstream-Addr lists each one tried). */
  upstream: string;
  /** Every replica nginx tried, in order. */
  tried: string[];
  json(): any;
}

/** One request through the balancer (or straight to a replica), read whole; knows which replica answered. */
export async function send(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; json?: unknown; form?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  let body = options.body;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(`${base}${path}`, { method: options.method ?? 'GET', headers, body, redirect: 'manual' });
  const text = await response.text();
  const tried = (response.headers.get('x-upstream-addr') ?? '')
    .split(',')
    .map((addr) => addr.trim())
    .filter(Boolean);
  return { status: response.status, headers: response.headers, body: text, upstream: tried.at(-1) ?? '', tried, json: () => JSON.parse(text) };
}

/**
 * A browser on the balanced site: keeps its cookies, sends the site's Origin on writes, and can
 * ask for the next request to land on a given replica (`on`). nginx's round robin with one worker
 * alternates over the healthy replicas, so a cheap GET that lands elsewhere puts the next request
 * on the wanted one; every answer says where it really went, and the tests assert it.
 */
export class SiteBrowser {
  readonly cookies = new Map<string, string>();
  constructor(readonly site: ReplicaSite) {}

  /** Sends GET /api/health until the last one was answered by another replica than `replica` (nginx's next pick is then `replica`). */
  async steerTo(replica: Replica): Promise<void> {
    for (let attempt = 0; attempt < 2 * this.site.replicas.length + 2; attempt += 1) {
      const probe = await send(this.site.url, SITE_API_PATHS.health);
      if (probe.upstream !== replica.addr) return;
    }
    throw new Error(`nginx keeps sending every request to ${replica.addr}`);
  }

  async request(
    path: string,
    options: { method?: string; headers?: Record<string, string>; json?: unknown; form?: Record<string, string>; on?: Replica; csrf?: boolean } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    const method = options.method ?? 'GET';
    if (method !== 'GET') headers.origin = this.site.url;
    if (options.csrf) headers['x-csrf-token'] = await this.csrfToken();
    if (options.on) await this.steerTo(options.on);
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const answer = await send(this.site.url, path, { ...options, method, headers });
    for (const line of answer.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (value === '' || /max-age=0/i.test(line) || /expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    if (options.on && answer.upstream !== options.on.addr) throw new Error(`${method} ${path} was meant for ${options.on.addr} and went to ${answer.tried.join(', ')}`);
    return answer;
  }

  async csrfToken(): Promise<string> {
    return CsrfAnswer.parse((await this.request(AUTH_PATHS.csrf)).json()).csrfToken;
  }

  async session(on?: Replica): Promise<Answer> {
    return this.request(AUTH_PATHS.session, { on });
  }

  async signIn(email: string, password: string, on?: Replica): Promise<Answer> {
    const csrfToken = await this.csrfToken();
    return this.request(AUTH_PATHS.credentialsCallback, {
      method: 'POST',
      form: { email, password, redirect: 'false', callbackUrl: `${this.site.url}/account/dashboard`, csrfToken, json: 'true' },
      on,
    });
  }
}

/** The last link to `path` mailed to `to`, read from the development outbox through the balancer (any replica: it is the database's). */
export async function mailedLink(site: ReplicaSite, to: string, path: string): Promise<string> {
  const outbox = (await send(site.url, '/dev/outbox')).json() as { messages: { to: string; links: string[] }[] };
  for (const message of outbox.messages) {
    if (message.to !== to) continue;
    const link = message.links.find((candidate) => new URL(candidate).pathname === path);
    if (link) return link;
  }
  throw new Error(`no mail to ${to} with a link to ${path}`);
}

/**
 * Signs up on `signUpOn`, verifies from the outbox and signs in on `signInOn`: a buyer whose
 * session began on one replica. Asserts each step landed where it was meant to.
 */
export async function signedUpBuyer(site: ReplicaSite, email: string, signUpOn: Replica, signInOn: Replica): Promise<SiteBrowser> {
  const browser = new SiteBrowser(site);
  const signUp = await browser.request(AUTH_PATHS.signUp, { method: 'POST', json: { name: 'Rita Replica', email, password: GOOD_PASSWORD }, csrf: true, on: signUpOn });
  if (signUp.status !== 201) throw new Error(`sign-up answered ${signUp.status}: ${signUp.body}`);
  const token = new URL(await mailedLink(site, email, '/auth/verify')).searchParams.get('token');
  const verify = await browser.request(AUTH_PATHS.verify, { method: 'POST', json: { token }, csrf: true });
  if (verify.status !== 200) throw new Error(`verify answered ${verify.status}: ${verify.body}`);
  const signIn = await browser.signIn(email, GOOD_PASSWORD, signInOn);
  if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}: ${signIn.body}`);
  return browser;
}

/** Reads until `done` holds, every 100 ms for up to `timeoutMs`; answers the last value read. */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
