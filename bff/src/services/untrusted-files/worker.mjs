// The entry of the untrusted-files worker threads (work-pool.ts). The bff is TypeScript run
// through tsx, and a worker thread inherits no loader: neither the main thread's `--import tsx`
// (npm start, the e2e server, the benchmark) nor jest's @swc/jest transform. So each thread
// registers tsx's require hook itself (the bff's .ts files are CommonJS) and requires the tasks.
// (tsx's ES-module register works too, but doubles a thread's start to over a second.)
import { readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { getPriority, setPriority } from 'node:os';
import { register } from 'tsx/cjs/api';

// On a machine with few cores the threads compete with the event loop for the CPU: on Linux, where
// a thread has an id of its own that setpriority takes, this one yields to it (nice +10). Elsewhere
// the threads run at the process's priority.
try {
  const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (thread > 0) setPriority(thread, Math.min(19, getPriority(thread) + 10));
} catch {
  // not Linux, or not allowed: nothing to do
}

register();
const tasks = createRequire(import.meta.url)('./tasks.ts');

export const { ping, validateMarkCertificate, checkLogo } = tasks;
