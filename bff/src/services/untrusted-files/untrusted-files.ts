import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import type { Check } from '@bimi/contracts/tools';
import { fail, unreachable } from '@bimi/email-auth/checks';
import type { SvgCheck } from '@bimi/email-auth/svg';
import type { MarkCertificateReport } from '../mark-certificates/validate';
import type { LogoTask, MarkCertificateTask, UntrustedFilesWorkerData } from './tasks';
import { createWorkPool, type WorkFailure, type WorkPool, type WorkPoolOptions } from './work-pool';

/**
 * The certificates and logos strangers upload or point the tools at, checked in worker threads
 * (tasks.ts) with a time and a memory limit each. A check stopped at its limits is one failed
 * check; one the checker was too busy to take, or lost, is one "could not check" (`notChecked`).
 * Nothing of either is kept.
 */
export interface UntrustedFiles {
  /** The mark-certificate validator (services/mark-certificates) against the configured roots. */
  validateMarkCertificate(input: { pem: string; domain?: string; publishedSvg?: Buffer; now?: Date }): Promise<MarkCertificateReport>;
  /** The SVG Tiny PS check of @bimi/email-auth on a fetched logo. */
  checkLogo(svg: Buffer): Promise<SvgCheck>;
  warmUp(): Promise<boolean>;
  close(): Promise<void>;
  /** Logo checks answered from the cache of verdicts by content, and those read in a thread (the benchmark prints them). */
  readonly logoChecks: { cached: number; read: number };
  /** The pool itself, for tests that watch its threads. */
  readonly pool: WorkPool;
}

export interface UntrustedFilesOptions extends Pick<WorkPoolOptions, 'threads' | 'timeoutMs' | 'memoryMb' | 'log'> {
  extraMarkRoots: string[];
}

/** Tasks waiting for a thread, per thread: past that the tools answer "busy" at once. */
export const QUEUE_PER_THREAD = 16;

/**
 * Logo verdicts kept by the SHA-256 of the file: the SVG Tiny PS check is a function of the bytes
 * alone, so the same file fetched again (a re-check, the tool page then a monitor, many monitors of
 * one brand) is not read again. Bounded (entries and bytes) and short-lived; only finished checks
 * are kept, never a check that was stopped or found the checker busy. Certificate verdicts are not
 * kept: they depend on the domain asked and the moment of validation as well as on the bytes.
 */
const LOGO_VERDICTS = { max: 512, maxSize: 8 * 1024 * 1024, ttl: 10 * 60 * 1000 } as const;

function seconds(ms: number): string {
  const value = ms / 1000;
  return `${value} second${value === 1 ? '' : 's'}`;
}

/**
 * Why a file was not checked, and what to do. A file that ran past the time or memory allowed fails:
 * a real one takes milliseconds. A checker busy with other files or stopped says nothing of the file:
 * it is "could not check" (issue 32), so a monitor run keeps its last reading of the logo rather than
 * mailing a drop.
 */
function notChecked(id: string, title: string, file: string, failure: WorkFailure, limits: { timeoutMs: number; memoryMb: number }, fix: string): Check {
  switch (failure) {
    case 'timeout':
      return fail(id, title, `Reading the ${file} took longer than ${seconds(limits.timeoutMs)}, the most the tool allows, so it was stopped; a real ${file} takes milliseconds.`, fix);
    case 'out-of-memory':
      return fail(id, title, `Reading the ${file} needed more than ${limits.memoryMb} MB of memory, the most the tool allows, so it was stopped.`, fix);
    case 'busy':
      return unreachable(id, title, `The checker is busy with other files, so the ${file} was not read in time.`, 'Try again in a minute.');
    default:
      return unreachable(id, title, `The checker stopped while reading the ${file}.`, 'Try again in a minute; if it keeps failing, contact support.');
  }
}

/** Whether `verdict` says the logo was not read because the checker was busy or stopped, not because of the file ("could not check"). */
export function logoCheckUnavailable(verdict: SvgCheck): boolean {
  return verdict.checks.some((check) => check.id === 'svg.check' && check.status === 'unreachable');
}

/** Set by the compiled server build (scripts/build-bff.mjs), which bundles the worker beside server.js. */
declare const __BFF_WORKER_ENTRY__: string | undefined;
/** The worker threads' entry: worker.mjs beside this file when the bff runs as TypeScript (tsx, jest). */
const WORKER_ENTRY = typeof __BFF_WORKER_ENTRY__ === 'string' ? __BFF_WORKER_ENTRY__ : 'worker.mjs';

export function createUntrustedFiles(options: UntrustedFilesOptions): UntrustedFiles {
  const workerData: UntrustedFilesWorkerData = { extraMarkRoots: options.extraMarkRoots };
  const pool = createWorkPool({ ...options, filename: join(__dirname, WORKER_ENTRY), workerData, maxQueue: options.threads * QUEUE_PER_THREAD });
  const logoVerdicts = new LRUCache<string, SvgCheck>({ ...LOGO_VERDICTS, sizeCalculation: (verdict) => JSON.stringify(verdict).length || 1 });
  const logoChecks = { cached: 0, read: 0 };
  return {
    pool,
    logoChecks,
    async validateMarkCertificate(input) {
      const task: MarkCertificateTask = { pem: input.pem, domain: input.domain, publishedSvg: input.publishedSvg, now: input.now?.getTime() };
      const outcome = await pool.run<MarkCertificateReport>('validateMarkCertificate', task);
      if (outcome.ok) return outcome.value;
      const fix = 'Publish the PEM file your issuer delivered; if it is that file, try again in a minute.';
      return { checks: [notChecked('vmc.pem', 'Certificate not checked', 'certificate', outcome.failure, options, fix)], score: 0, details: undefined };
    },
    async checkLogo(svg) {
      const key = createHash('sha256').update(svg).digest('base64');
      const known = logoVerdicts.get(key);
      if (known) {
        logoChecks.cached += 1;
        return structuredClone(known);
      }
      const task: LogoTask = { svg };
      const outcome = await pool.run<SvgCheck>('checkLogo', task);
      if (outcome.ok) {
        logoChecks.read += 1;
        logoVerdicts.set(key, structuredClone(outcome.value));
        return outcome.value;
      }
      const fix = 'Export the logo again from your design tool as SVG Tiny PS; if it is such a file, try again in a minute.';
      return { checks: [notChecked('svg.check', 'Logo not checked', 'logo', outcome.failure, options, fix)], score: 0, details: { bytes: svg.length } };
    },
    warmUp: () => pool.warmUp(),
    close: () => pool.close(),
  };
}
