#!/usr/bin/env node
// `pnpm start:replicas`: N compiled bff processes on one PostgreSQL database and one Redis, behind
// nginx (docs/replicas.md).
//
//   DATABASE_URL=postgres://… REDIS_URL=redis://… SESSION_SECRET=… pnpm start:replicas [--replicas 2] [--port 3000]
//
// Builds bff/dist when it is missing or older than the sources, starts each replica with plain
// node on its own loopback port (TRUST_PROXY set to the balancer's address), waits until each
// answers GET /api/health/ready, then writes nginx's configuration from bff/deploy/nginx.conf.template
// into a prefix directory of its own (pid, logs, temporary files) and runs nginx as its child in
// the foreground. Ctrl-C (SIGINT) or SIGTERM stops nginx gracefully (in-flight requests finish),
// then the replicas (each finishes its requests and jobs), and removes the prefix directory.
// A replica that dies is reported and left out by nginx's passive health checks; the script ends
// when nginx or every replica is gone.
//
// Options:
//   --replicas N            how many bff processes (default 2)
//   --port P                where nginx listens, on --host (default PORT or 3000)
//   --host H                the balancer's address (default 127.0.0.1)
//   --replica-ports a,b,…   the replicas' ports (default 3101, 3102, …)
//   --prefix DIR            nginx's prefix directory and the replicas' logs (default a new temporary one, removed at the end)
//   --upstream-header       nginx adds X-Upstream-Addr (which replica answered) to every answer; for tests, never production
//   --json                  one JSON object a line on stdout ({"event": "replica", …}, "ready", "replica-exited", "stopped")
//                           instead of words; the replicas' logs then go to <prefix>/replica-<n>.log only
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, closeSync, constants, createWriteStream, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildBff } from './build-bff.mjs';
import { bffBuildIsStale } from './builds.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER = path.join(ROOT, 'bff', 'dist', 'server.js');
export const NGINX_TEMPLATE = path.join(ROOT, 'bff', 'deploy', 'nginx.conf.template');
/** Where Debian's package puts nginx (not on a non-root PATH). */
const NGINX_CANDIDATES = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'];
/** Passive health: this many failures within FAIL_TIMEOUT take a replica out for FAIL_TIMEOUT. */
const MAX_FAILS = 1;
const FAIL_TIMEOUT = '10s';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 35_000;

/** nginx from NGINX, the PATH or Debian's /usr/sbin; null when it is not installed. */
export function findNginx(env = process.env) {
  const onPath = (env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'nginx'));
  for (const candidate of [env.NGINX, ...onPath, ...NGINX_CANDIDATES]) {
    if (!candidate) continue;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

/**
 * The template with its placeholders filled in; throws on a placeholder left over (a template
 * edited without this script).
 * @param {{ prefix: string, listen: string, replicas: { host: string, port: number }[], upstreamHeader?: boolean }} options
 */
export function renderNginxConfig({ prefix, listen, replicas, upstreamHeader = false }, template = readFileSync(NGINX_TEMPLATE, 'utf8')) {
  const values = {
    PREFIX: prefix,
    LISTEN: listen,
    UPSTREAM_SERVERS: replicas.map(({ host, port }) => `server ${host}:${port} max_fails=${MAX_FAILS} fail_timeout=${FAIL_TIMEOUT};`).join('\n    '),
    DEBUG_HEADERS: upstreamHeader ? 'add_header X-Upstream-Addr $upstream_addr always;' : '',
  };
  // Comment lines explain the placeholders; only the directives are filled in.
  const rendered = template
    .split('\n')
    .map((line) => (line.trimStart().startsWith('#') ? line : line.replace(/\{\{([A-Z_]+)\}\}/g, (whole, name) => (name in values ? values[name] : whole))))
    .join('\n');
  const left = rendered
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .match(/\{\{[A-Z_]+\}\}/);
  if (left) throw new Error(`${NGINX_TEMPLATE}: unknown placeholder ${left[0]}`);
  return rendered;
}

const BUILD_LOCK = path.join(ROOT, 'bff', 'dist', '.build.lock');

/**
 * Builds bff/dist when it is missing or older than the bff's or the packages' sources; true when it
 * built. Two runs at once (two replica tests, two terminals) take turns through a lock file, so no
 * replica starts from a server.js another build is writing; the second finds the build fresh.
 */
export async function ensureBffBuild() {
  if (!bffBuildIsStale()) return false;
  const deadline = Date.now() + 120_000;
  mkdirSync(path.dirname(BUILD_LOCK), { recursive: true });
  for (;;) {
    try {
      closeSync(openSync(BUILD_LOCK, 'wx'));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      // A lock older than a build can take was left by a run that was killed.
      const age = Date.now() - (statSync(BUILD_LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 60_000) rmSync(BUILD_LOCK, { force: true });
      else if (Date.now() > deadline) throw new Error(`${BUILD_LOCK} is held by another build`);
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    if (!bffBuildIsStale()) return false;
    await buildBff();
    return true;
  } finally {
    rmSync(BUILD_LOCK, { force: true });
  }
}

async function waitUntilReady(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
      if (response.ok) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`not ready after ${timeoutMs / 1000} s: ${last}`);
}

function lastLines(file, count = 20) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-count).join('\n');
  } catch {
    return '';
  }
}

function usageError(message) {
  process.stderr.write(`replicas: ${message}\n`);
  process.exit(2);
}

async function main() {
  const { values } = parseArgs({
    options: {
      replicas: { type: 'string', default: '2' },
      port: { type: 'string', default: process.env.PORT ?? '3000' },
      host: { type: 'string', default: '127.0.0.1' },
      'replica-ports': { type: 'string' },
      prefix: { type: 'string' },
      'upstream-header': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const count = Number(values.replicas);
  if (!Number.isInteger(count) || count < 1 || count > 64) usageError('--replicas must be a whole number from 1 to 64');
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) usageError('--port must be a port number');
  const replicaPorts = values['replica-ports'] ? values['replica-ports'].split(',').map(Number) : Array.from({ length: count }, (_, index) => 3101 + index);
  if (replicaPorts.length !== count || replicaPorts.some((p) => !Number.isInteger(p) || p < 1 || p > 65535 || p === port)) {
    usageError(`--replica-ports must list ${count} port numbers, none of them --port`);
  }

  const json = values.json;
  const say = (event, words) => {
    if (json) process.stdout.write(`${JSON.stringify(event)}\n`);
    else process.stdout.write(`${words}\n`);
  };

  // Every replica must share these, or a session, a counter or a job would live in one process only.
  const missing = ['DATABASE_URL', 'REDIS_URL'].filter((name) => !process.env[name]);
  if (missing.length > 0) {
    usageError(
      `${missing.join(' and ')} must be set: every replica uses the same PostgreSQL database (orders, sessions' users, the pg-boss job queue) and the same Redis (sessions, rate-limit counters)`,
    );
  }
  const nginx = findNginx();
  if (!nginx) usageError('nginx is not installed: "sudo apt-get install -y nginx" (Debian), or set NGINX to its path');
  let sessionSecret = process.env.SESSION_SECRET;
  if (!sessionSecret) {
    sessionSecret = randomBytes(32).toString('hex');
    say(
      { event: 'note', message: 'SESSION_SECRET not set: a random one shared by this run' },
      'SESSION_SECRET not set: the replicas share a random one, so sessions end when this script stops',
    );
  }

  if (await ensureBffBuild()) say({ event: 'built' }, 'built bff/dist (it was missing or older than the sources)');

  const ownPrefix = !values.prefix;
  const prefix = path.resolve(values.prefix ?? mkdtempSync(path.join(os.tmpdir(), 'bimi-replicas-')));
  mkdirSync(prefix, { recursive: true });
  // nginx's workers run as an unprivileged user when it is started as root; they write temporary files here.
  chmodSync(prefix, 0o755);

  const balancerHost = values.host;
  const balancerUrl = `http://${balancerHost.includes(':') ? `[${balancerHost}]` : balancerHost}:${port}`;
  const replicaHost = '127.0.0.1';
  /** @type {{ id: number, port: number, child: import('node:child_process').ChildProcess, log: string, exited: boolean }[]} */
  const replicas = [];
  /** @type {import('node:child_process').ChildProcess | null} */
  let nginxChild = null;
  let stopping = false;

  async function stopAll(exitCode) {
    if (stopping) return;
    stopping = true;
    const waits = [];
    const exitOf = (child) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve(undefined))));
    // The balancer first (SIGQUIT: it stops accepting and lets the requests it holds finish), then the replicas.
    if (nginxChild && nginxChild.exitCode === null && nginxChild.signalCode === null) {
      nginxChild.kill('SIGQUIT');
      await Promise.race([exitOf(nginxChild), new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS))]);
      nginxChild.kill('SIGKILL');
    }
    for (const replica of replicas) {
      if (replica.child.exitCode === null && replica.child.signalCode === null) replica.child.kill('SIGTERM');
      waits.push(exitOf(replica.child));
    }
    const timer = setTimeout(() => {
      for (const replica of replicas) replica.child.kill('SIGKILL');
    }, STOP_TIMEOUT_MS);
    await Promise.all(waits);
    clearTimeout(timer);
    if (ownPrefix) rmSync(prefix, { recursive: true, force: true });
    say({ event: 'stopped', exitCode }, 'stopped');
    process.exit(exitCode);
  }
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void stopAll(0));

  try {
    for (const [index, replicaPort] of replicaPorts.entries()) {
      const id = index + 1;
      const log = path.join(prefix, `replica-${id}.log`);
      const out = createWriteStream(log, { flags: 'a' });
      const child = spawn(process.execPath, ['--enable-source-maps', SERVER], {
        cwd: ROOT,
        // A process group of its own: Ctrl-C reaches this script only, which stops each child in order.
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          HOST: replicaHost,
          PORT: String(replicaPort),
          SESSION_SECRET: sessionSecret,
          // nginx connects from loopback: the one proxy each replica believes about the client.
          TRUST_PROXY: process.env.TRUST_PROXY ?? '127.0.0.1',
          PUBLIC_URL: process.env.PUBLIC_URL ?? balancerUrl,
        },
      });
      for (const stream of [child.stdout, child.stderr]) {
        stream.pipe(out, { end: false });
        if (!json) stream.on('data', (chunk) => process.stdout.write(String(chunk).replace(/^(?=.)/gm, `[replica ${id}] `)));
      }
      const replica = { id, port: replicaPort, child, log, exited: false };
      replicas.push(replica);
      // 'close', not 'exit': its output may still be arriving when it exits.
      child.on('close', () => out.end());
      child.on('exit', (code, signal) => {
        replica.exited = true;
        if (stopping) return;
        say({ event: 'replica-exited', id, pid: child.pid, code, signal }, `replica ${id} (pid ${child.pid}) exited (${code ?? signal}); nginx leaves it out`);
        if (replicas.every((each) => each.exited)) void stopAll(1);
      });
      say({ event: 'replica', id, pid: child.pid, port: replicaPort, log }, `replica ${id}: pid ${child.pid}, http://${replicaHost}:${replicaPort}, log ${log}`);
    }
    await Promise.all(
      replicas.map((replica) =>
        waitUntilReady(`http://${replicaHost}:${replica.port}/api/health/ready`, replica.child, READY_TIMEOUT_MS).catch((error) => {
          throw new Error(`replica ${replica.id} (port ${replica.port}) ${error.message}\n${lastLines(replica.log)}`);
        }),
      ),
    );

    const conf = path.join(prefix, 'nginx.conf');
    writeFileSync(
      conf,
      renderNginxConfig({
        prefix,
        listen: `${balancerHost.includes(':') ? `[${balancerHost}]` : balancerHost}:${port}`,
        replicas: replicas.map((replica) => ({ host: replicaHost, port: replica.port })),
        upstreamHeader: values['upstream-header'],
      }),
    );
    const errorLog = path.join(prefix, 'error.log');
    const check = spawnSync(nginx, ['-t', '-q', '-p', `${prefix}/`, '-c', conf, '-e', errorLog], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`nginx refused ${conf}:\n${check.stderr}${lastLines(errorLog)}`);
    nginxChild = spawn(nginx, ['-p', `${prefix}/`, '-c', conf, '-e', errorLog], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
    const child = nginxChild;
    child.on('exit', (code, signal) => {
      if (stopping) return;
      say({ event: 'nginx-exited', code, signal }, `nginx exited (${code ?? signal}):\n${lastLines(errorLog)}`);
      void stopAll(1);
    });
    await waitUntilReady(`${balancerUrl}/api/health`, child, 10_000).catch((error) => {
      throw new Error(`nginx on ${balancerUrl} ${error.message}\n${lastLines(errorLog)}`);
    });
    say(
      { event: 'ready', url: balancerUrl, nginxPid: child.pid, prefix, replicas: replicas.map(({ id, port: replicaPort, child: { pid } }) => ({ id, pid, port: replicaPort })) },
      `ready: ${balancerUrl} → ${replicas.map((replica) => `127.0.0.1:${replica.port}`).join(', ')} (nginx pid ${child.pid}; config, logs: ${prefix})`,
    );
  } catch (error) {
    process.stderr.write(`replicas: ${error instanceof Error ? error.message : String(error)}\n`);
    await stopAll(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (!existsSync(NGINX_TEMPLATE)) usageError(`${NGINX_TEMPLATE} is missing`);
  await main();
}
