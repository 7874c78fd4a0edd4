import { readFileSync } from 'node:fs';

/**
 * The clocks a test may read. Work that runs on the CPU (a parser, a validator) is timed in CPU time
 * of this process: on a busy two-core host another process (a second jest worker, a build, CI's
 * neighbours) stretches the wall clock of the same work two or three times, and a test that reads
 * it fails on a machine that is only busy. A wait (a query that must fail fast, a worker that must
 * answer) is timed on the wall clock, which is what the person waiting sees.
 *
 * ESLint keeps `performance.now()` out of the bff's and the packages' test files (a package's tests
 * may import the bff's test helpers): each timing there names its clock through here.
 */

/** What `work` returned, and the milliseconds of CPU time this process spent on it (user and system). */
export function cpuMsOf<T>(work: () => T): { result: T; ms: number } {
  const before = process.cpuUsage();
  const result = work();
  const used = process.cpuUsage(before);
  return { result, ms: (used.user + used.system) / 1000 };
}

/** The least CPU time of three runs of `work`: a collection of another test's garbage can fall in any one. */
export function leastCpuMsOf(work: () => unknown): number {
  return Math.min(cpuMsOf(work).ms, cpuMsOf(work).ms, cpuMsOf(work).ms);
}

/**
 * The CPU time the event loop's thread spends on `work`, in ms: the main thread's utime + stime
 * from Linux's /proc (its thread id is the process id; 100 ticks a second). Unlike a response
 * time it does not grow when other processes keep the machine busy. It includes this test's own
 * HTTP client, a few ms a request.
 */
export async function mainThreadCpuMsDuring<T>(work: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const cpuMs = () => {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  const before = cpuMs();
  const result = await work();
  return { result, cpuMs: cpuMs() - before };
}

/** What `wait` resolved to, and the milliseconds on the wall clock until it did. */
export async function wallMsOf<T>(wait: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await wait();
  return { result, ms: performance.now() - started };
}

/**
 * What `wait` resolved to, its wall-clock milliseconds, and the longest the event loop went without
 * running a 10 ms timer meanwhile (a held loop shows as a late tick).
 */
export async function loopStallDuring<T>(wait: () => Promise<T>): Promise<{ result: T; ms: number; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last - 10);
    last = now;
  }, 10);
  try {
    const { result, ms } = await wallMsOf(wait);
    return { result, ms, stallMs };
  } finally {
    clearInterval(ticker);
  }
}
