import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { ORDER_PATHS } from '@bimi/contracts/api-paths';
import { describePostgres, type IdentityStore, startIdentityStore } from './identity-fixtures';
import { MIXED_CART, buyer, startCheckout } from './payments-fixtures';

/**
 * Issue 30, finding 10: a bff process killed inside the payment step of a test payment page (the
 * page marked paid, its events waiting for the checkout's row) strands nothing. The checkout's row
 * is held locked from here until the paying process waits for it; that process is killed (-9);
 * the page is paid with its card saved (one transaction), the checkout still open; the job of the
 * next process finishes it: the checkout and orders paid, one transaction, one card.
 */

jest.setTimeout(90_000);

describePostgres('a process killed inside the payment step (PostgreSQL)', () => {
  let store: IdentityStore;
  beforeAll(async () => {
    store = await startIdentityStore({ name: 'PostgreSQL', postgres: true, redis: false }, { SIGNUP_RATE_LIMIT_PER_HOUR: '1000' });
  });
  afterAll(async () => {
    await store?.cleanUp();
  });

  it('leaves the page paid and its card saved, and the next process finishes the payment once', async () => {
    const email = `killed-${Date.now()}@example.com`;
    const browser = await buyer(store, 'Kim Killed', email);
    const { userId } = await store.app.db.selectFrom('users').select('id as userId').where('email', '=', email).executeTakeFirstOrThrow();
    const started = await startCheckout(browser, MIXED_CART);
    expect(started.statusCode).toBe(201);
    const { checkoutId, url } = started.json() as { checkoutId: string; url: string };
    const ref = url.split('/').pop() ?? '';
    const db = store.app.db;

    // Hold the checkout's row: the payment's events wait for it, inside the window.
    const holder = new Client({ connectionString: store.app.config.databaseUrl });
    await holder.connect();
    await holder.query('begin');
    await holder.query('select id from checkouts where id = $1 for update', [checkoutId]);

    const child = spawn(process.execPath, ['--import', 'tsx', join('test', 'fixtures', 'payments', 'pay-test-page.ts')], {
      cwd: join(__dirname, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: store.app.config.databaseUrl,
        ROOT_DIR: store.app.config.rootDir,
        DATA_DIR: store.app.config.dataDir,
        PUBLIC_URL: 'http://store.test',
        PAY_REF: ref,
        PAY_USER: userId,
        PAY_NOW: String(store.clock.now),
      },
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      const pageStatus = async () => (await db.selectFrom('test_payment_sessions').select('status').where('ref', '=', ref).executeTakeFirstOrThrow()).status;
      for (let attempt = 0; attempt < 600 && (await pageStatus()) !== 'paid'; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await pageStatus()).toBe('paid');
      // Inside the window: the events wait for the checkout's row.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect({ exited: child.exitCode !== null, output }).toEqual({ exited: false, output: 'paying\n' });
      child.kill('SIGKILL');
      await exited;
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await holder.query('rollback');
      await holder.end();
    }

    // Stranded as the issue found it, but with its card: the page paid, the checkout open, no transaction.
    expect((await db.selectFrom('checkouts').select('status').where('id', '=', checkoutId).executeTakeFirstOrThrow()).status).toBe('open');
    expect(await db.selectFrom('transactions').select('id').where('user_id', '=', userId).execute()).toHaveLength(0);
    const cards = async () => (await browser.request({ url: ORDER_PATHS.paymentMethods })).json().paymentMethods as unknown[];
    expect(await cards()).toHaveLength(1);

    // The next process's job (here, the running bff's) finishes it once.
    expect(store.app.payments.mode).toBe('test');
    store.advance(2 * 60 * 1000);
    expect(await store.app.jobs.runNow('test-pages-finish')).toEqual([ref]);
    expect(await store.app.jobs.runNow('test-pages-finish')).toEqual([]);
    expect((await browser.request({ url: ORDER_PATHS.checkoutState(checkoutId) })).json()).toMatchObject({ status: 'paid' });
    expect(await db.selectFrom('transactions').select('id').where('user_id', '=', userId).execute()).toHaveLength(1);
    expect(await cards()).toHaveLength(1);
    const orders = await db.selectFrom('orders').select('payment_status').where('checkout_id', '=', checkoutId).execute();
    expect(orders.map((order) => order.payment_status)).toEqual(['paid', 'paid']);
  });
});
