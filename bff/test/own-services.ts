import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { freePort } from './free-port';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Client } from 'pg';

/**
 * A PostgreSQL and a redis-server of a test's own (issue 16, "faults survived"): on their own port
 * and in their own temporary folder, so a test may stop, kill and restart them without disturbing
 * the machine's shared servers (TEST_DATABASE_URL, TEST_REDIS_URL) or another suite. Whatever
 * happens, `remove()` (and, failing that, the process's exit) stops them and deletes their folders.
 *
 * PostgreSQL refuses to run as root: when the tests run as root the server runs as the `postgres`
 * user (its binaries in /usr/lib/postgresql/<version>/bin, or PG_BIN_DIR), which owns its folder.
 */

const STARTUP_LIMIT_MS = 15_000;

/** The live servers of this process: stopped at its exit if a test could not (a crash, a timeout). */
const live = new Set<{ kill(): void }>();
let exitHookInstalled = false;
function track(entry: { kill(): void }): void {
  live.add(entry);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const server of live) server.kill();
  });
}

async function until(what: string, attempt: () => Promise<boolean>, limitMs = STARTUP_LIMIT_MS): Promise<void> {
  const deadline = Date.now() + limitMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await attempt()) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`${what} within ${limitMs} ms${lastError instanceof Error ? ` (last error: ${lastError.message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** The output a child wrote, kept for the error message when it fails to start. */
function collectOutput(child: ChildProcess): () => string {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output.trim();
}

// ---- PostgreSQL

/** The folder of PostgreSQL's server binaries: PG_BIN_DIR, else the newest /usr/lib/postgresql/<n>/bin. */
function postgresBinDir(): string {
  const candidates = [process.env.PG_BIN_DIR, ...['17', '16', '15', '14', '13'].map((version) => `/usr/lib/postgresql/${version}/bin`)].filter(
    (dir): dir is string => typeof dir === 'string' && dir !== '',
  );
  const found = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres')));
  if (!found) {
    throw new Error(`no PostgreSQL server binaries (initdb, postgres) in ${candidates.join(', ')}: install postgresql (apt-get install postgresql) or set PG_BIN_DIR`);
  }
  return found;
}

/** The user and group the server runs as: the `postgres` user when we are root (initdb refuses root), else ourselves. */
function serverIdentity(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error('running as root, and there is no postgres user to run PostgreSQL as (initdb refuses root)');
  }
}

export interface OwnPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  readonly port: number;
  /** Whether the server is running now. */
  readonly running: boolean;
  /**
   * Stops the server: 'fast' (SIGINT: open transactions are rolled back, connections closed, as
   * `pg_ctl restart` does), 'immediate' (SIGQUIT: no clean shutdown, recovery at the next start).
   */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port and data: resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and deletes its folder. */
  remove(): Promise<void>;
}

/**
 * A PostgreSQL server of the test's own: `initdb` in a temporary folder (about a second), then the
 * server on a free port on 127.0.0.1, its socket in the same folder, fsync off (a test server
 * needs no durability against power loss; a stop or crash of the server alone loses nothing).
 */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = postgresBinDir();
  const identity = serverIdentity();
  const folder = mkdtempSync(join(tmpdir(), 'bff-own-postgres-'));
  const dataDir = join(folder, 'data');
  const socketDir = join(folder, 'socket');
  mkdirSync(socketDir);
  if (identity) {
    chownSync(folder, identity.uid, identity.gid);
    chownSync(socketDir, identity.uid, identity.gid);
  }
  const asServer = identity ? { uid: identity.uid, gid: identity.gid } : {};
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  let server: ChildProcess | undefined;
  const tracked = {
    kill() {
      // SIGQUIT: the postmaster ends its backends at once; nothing of a test's server is worth keeping.
      if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGQUIT');
      rmSync(folder, { recursive: true, force: true });
    },
  };
  track(tracked);

  try {
    execFileSync(join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '--encoding=UTF8', '--locale=C'], {
      ...asServer,
      cwd: folder,
      stdio: 'pipe',
      env: { ...process.env, LC_ALL: 'C' },
    });
  } catch (error) {
    tracked.kill();
    live.delete(tracked);
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`initdb failed: ${error instanceof Error ? error.message : String(error)} ${output}`);
  }

  const start = async () => {
    if (server && server.exitCode === null && server.signalCode === null) throw new Error('PostgreSQL is already running');
    const child = spawn(
      join(bin, 'postgres'),
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${socketDir}`,
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=60',
        '-c',
        'shared_buffers=16MB',
      ],
      { ...asServer, cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    server = child;
    const output = collectOutput(child);
    await until('PostgreSQL did not accept connections', async () => {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`PostgreSQL exited: ${output()}`);
      const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('select 1');
        return true;
      } finally {
        await client.end().catch(() => undefined);
      }
    });
  };

  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    const child = server;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill(mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
    await exited(child);
    // The next start must not find the old postmaster.pid of a server that is still going away.
    await until('PostgreSQL did not remove its postmaster.pid', async () => !existsSync(join(dataDir, 'postmaster.pid')) || mode === 'immediate', 5000);
  };

  try {
    await start();
  } catch (error) {
    tracked.kill();
    live.delete(tracked);
    throw error;
  }

  return {
    url,
    port,
    get running() {
      return server !== undefined && server.exitCode === null && server.signalCode === null;
    },
    stop,
    start,
    async remove() {
      await stop('immediate').catch(() => undefined);
      tracked.kill();
      live.delete(tracked);
    },
  };
}

// ---- Redis

export interface OwnRedis {
  /** redis://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  readonly running: boolean;
  /**
   * Stops the server: 'kill' (SIGKILL, Redis gone at once, as a crash), 'shutdown' (SIGTERM, a
   * clean stop). Either way what was written stays: every write is in the append-only file first.
   */
  stop(mode?: 'kill' | 'shutdown'): Promise<void>;
  /** Starts it again on the same port and folder, with the data it had: resolves once it answers. */
  start(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open and nothing answers, as a hung server. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
  /** Stops it and deletes its folder. */
  remove(): Promise<void>;
}

/** The redis-server binary: REDIS_SERVER_BIN, else /usr/bin/redis-server, else the PATH's. */
function redisServerBin(): string {
  if (process.env.REDIS_SERVER_BIN) return process.env.REDIS_SERVER_BIN;
  if (existsSync('/usr/bin/redis-server')) return '/usr/bin/redis-server';
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('no redis-server binary (/usr/bin/redis-server, or on the PATH): install redis-server (apt-get install redis-server) or set REDIS_SERVER_BIN');
  }
}

/**
 * A redis-server of the test's own, on a free port on 127.0.0.1 with its own folder. Persistence is
 * the append-only file, synced on every write (`appendfsync always`), so a restart, even after a
 * SIGKILL, finds every session that was written: what "sessions return when Redis does" needs.
 */
export async function startOwnRedis(): Promise<OwnRedis> {
  const bin = redisServerBin();
  const folder = mkdtempSync(join(tmpdir(), 'bff-own-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  const tracked = {
    kill() {
      if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
      rmSync(folder, { recursive: true, force: true });
    },
  };
  track(tracked);

  const start = async () => {
    if (server && server.exitCode === null && server.signalCode === null) throw new Error('Redis is already running');
    const child = spawn(
      bin,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        folder,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--daemonize',
        'no',
        '--protected-mode',
        'no',
        '--logfile',
        '',
      ],
      { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    server = child;
    const output = collectOutput(child);
    await until('Redis did not answer', async () => {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`redis-server exited: ${output()}`);
      const client = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
      client.on('error', () => undefined);
      try {
        await client.connect();
        // Still loading the append-only file answers LOADING.
        return (await client.ping()) === 'PONG';
      } finally {
        client.disconnect();
      }
    });
  };

  const stop = async (mode: 'kill' | 'shutdown' = 'kill') => {
    const child = server;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill(mode === 'kill' ? 'SIGKILL' : 'SIGTERM');
    await exited(child);
  };

  try {
    await start();
  } catch (error) {
    tracked.kill();
    live.delete(tracked);
    throw error;
  }

  return {
    url,
    port,
    get running() {
      return server !== undefined && server.exitCode === null && server.signalCode === null;
    },
    stop,
    start,
    pause() {
      server?.kill('SIGSTOP');
    },
    resume() {
      server?.kill('SIGCONT');
    },
    async remove() {
      server?.kill('SIGCONT');
      await stop('kill').catch(() => undefined);
      tracked.kill();
      live.delete(tracked);
    },
  };
}
