#!/usr/bin/env node
// Two builds of the site, compared page by page: `pnpm bench:compare --a URL --b URL [page…]`.
//
// On a shared host one Lighthouse run of each build says little: the host's speed moves between
// runs as much as a change does (docs/performance.md). This runs each page on build A and build B
// one after the other, in rounds, the order turned every round so neither build always goes first
// when the machine is fresher, and prints every run and the medians: a change's direction shows
// when it repeats across rounds. Each build runs on a bff of its own (another port, its own
// DATA_DIR); the builds are the caller's (see CONTRIBUTING.md, "Benchmarks"). A benchmark, not a
// test: it exits non-zero only when it could not measure.
//
//   --a URL, --b URL     the two sites (for example http://127.0.0.1:3300 for the build before, :3000 for after)
//   --rounds N           rounds (3)
//   --cpu-slowdown X     Lighthouse's CPU slowdown, instead of calibrating it on build A's `/`
//   page…                paths to measure (the five of bench:web when none); /account/* signed in
import { parseArgs } from 'node:util';
import { signedInCookieHeader } from './bench/account.mjs';
import { calibrateCpu, killChromesNow, metricsOf, runLighthouse } from './bench/lighthouse.mjs';
import { median } from './bench/median.mjs';
import { stopSwitch } from './bench/stop.mjs';

const DEFAULT_PAGES = ['/', '/products/digicert-verified-mark-certificate', '/checkout', '/bimi-checker', '/account/dashboard'];
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

const log = (message = '') => process.stdout.write(`${message}\n`);

function parseOptions() {
  const { values, positionals } = parseArgs({
    options: { a: { type: 'string' }, b: { type: 'string' }, rounds: { type: 'string', default: '3' }, 'cpu-slowdown': { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: true,
  });
  const usage = 'usage: node scripts/bench-compare.mjs --a URL --b URL [--rounds N] [--cpu-slowdown X] [page…]';
  if (values.help) {
    log(usage);
    process.exit(0);
  }
  if (!values.a || !values.b) throw new Error(`--a and --b are required\n${usage}`);
  const sites = [values.a, values.b].map((url) => new URL(url).origin);
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) throw new Error(`--rounds must be a whole number from 1 to 20, not "${values.rounds}"`);
  const cpuSlowdown = values['cpu-slowdown'] === undefined ? undefined : Number(values['cpu-slowdown']);
  if (cpuSlowdown !== undefined && (!Number.isFinite(cpuSlowdown) || cpuSlowdown < 1 || cpuSlowdown > 40))
    throw new Error(`--cpu-slowdown must be a number from 1 to 40, not "${values['cpu-slowdown']}"`);
  const pages = positionals.length ? positionals : DEFAULT_PAGES;
  for (const page of pages) if (!page.startsWith('/')) throw new Error(`a page is a path from the site's root (/checkout), not "${page}"`);
  return { sites, rounds, cpuSlowdown, pages };
}

/** A session cookie per site for its account pages, or undefined where no account could be made (measured signed out, and said). */
async function accountCookies(sites) {
  return Promise.all(
    sites.map((site) =>
      signedInCookieHeader(site).catch((error) => {
        log(`⚠ ${site}: the account pages are measured signed out (${error instanceof Error ? error.message.split('\n')[0] : error})`);
        return undefined;
      }),
    ),
  );
}

async function main() {
  const { sites, rounds, cpuSlowdown: given, pages } = parseOptions();
  const blockExternal = sites.every((site) => LOOPBACK.includes(new URL(site).hostname));
  const cookies = pages.some((page) => page.startsWith('/account')) ? await accountCookies(sites) : [undefined, undefined];
  let cpuSlowdownMultiplier = given;
  if (cpuSlowdownMultiplier === undefined) {
    const calibration = await calibrateCpu(sites[0], { blockExternal, log });
    cpuSlowdownMultiplier = calibration.cpuSlowdown;
    log(`CPU slowdown ${cpuSlowdownMultiplier}× (calibrated on A: CPU index ${Math.round(calibration.benchmarkIndex)}, probes ${calibration.probes.join(', ')})`);
  } else log(`CPU slowdown ${cpuSlowdownMultiplier}× (set with --cpu-slowdown)`);
  log(`A ${sites[0]}\nB ${sites[1]}\n${rounds} round${rounds > 1 ? 's' : ''}, each page on A and B one after the other\n`);

  /** @type {Map<string, { A: ReturnType<typeof metricsOf>[], B: ReturnType<typeof metricsOf>[] }>} */
  const results = new Map(pages.map((page) => [page, { A: [], B: [] }]));
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? [0, 1] : [1, 0];
    for (const page of pages) {
      for (const which of order) {
        const name = which ? 'B' : 'A';
        const cookie = page.startsWith('/account') ? cookies[which] : undefined;
        try {
          const m = metricsOf(await runLighthouse(new URL(page, sites[which]).href, { blockExternal, cookie, cpuSlowdownMultiplier }));
          results.get(page)[name].push(m);
          log(`round ${round} ${name} ${page}: performance ${m.performance}, TBT ${Math.round(m.tbtMs)} ms, LCP ${(m.lcpMs / 1000).toFixed(2)} s, CPU index ${Math.round(m.benchmarkIndex)}`);
        } catch (error) {
          if (stopSwitch.stopped) throw error;
          log(`round ${round} ${name} ${page}: ✖ ${error instanceof Error ? error.message.split('\n')[0] : error}`);
        }
      }
    }
  }

  log('\nMedians, A → B (every run in brackets):');
  const runsOf = (metrics, key, format) => metrics.map((m) => format(m[key])).join(', ');
  const ms = (value) => String(Math.round(value));
  const s = (value) => (value / 1000).toFixed(2);
  for (const [page, { A, B }] of results) {
    if (!A.length || !B.length) {
      log(`  ${page}: not measured on ${A.length ? 'B' : 'A'}`);
      continue;
    }
    const line = (key, format, unit) => `${format(median(A.map((m) => m[key])))} → ${format(median(B.map((m) => m[key])))}${unit} (${runsOf(A, key, format)} → ${runsOf(B, key, format)})`;
    log(`  ${page}`);
    log(`    performance ${line('performance', (value) => String(Math.round(value)), '')}`);
    log(`    TBT         ${line('tbtMs', ms, ' ms')}`);
    log(`    LCP         ${line('lcpMs', s, ' s')}`);
  }
}

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.on(signal, () => {
    stopSwitch.stopped = true;
    killChromesNow();
    process.exit(code);
  });
}

main().catch((error) => {
  killChromesNow();
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
