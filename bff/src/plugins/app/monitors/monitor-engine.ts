import type { MonitorSnapshot } from '@bimi/contracts/monitors';
import { isHygiene } from '@bimi/email-auth/checks';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { publicBaseUrl } from '../../../config';
import { monitorAlertMail, monitorAlertSubject, type MonitorAlertContent } from '../../../services/mail/monitor-mails';
import { analyzeDomain } from '../../../services/monitors/analyze';
import { certificateEndLastKnown, changesSince } from '../../../services/monitors/changes';
import { healthWithLastKnown } from '../../../services/monitors/health';
import { queueLimit } from '../../../lib/concurrency-limit';
import { runResolver } from '../../../services/monitors/run-dns';
import { createResolver } from '../platform/dns';
import { QUEUE_PER_THREAD, type UntrustedFiles } from '../../../services/untrusted-files/untrusted-files';
import { CERTIFICATE_EXPIRING_WITHIN_DAYS } from '@bimi/contracts/monitors';
import type { MonitorAlertKind } from './monitors-alerts';

const HOUR = 60 * 60 * 1000;
const MONITOR_DNS_TRIES = 3;
/** Runs looked back on for the last reading of a group a run could not read (a week of daily runs). */
const LAST_KNOWN_RUNS = 7;

/** A scheduled run, as queued: the monitor, and the next_check_at it was due at (the period it is for). */
const MonitorCheck = z.object({ monitorId: z.string(), dueAt: z.string() });

export interface MonitorEngine {
  /** Runs a monitor's check now, in this process (first run on create, "re-check now"); null when the monitor is gone. */
  runNow(monitorId: string): Promise<MonitorSnapshot | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    monitorEngine: MonitorEngine;
  }
}

async function sendAlerts(fastify: FastifyInstance, baseUrl: string, monitor: { id: string; user_id: string; domain: string }, previous: MonitorSnapshot | null, snapshot: MonitorSnapshot) {
  const content: MonitorAlertContent = { domain: monitor.domain, changes: [], topIssues: snapshot.topIssues };
  const claims: [MonitorAlertKind, string][] = [];
  if (previous && snapshot.healthScore < previous.healthScore) {
    content.scoreDrop = { from: previous.healthScore, to: snapshot.healthScore };
    claims.push(['score-drop', snapshot.checkedAt]);
  }
  const recordChanges = snapshot.changes.filter((change) => change.kind !== 'status');
  if (recordChanges.length > 0) {
    content.changes = recordChanges;
    claims.push(['record-change', snapshot.checkedAt]);
  }
  const { validTo, daysLeft } = snapshot.certificate;
  if (validTo && daysLeft !== null && daysLeft <= CERTIFICATE_EXPIRING_WITHIN_DAYS) {
    content.certificateExpiry = { validTo, daysLeft };
    claims.push(['certificate-expiry', validTo]);
  }
  if (claims.length === 0) return;
  const who = await fastify.users.mailRecipient(monitor.user_id, 'monitorAlerts');
  if (!who) return;
  const now = fastify.now();
  const claimed: string[] = [];
  for (const [kind, key] of claims) {
    const id = await fastify.monitorAlerts.claim(monitor.id, kind, key, monitorAlertSubject(content), now);
    if (id) claimed.push(id);
    // Already sent (the certificate expiry is mailed once per certificate): leave it out of this mail.
    else if (kind === 'certificate-expiry') delete content.certificateExpiry;
    else if (kind === 'score-drop') delete content.scoreDrop;
    else content.changes = [];
  }
  // Turned off in the notification settings: claimed all the same, so it is not reconsidered.
  if (claimed.length === 0 || !who.wants) return;
  if (!(await fastify.mailer.trySend(monitorAlertMail(who.email, who.name, baseUrl, content)))) {
    for (const id of claimed) await fastify.monitorAlerts.release(id);
  }
}

/**
 * The monitor engine: the check of one monitor (stores the snapshot with the changes since the run
 * before, updates the list, mails the alerts), run at once for a person (create, re-check now) or
 * as the `monitor-check` job, which the `monitor-schedule` job queues for every monitor due
 * (plugins/app/platform/job-schedule.ts). The job system runs them: with PostgreSQL in pg-boss, where a
 * key per monitor and period makes it one job, which one process runs, retried with backoff, kept
 * across restarts; on SQLite in this process, with the same concurrency and retries. A run first
 * claims its period in the monitors table (one conditional update of next_check_at), so even a
 * second job for the same period changes nothing. DNS is polite: at most MONITOR_DNS_CONCURRENCY
 * queries at once for this process, and each question asked once per run.
 */
export default fp(
  async function monitorEngine(fastify) {
    const settings = fastify.config.monitors;
    const interval = settings.checkIntervalHours * HOUR;
    const limitedDns = queueLimit(settings.dnsConcurrency);
    // The monitors' own resolver, with a third try: a UDP answer lost twice (a busy resolver, a
    // full socket buffer) must not become a finding in a snapshot and an alert mail; nobody waits
    // on a scheduled run, so a server that never answers may cost it a few seconds more.
    const resolver = createResolver({ servers: fastify.config.dnsServers, timeoutMs: fastify.config.tools.dnsTimeoutMs, tries: MONITOR_DNS_TRIES });
    // The monitors' share of the untrusted-files threads: half of the tasks that may wait for one.
    // Past the pool's queue a task is answered "busy" at once, which would store "Logo not checked"
    // for a logo that is fine; a monitor run waits its turn instead, and a person's tool check still
    // finds room in the queue.
    const limitedFiles = queueLimit(Math.max(1, Math.floor((fastify.config.tools.workers.threads * QUEUE_PER_THREAD) / 2)));
    const files: UntrustedFiles = {
      ...fastify.untrustedFiles,
      checkLogo: (svg) => limitedFiles(() => fastify.untrustedFiles.checkLogo(svg)),
      validateMarkCertificate: (input) => limitedFiles(() => fastify.untrustedFiles.validateMarkCertificate(input)),
    };
    const baseUrl = publicBaseUrl(fastify.config);

    /** One run of one monitor; `period` when it is a scheduled run that must first claim its period. */
    async function run(monitorId: string, period?: string): Promise<MonitorSnapshot | null> {
      const now = fastify.now();
      // A scheduled run claims its period; an unscheduled one (create, re-check now) starts the
      // period over. Either answers the monitor, or nothing when it is not there to run.
      const monitor = period !== undefined ? await fastify.monitors.claim(monitorId, period, now + interval) : await fastify.monitors.setChecking(monitorId, true, now + interval);
      if (!monitor) return null;
      try {
        const io = { dns: runResolver(resolver, limitedDns), fetch: fastify.safeFetch };
        const analysis = await analyzeDomain(monitor.domain, io, files, now);
        // What a group the run could not read is compared with: the last run that read it, among these.
        const before = await fastify.monitorSnapshots.recent(monitorId, LAST_KNOWN_RUNS);
        const previous = before[0] ?? null;
        const snapshot: MonitorSnapshot = { ...analysis, healthScore: healthWithLastKnown(before, analysis.groups), changes: changesSince(before, analysis) };
        const recorded = await fastify.monitors.recordRun(monitorId, {
          healthScore: snapshot.healthScore,
          // Hygiene is listed apart and is never a monitor's worst issue (issue 32).
          worstIssue: snapshot.topIssues.find((issue) => !isHygiene({ id: issue.checkId })) ?? null,
          checkedAt: snapshot.checkedAt,
          // Not forgotten while its host cannot be reached: the dashboard lists it as expiring soon.
          certificateExpiresAt: certificateEndLastKnown(before, snapshot),
        });
        // Deleted while it ran: nothing to store.
        if (!recorded) return null;
        await fastify.monitorSnapshots.add(monitorId, snapshot);
        await sendAlerts(fastify, baseUrl, monitor, previous, snapshot).catch((error: unknown) => fastify.log.error({ err: error, monitorId }, 'monitor alert failed'));
        return snapshot;
      } catch (error) {
        // Give the period back so the retry can claim it.
        if (period !== undefined) await fastify.monitors.releaseClaim(monitorId, period);
        else await fastify.monitors.setChecking(monitorId, false);
        throw error;
      }
    }

    fastify.jobs.handle('monitor-check', MonitorCheck, async (job) => {
      await run(job.monitorId, job.dueAt);
    });
    fastify.jobs.handle('monitor-schedule', async function queueDueChecks(): Promise<number> {
      const due = await fastify.monitors.dueRuns(fastify.now(), 10_000);
      if (due.length > 0)
        await fastify.jobs.send(
          'monitor-check',
          due.map((row) => ({ key: `${row.id} ${row.next_check_at}`, data: { monitorId: row.id, dueAt: row.next_check_at } })),
        );
      return due.length;
    });

    const unscheduled = new Set<Promise<unknown>>();
    fastify.decorate('monitorEngine', {
      runNow(monitorId) {
        // Kept until it ends, so closing waits for a first run the create answer stopped waiting for.
        const running = run(monitorId);
        unscheduled.add(running);
        void running.catch(() => undefined).finally(() => unscheduled.delete(running));
        return running;
      },
    } satisfies MonitorEngine);
    fastify.addHook('onClose', async () => {
      await Promise.allSettled([...unscheduled]);
      resolver.cancel();
    });
  },
  { name: 'monitor-engine', dependencies: ['monitors', 'monitor-snapshots', 'monitor-alerts', 'mailer', 'dns-resolver', 'safe-fetch', 'untrusted-files', 'jobs'] },
);
