import fp from 'fastify-plugin';
import type { PeriodicJobName } from '../platform/job-schedule';

/** What one of the payments' jobs did is logged at `level`, under `key`, when it changed something. */
interface PaymentJob {
  /** Does the work; answers the ids of what it changed. */
  run(): Promise<string[]>;
  level: 'info' | 'warn';
  key: string;
  did: string;
}

/**
 * The payments' periodic work, as handlers of the named jobs in plugins/app/platform/job-schedule.ts
 * (where their schedules are): closing checkouts left without a payment page and declined tries
 * not paid again, and, by provider, finishing and expiring the built-in test pages or ending Stripe
 * items whose renewal is off (docs/payments.md). Each is safe to run twice at once: a record
 * changes once.
 */
export default fp(
  async (fastify) => {
    const { payments } = fastify;
    const jobs: Partial<Record<PeriodicJobName, PaymentJob>> = {
      'checkout-sweep': { run: () => payments.closeCheckoutsWithoutPaymentPage(), level: 'warn', key: 'checkouts', did: 'checkouts left without a payment page closed as failed' },
      'declined-tries': { run: () => payments.closeDeclinedTries(), level: 'info', key: 'checkouts', did: 'declined tries not paid again within a day cancelled' },
    };
    const { test, stripe } = payments;
    if (test) {
      // A test page marked paid whose payment was not all applied (the process stopped, the database failed in between).
      jobs['test-pages-finish'] = { run: () => test.finishPaidPages(), level: 'warn', key: 'sessions', did: 'test payments: paid pages whose payment was not applied finished' };
      // Test payment pages left unpaid for 24 hours expire (checkout.expired), as Stripe's sessions do, by the bff's clock.
      jobs['test-pages-expire'] = { run: () => test.expireOpenSessions(), level: 'info', key: 'sessions', did: 'test payments: unpaid payment pages expired' };
    }
    if (stripe) {
      // An order whose renewal is off, in a subscription that goes on for other orders, leaves it during
      // the last day of its period (removing an item already removed is refused by Stripe and logged).
      jobs['stripe-items-end'] = { run: () => stripe.endNonRenewingItems(fastify.now()), level: 'info', key: 'items', did: 'renewal job: items ended at their period end' };
    }

    for (const [name, job] of Object.entries(jobs) as [PeriodicJobName, PaymentJob][]) {
      fastify.jobs.handle(name, async () => {
        const changed = await job.run();
        if (changed.length > 0) fastify.log[job.level]({ [job.key]: changed }, job.did);
        return changed;
      });
    }
  },
  { name: 'payment-jobs', dependencies: ['payments', 'clock', 'jobs'] },
);
