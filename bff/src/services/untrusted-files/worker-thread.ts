import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * What an untrusted-files worker thread runs: the tasks (tasks.ts), after yielding the CPU to the
 * event loop. Its entry is worker.mjs under tsx (development, tests) and dist/worker.cjs in the
 * compiled server build (scripts/build-bff.mjs).
 */

// On a machine with few cores the threads compete with the event loop for the CPU: on Linux, where
// a thread has an id of its own that setpriority takes, this one yields to it (nice +10). Elsewhere
// the threads run at the process's priority.
try {
  const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (thread > 0) setPriority(thread, Math.min(19, getPriority(thread) + 10));
} catch {
  // not Linux, or not allowed: nothing to do
}

export { ping, validateMarkCertificate, checkLogo } from './tasks';
