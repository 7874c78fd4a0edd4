import fp from 'fastify-plugin';

const MINUTE = 60 * 1000;

/**
 * One periodic piece of the payments' work. Every process runs each (all are safe to run twice at
 * once: a record changes once), one run at a time; what a run did is logged at `level` under `key`.
 */
interface PaymentJob {
  everyMs: number;
  /** Whether it also runs as soon as the bff is ready. */
  atStart: boolean;
  /** Does the work; answers the ids of what it changed. */
  run(): Promise<string[]>;
  level: 'info' | 'warn';
  key: string;
  /** The log line when it changed something. */
  did: string;
  /** The log line when it failed (it runs again at its next time). */
  failed: string;
}

/**
 * The payments' periodic work, as one table: closing checkouts left without a payment page and
 * declined tries not paid again, and, by provider, finishing and expiring the built-in test pages
 * or ending Stripe items whose renewal is off (docs/payments.md).
 */
export default fp(
  async (fastify) => {
    const { payments } = fastify;
    const jobs: PaymentJob[] = [
      {
        everyMs: 5 * MINUTE,
        atStart: true,
        run: () => payments.closeCheckoutsWithoutPaymentPage(),
        level: 'warn',
        key: 'checkouts',
        did: 'checkouts left without a payment page closed as failed',
        failed: 'closing checkouts left without a payment page failed; it runs again in a few minutes',
      },
      {
        everyMs: 5 * MINUTE,
        atStart: true,
        run: () => payments.closeDeclinedTries(),
        level: 'info',
        key: 'checkouts',
        did: 'declined tries not paid again within a day cancelled',
        failed: 'closing declined tries failed; it runs again in a few minutes',
      },
    ];
    const { test, stripe } = payments;
    if (test) {
      jobs.push(
        // A test page marked paid whose payment was not all applied (the process stopped, the database failed in between).
        {
          everyMs: 5 * MINUTE,
          atStart: true,
          run: () => test.finishPaidPages(),
          level: 'warn',
          key: 'sessions',
          did: 'test payments: paid pages whose payment was not applied finished',
          failed: 'test payments: finishing paid pages failed; it runs again in a few minutes',
        },
        // Test payment pages left unpaid for 24 hours expire (checkout.expired), as Stripe's sessions do, by the bff's clock.
        {
          everyMs: 60 * MINUTE,
          atStart: true,
          run: () => test.expireOpenSessions(),
          level: 'info',
          key: 'sessions',
          did: 'test payments: unpaid payment pages expired',
          failed: 'test payments: expiring payment pages failed; it runs again in an hour',
        },
      );
    }
    if (stripe) {
      // An order whose renewal is off, in a subscription that goes on for other orders, leaves it during
      // the last day of its period (removing an item already removed is refused by Stripe and logged).
      jobs.push({
        everyMs: 60 * MINUTE,
        atStart: false,
        run: () => stripe.endNonRenewingItems(fastify.now()),
        level: 'info',
        key: 'items',
        did: 'renewal job: items ended at their period end',
        failed: 'renewal job failed; it runs again in an hour',
      });
    }

    for (const job of jobs) {
      let current: Promise<void> | undefined;
      const run = () => {
        current ??= job
          .run()
          .then((changed) => {
            if (changed.length > 0) fastify.log[job.level]({ [job.key]: changed }, job.did);
          })
          .catch((error: unknown) => fastify.log.error({ err: error }, job.failed))
          .finally(() => {
            current = undefined;
          });
      };
      let timer: NodeJS.Timeout | undefined;
      fastify.addHook('onReady', async () => {
        if (job.atStart) run();
        timer = setInterval(run, job.everyMs);
        timer.unref();
      });
      // A run in progress finishes before the bff closes.
      fastify.addHook('onClose', async () => {
        clearInterval(timer);
        await current;
      });
    }
  },
  { name: 'payment-jobs', dependencies: ['payments', 'clock'] },
);
