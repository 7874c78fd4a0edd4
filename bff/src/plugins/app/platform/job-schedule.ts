import type { Config } from '../../../config';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Work that runs on a timer: one run a period across every bff process, one at a time in a process. */
export interface PeriodicJob {
  kind: 'periodic';
  /** How often; 0 runs it only when asked (`jobs.runNow`, `jobs.wake`). */
  everyMs: number;
  /** Whether each process also runs it as soon as it is ready (catching up on what a stopped process left). */
  atStart: boolean;
  /** `jobs.wake` waits this long before the run, so what arrives meanwhile goes in the same run. */
  gatherMs: number;
}

/** Work queued with data, one run a key: as many at once in a process as `concurrency`, failed runs retried with backoff. */
export interface QueuedJob {
  kind: 'queued';
  concurrency: number;
  /** Tries after the first. */
  retryLimit: number;
  /** The first retry's delay with pg-boss, doubled for each one after (in process: 1 s, then 4 s …). */
  retryDelaySeconds: number;
  /** However many processes queue a key within this window, it runs once. */
  singletonSeconds: number;
}

export type JobSpec = PeriodicJob | QueuedJob;

const periodic = (everyMs: number, atStart: boolean, gatherMs = 0): PeriodicJob => ({ kind: 'periodic', everyMs, atStart, gatherMs });

/**
 * Every periodic or deferred piece of the bff's work, by name, with its schedule: the one table
 * (bff/README.md#jobs). Each handler is a plain function its domain plugin hands to
 * `fastify.jobs.handle`; a job nobody handles (the Stripe job under test payments) never runs.
 */
export function jobSchedule(config: Config) {
  const schedulerMs = config.monitors.schedulerSeconds * SECOND;
  return {
    /** Checkouts left without a payment page close as failed (plugins/app/payments/payment-jobs.ts). */
    'checkout-sweep': periodic(5 * MINUTE, true),
    /** Declined tries not paid again within a day are cancelled. */
    'declined-tries': periodic(5 * MINUTE, true),
    /** Test payments: pages marked paid whose payment was not all applied are finished. */
    'test-pages-finish': periodic(5 * MINUTE, true),
    /** Test payments: pages left unpaid for 24 hours expire, as Stripe's sessions do. */
    'test-pages-expire': periodic(HOUR, true),
    /** Stripe: items whose renewal is off leave their subscription in the last day of their period. */
    'stripe-items-end': periodic(HOUR, false),
    /** Renewal reminders, 30 and 7 days before a yearly period ends (plugins/app/orders/renewal-reminders.ts). */
    'renewal-reminders': periodic(HOUR, true),
    /**
     * The order mails and fulfilment hand-offs that applied payment events left
     * (plugins/app/mail/order-notifications.ts), woken by each event in its process. The wake waits
     * 25 ms, so the notifications of the payment batches committed meanwhile go in one round (claim,
     * read, send, mark done) instead of one round each: under a webhook burst (bench:payments)
     * rounds fell from about one a batch to one every 25 ms. Every 30 s for retries due and rows a
     * stopped process left.
     */
    'order-mail': periodic(30 * SECOND, true, 25),
    /** Queues the monitor checks that are due (MONITOR_SCHEDULER_SECONDS; 0 turns it off). */
    'monitor-schedule': periodic(schedulerMs, schedulerMs > 0),
    /** One monitor's check (plugins/app/monitors/monitor-engine.ts): one job per monitor and period. */
    'monitor-check': { kind: 'queued', concurrency: config.monitors.concurrency, retryLimit: 3, retryDelaySeconds: 30, singletonSeconds: 3600 },
  } satisfies Record<string, JobSpec>;
}

export type JobName = keyof ReturnType<typeof jobSchedule>;
export type PeriodicJobName = { [Name in JobName]: ReturnType<typeof jobSchedule>[Name] extends PeriodicJob ? Name : never }[JobName];
export type QueuedJobName = Exclude<JobName, PeriodicJobName>;
