import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SITE_API_PATHS, TOOL_PATHS } from '@bimi/contracts/api-paths';
import { ToolAnswer } from '@bimi/contracts/tools';
import { freePort } from './free-port';

// Graceful shutdown (issue 16): on SIGTERM the bff stops taking connections, finishes the requests
// in flight, closes its jobs and exits 0, so a balancer's rolling restart loses no request. A real
// process on a real port: a DNS server that never answers keeps a tool request in flight.

const DNS_TIMEOUT_MS = 1_500;

let silentDns: Socket;
let bff: ChildProcess;
let base: string;
let dataDir: string;

beforeAll(async () => {
  silentDns = createSocket('udp4');
  await new Promise<void>((resolve) => silentDns.bind(0, '127.0.0.1', resolve));
  const port = await freePort();
  dataDir = mkdtempSync(join(tmpdir(), 'bff-shutdown-'));
  bff = spawn(process.execPath, ['--import', 'tsx', join('src', 'server.ts')], {
    cwd: join(__dirname, '..'),
    stdio: 'ignore',
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DNS_SERVERS: `127.0.0.1:${silentDns.address().port}`,
      TOOLS_DNS_TIMEOUT_MS: String(DNS_TIMEOUT_MS),
    },
  });
  base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if ((await fetch(`${base}${SITE_API_PATHS.health}`).catch(() => null))?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the bff did not start');
}, 60_000);

afterAll(() => {
  bff.kill('SIGKILL');
  silentDns.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('finishes the request in flight, refuses new ones and exits 0 on SIGTERM', async () => {
  const exited = new Promise<number | null>((resolve) => bff.once('exit', (code) => resolve(code)));
  const started = Date.now();
  const inFlight = fetch(`${base}${TOOL_PATHS.tool('dmarc')}?domain=slow.example`, { headers: { accept: 'application/json' } });
  await new Promise((resolve) => setTimeout(resolve, 300));
  bff.kill('SIGTERM');

  const response = await inFlight;
  expect(response.status).toBe(200);
  const answer = ToolAnswer.parse(await response.json());
  expect(answer.tool).toBe('dmarc');
  // It waited for the DNS timeout: the answer was finished, not cut off by the shutdown.
  expect(Date.now() - started).toBeGreaterThanOrEqual(DNS_TIMEOUT_MS - 100);

  expect(await exited).toBe(0);
  await expect(fetch(`${base}${SITE_API_PATHS.health}`)).rejects.toThrow();
}, 30_000);
