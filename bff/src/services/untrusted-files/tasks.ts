import { isMainThread, workerData } from 'node:worker_threads';
import { checkSvgTinyPs, type SvgCheck } from '@bimi/email-auth/svg';
import { markRootStore } from '../mark-certificates/roots';
import { validateMarkCertificate as validate, type MarkCertificateReport } from '../mark-certificates/validate';
import { startsTimer } from './worker-task';

/**
 * What the untrusted-files worker threads do (worker-thread.ts exports these to piscina). Inputs and
 * answers cross threads by structured clone: a Buffer arrives as a Uint8Array, a Date as a number.
 * The pool times each task from its start (worker-task.ts).
 */

export interface UntrustedFilesWorkerData {
  /** PEM texts of roots trusted besides the issuers' (TOOLS_EXTRA_MARK_ROOTS_FILE). */
  extraMarkRoots: string[];
}

export interface MarkCertificateTask {
  pem: string;
  domain?: string;
  publishedSvg?: Uint8Array;
  /** Epoch milliseconds to judge validity at; now when absent. */
  now?: number;
}

export interface LogoTask {
  svg: Uint8Array;
}

// Built once per thread: the issuers' roots and the configured extra ones.
const roots = markRootStore((workerData as UntrustedFilesWorkerData | null)?.extraMarkRoots ?? []);

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Answers once the thread has loaded (and warmed) its code. */
export const ping = startsTimer((): true => true);

export const validateMarkCertificate = startsTimer((task: MarkCertificateTask): MarkCertificateReport =>
  validate({
    pem: task.pem,
    rootStore: roots,
    domain: task.domain,
    publishedSvg: task.publishedSvg ? asBuffer(task.publishedSvg) : undefined,
    now: task.now === undefined ? undefined : new Date(task.now),
  }),
);

export const checkLogo = startsTimer((task: LogoTask): SvgCheck => checkSvgTinyPs(asBuffer(task.svg).toString('utf8')));

/**
 * Runs each task once on a known file (a root certificate, a tiny logo) as the thread starts, so a
 * stranger's file is never the one that compiles the code and spends its time limit on it.
 */
function warmUp(): void {
  const root = roots.rootCerts[0];
  if (root) validate({ pem: root.toString(), rootStore: roots });
  checkSvgTinyPs('<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 1 1"><title>Warm-up</title></svg>');
}

if (!isMainThread) warmUp();
