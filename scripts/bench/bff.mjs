// Starts the bff on a free loopback port with a throw-away data folder, and stops it again.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Stopped, stopSwitch } from './stop.mjs';

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * @param {string} root the workspace (where the bff's code is)
 * @param {{ rootDir?: string, timeoutMs?: number }} [options] rootDir: where shell/dist and mfe-<name>/dist are (the workspace by default)
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startBff(root, { rootDir = root, timeoutMs = 60_000 } = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bimi-bench-data-'));
  const url = `http://127.0.0.1:${port}`;
  const tsx = path.join(root, 'bff', 'node_modules', '.bin', 'tsx');
  let output = '';
  // Its own process group, so stopping it also stops the node process tsx starts.
  const child = spawn(tsx, [path.join(root, 'bff', 'src', 'server.ts')], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      ROOT_DIR: rootDir,
      // Not production: that adds upgrade-insecure-requests and HSTS, wrong on http://127.0.0.1.
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      // Nothing external: no tag manager, the bff's own newsletter endpoint.
      TAG_MANAGER_ID: '',
      NEWSLETTER_URL: '',
    },
  });
  const keep = (chunk) => {
    output = (output + chunk).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  const exitedPromise = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exited = { code, signal }))));

  let stopped = false;
  async function stop() {
    if (stopped) return;
    stopped = true;
    if (!exited) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }, 5000);
      await exitedPromise;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  }

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (stopSwitch.stopped) {
      await stop();
      throw new Stopped();
    }
    if (exited) {
      await stop();
      throw new Error(`the bff exited (${exited.signal ?? exited.code}) before answering /api/health:\n${output.trim()}`);
    }
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the bff did not answer ${url}/api/health within ${timeoutMs / 1000} s:\n${output.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  /** Synchronous last resort (process 'exit'): kill the process group outright. */
  function killNow() {
    if (exited) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { url, stop, killNow, pid: child.pid };
}
