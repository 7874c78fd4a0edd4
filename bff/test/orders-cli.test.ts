import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { startIdentityStore, storageEngines } from './identity-fixtures';
import { apply, buyer, DAY, detailsFor, DMARC_PLUS_MONTHLY, paidEvents, placeCheckout, statusOf, VMC_3_DOMAINS_1_YEAR } from './orders-fixtures';

// Each command starts tsx (seconds on a busy machine).
jest.setTimeout(240_000);

const BFF = join(__dirname, '..');

/** `pnpm --filter bff orders …` as the operator runs it: the script's own command, in the bff folder, with the server's settings. */
function orders(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(join(BFF, 'node_modules', '.bin', 'tsx'), ['src/cli/orders.ts', ...args], { cwd: BFF, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe.each(storageEngines().filter((engine) => !engine.redis))('the orders command (manual fulfilment) on $name', (engine) => {
  it('moves a paid, described certificate order to active: steps, then issuance; refuses bad arguments and orders that are not ready', async () => {
    const store = await startIdentityStore(engine);
    try {
      const { config } = store.app;
      // The same database as the server, from the same settings.
      const env = { LOG_LEVEL: 'silent', NODE_ENV: 'test', ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl } : { DATA_DIR: config.dataDir }) };
      const jane = await buyer(store, 'Jane Doe', 'jane@example.com');
      const checkout = await placeCheckout(store, jane.userId, [VMC_3_DOMAINS_1_YEAR, DMARC_PLUS_MONTHLY]);
      const [vmc, dmarc] = checkout.orders;
      if (!vmc || !dmarc) throw new Error('two orders expected');

      const early = await orders(env, 'issue', vmc.number);
      expect(early).toMatchObject({ code: 1, stderr: `orders: ${vmc.number} cannot be issued yet: it must be paid and have its details\n` });

      const paid = paidEvents(checkout, store.clock.now, [store.clock.now + 365 * DAY, store.clock.now + 31 * DAY]);
      await apply(store, paid.invoicePaid, paid.checkoutCompleted);
      expect((await jane.browser.write('PUT', `/api/account/orders/${vmc.id}/details`, await detailsFor(jane, ['example.com', 'example.net', 'example.org']))).statusCode).toBe(200);
      expect(await statusOf(jane, vmc.id)).toBe('pending');

      const pending = await orders(env, 'list', '--status', 'pending');
      expect(pending.code).toBe(0);
      expect(pending.stdout).toContain(`${vmc.number}  pending`);
      expect(pending.stdout).toContain('jane@example.com');
      expect(pending.stdout).not.toContain(dmarc.number);

      const step = await orders(env, 'step', vmc.number, 'organization', 'done', '--note', 'D-U-N-S record matches');
      expect(step).toMatchObject({ code: 0, stdout: `${vmc.number}: organization is done (D-U-N-S record matches)\n` });
      const shown = await orders(env, 'show', vmc.number.replace('O-', ''));
      expect(shown.stdout).toContain('domains: example.com, example.net, example.org');
      expect(shown.stdout).toMatch(/organization\s+done\s+\S+\s+D-U-N-S record matches/);

      const issued = await orders(env, 'issue', vmc.number, '--expires', '2031-01-15');
      expect(issued).toMatchObject({ code: 0, stdout: `${vmc.number}: issued; the order is active\n` });
      const detail = (await jane.browser.request({ url: `/api/account/orders/${vmc.id}` })).json();
      expect(detail.status).toBe('active');
      expect(detail.validationSteps.map((one: { state: string }) => one.state)).toEqual(['done', 'done', 'done', 'done', 'done']);

      // Clear refusals (checked before the database is opened, so side by side), nothing changed.
      const refusals = await Promise.all([
        orders(env, 'step', vmc.number, 'bogus', 'done'),
        orders(env, 'step', vmc.number, 'logo', 'finished'),
        orders(env, 'issue', vmc.number, '--expires', '2031-02-30'),
        orders(env, 'list', '--status', 'shipped'),
        orders(env, 'refund', vmc.number),
        orders(env, 'issue'),
      ]);
      expect(refusals.map(({ code, stderr }) => ({ code, message: stderr.split('\n')[0] }))).toEqual([
        { code: 2, message: 'orders: the step is one of organization, domain-control, trademark, logo (record issuance with `orders issue`)' },
        { code: 2, message: 'orders: the state is one of waiting, in-progress, done, failed' },
        { code: 2, message: 'orders: --expires is not a real date' },
        { code: 2, message: 'orders: --status is one of all, active, pending, incomplete, expiring' },
        { code: 2, message: 'orders: unknown command "refund"' },
        { code: 2, message: 'orders: give the order: its number (O-000123) or id' },
      ]);
      expect(await orders(env, 'issue', vmc.number)).toMatchObject({ code: 1, stderr: expect.stringContaining('is already issued') });
      expect(await orders(env, 'issue', dmarc.number)).toMatchObject({ code: 1, stderr: `orders: ${dmarc.number} is a DMARC Plus order: only certificates are issued\n` });
      expect(await orders(env, 'show', 'O-999999')).toMatchObject({ code: 1, stderr: 'orders: no order O-999999\n' });
      expect(await statusOf(jane, dmarc.id)).toBe('active');
    } finally {
      await store.cleanUp();
    }
  });
});
