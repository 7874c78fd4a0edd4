import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect } from './test';
import { runDir } from './test';

const BFF = resolve(__dirname, '..', '..', 'bff');

/**
 * The operator's manual-fulfilment command (`pnpm --filter bff orders …`, bff/src/cli/orders.ts)
 * against the e2e server's own database (support/serve.mjs: DATA_DIR is $E2E_RUN_DIR/data), as
 * an operator runs it on the server's machine. Answers what it printed; fails on a non-zero exit.
 */
export function ordersCommand(...args: string[]): string {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join('src', 'cli', 'orders.ts'), ...args], {
    cwd: BFF,
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: join(runDir(), 'data'), NODE_ENV: 'test', LOG_LEVEL: 'error' },
    timeout: 60_000,
  });
  expect(run.status, `orders ${args.join(' ')}\n${run.stdout}\n${run.stderr}`).toBe(0);
  return run.stdout;
}
