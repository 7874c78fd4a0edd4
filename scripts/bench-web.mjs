#!/usr/bin/env node
// Web performance benchmark of the production build: `pnpm bench:web` (or node scripts/bench-web.mjs).
//
// For five pages it reports when the page's main content renders and when the page is
// interactive, what the browser downloads before it is interactive (JavaScript bytes split into
// shell / shared libraries / remote, gzip and brotli; request count) and Lighthouse's mobile performance figures (median of several runs), prints a table
// and the performance goals for each page, and writes everything to bench-results/web.json. A benchmark, not a
// test: a missed target is reported, never a failure. It exits non-zero only when it could
// not measure (no build, the bff did not start, a page did not render).
//
//   --runs N     Lighthouse runs (and cold first-render loads) per page, median reported (3)
//   --quick      one run per page
//   --build      rebuild the front ends first (node scripts/build.mjs, NODE_ENV=production)
//   --no-lighthouse   only the first-render figures
//   --cpu-slowdown X  Lighthouse's CPU slowdown, instead of calibrating it
//   --no-document-alone  skip the Lighthouse runs of each page's document alone (its .js files blocked)
//   --applied-throttling  Lighthouse slows Chromium's CPU and network for real while the page loads and reports
//                what it observed (its "devtools" method), instead of simulating the slow phone from an
//                unthrottled load (the goals are set on the simulation; this shows how far a model's
//                estimate and a throttled Chromium differ)
//
// Calibration: Lighthouse's 4× CPU slowdown simulates a slow phone only on a host of its reference
// speed. The benchmark first measures this host's CPU (Lighthouse's benchmarkIndex, median of
// CALIBRATION_PROBES runs of `/`) and slows it by 4 × index / 1,000, so that every host simulates
// the same phone as a host of index 1,000 at 4×; it prints the index and the multiplier used.
//   BENCH_URL=http://host:port   measure a site that is already running instead of starting the bff
//                (sizes and groups still come from the build on disk, which must be the one served)
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildFingerprint, missingBuildFiles, snapshotBuild, staleBuilds } from './bench/build-state.mjs';
import { signedInCookieHeader } from './bench/account.mjs';
import { startBff } from './bench/bff.mjs';
import { loadCatalog } from './bench/classify.mjs';
import { FIRST_RENDER_SELECTOR, MOBILE_DEVICE, launchBrowser, loadOnce, receivedBeforeInteractive } from './bench/first-render.mjs';
import { CALIBRATION_PROBES, REFERENCE_CPU, calibrateCpu, diagnosticsOf, killChromesNow, lighthouseVersion, metricsOf, runLighthouse, runningChromes } from './bench/lighthouse.mjs';
import { median } from './bench/median.mjs';
import { fileSizes } from './bench/sizes.mjs';
import { duplicatedModules } from './bench/sourcemap.mjs';
import { Stopped, stopSwitch, throwIfStopped } from './bench/stop.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS_FILE = path.join(ROOT, 'bench-results', 'web.json');

const PAGES = ['/', '/products/digicert-verified-mark-certificate', '/checkout', '/bimi-checker', '/account/dashboard'];
const GROUPS = ['shell', 'shared', 'remote'];
const KB = 1024;

/**
 * The performance goals, per page, checked against the calibrated phone and printed with the gap
 * when missed, never enforced: Lighthouse mobile ≥ 95, TBT ≤ 150 ms, LCP ≤ 1.2 s and CLS 0 on every
 * page; at most 180 KB gzip of JavaScript before `/` is interactive (every page's figure is printed).
 */
const GOALS = { performance: 95, lcpMs: 1200 };
const HOME_JS_GZIP_LIMIT = 180 * KB;
const TBT_LIMIT_MS = 150;

// ───────────────────────────── helpers ─────────────────────────────

const kb = (bytes) => (bytes / KB).toFixed(1);
const seconds = (ms) => (ms / 1000).toFixed(2);
const pad = (value, width) => String(value).padStart(width);
const padEnd = (value, width) => String(value).padEnd(width);

/** The element whose `key` is the median (the lower middle one for an even count). */
function medianBy(items, key) {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

function log(message = '') {
  process.stdout.write(`${message}\n`);
}

function runNode(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
    const kill = () => child.exitCode === null && child.signalCode === null && child.kill('SIGTERM');
    lastResorts.push(kill);
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`node ${args.join(' ')} ${signal ? `was stopped by ${signal}` : `exited with ${code}`}`))));
  });
}

/** How Lighthouse slows the phone down (its throttlingMethod), in the words the report prints. */
const THROTTLING_WORDS = {
  simulate: 'simulated throttling: 150 ms RTT, 1.6 Mbps',
  devtools: "throttling applied to Chromium (Lighthouse's devtools method): 562.5 ms request latency, 1.4 Mbps",
};

function parseOptions() {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string' },
      quick: { type: 'boolean', default: false },
      build: { type: 'boolean', default: false },
      'no-lighthouse': { type: 'boolean', default: false },
      'cpu-slowdown': { type: 'string' },
      'no-document-alone': { type: 'boolean', default: false },
      'applied-throttling': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: false,
  });
  if (values.help) {
    log(
      'usage: node scripts/bench-web.mjs [--runs N | --quick] [--build] [--no-lighthouse] [--no-document-alone] [--cpu-slowdown X] [--applied-throttling]   (BENCH_URL=… to measure a running site)',
    );
    process.exit(0);
  }
  let runs = values.quick ? 1 : 3;
  if (values.runs !== undefined) {
    runs = Number(values.runs);
    if (!Number.isInteger(runs) || runs < 1 || runs > 25) throw new Error(`--runs must be a whole number from 1 to 25, not "${values.runs}"`);
  }
  let cpuSlowdown = null;
  if (values['cpu-slowdown'] !== undefined) {
    cpuSlowdown = Number(values['cpu-slowdown']);
    if (!Number.isFinite(cpuSlowdown) || cpuSlowdown < 1 || cpuSlowdown > 40) throw new Error(`--cpu-slowdown must be a number from 1 to 40, not "${values['cpu-slowdown']}"`);
  }
  const throttlingMethod = values['applied-throttling'] ? 'devtools' : 'simulate';
  return { runs, build: values.build, lighthouse: !values['no-lighthouse'], documentAlone: !values['no-document-alone'], cpuSlowdown, throttlingMethod };
}

// ───────────────────────────── clean-up on exit and Ctrl-C ─────────────────────────────

const cleanups = [];
/** Synchronous kills for process 'exit', whatever happened before. */
const lastResorts = [killChromesNow];
process.on('exit', () => {
  for (const kill of lastResorts) kill();
});
let cleaning = null;
function cleanUp() {
  cleaning ??= (async () => {
    for (const chrome of runningChromes) {
      try {
        await chrome.kill();
      } catch {}
    }
    while (cleanups.length) {
      try {
        await cleanups.pop()();
      } catch {}
    }
  })();
  return cleaning;
}
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
]) {
  process.on(signal, () => {
    if (stopSwitch.stopped) return;
    stopSwitch.stopped = true;
    process.stderr.write(`\n${signal}: stopping the benchmark …\n`);
    cleanUp().finally(() => process.exit(code));
  });
}

// ───────────────────────────── first render ─────────────────────────────

/**
 * One cold load, reduced to what was received before the page was interactive, each file classified and sized.
 */
function summarizeLoad(load, catalog) {
  const received = receivedBeforeInteractive(load);
  const files = [];
  const diskFiles = [];
  const bytes = Object.fromEntries([...GROUPS, 'other'].map((g) => [g, { raw: 0, gzip: 0, brotli: 0, files: 0 }]));
  let served = 0;
  for (const entry of received) {
    const url = new URL(entry.url);
    const isJs = url.pathname.endsWith('.js') || entry.initiatorType === 'script';
    const isRemoteManifest = /\/mf-manifest\.json$/.test(url.pathname);
    if (!isJs && !isRemoteManifest) continue;
    const found = catalog.classify(url.pathname);
    const sizes = found?.file ? fileSizes(found.file) : { raw: entry.encodedBodySize, gzip: entry.encodedBodySize, brotli: entry.encodedBodySize };
    const group = found ? found.group : 'other';
    if (found?.file?.endsWith('.js')) diskFiles.push(found.file);
    bytes[group].raw += sizes.raw;
    bytes[group].gzip += sizes.gzip;
    bytes[group].brotli += sizes.brotli;
    bytes[group].files += 1;
    served += entry.encodedBodySize ?? 0;
    files.push({
      url: url.pathname,
      group,
      app: found?.app ?? null,
      why: found?.why ?? 'not found in any dist folder (size = bytes served)',
      raw: sizes.raw,
      gzip: sizes.gzip,
      brotli: sizes.brotli,
      servedBytes: entry.encodedBodySize ?? null,
      receivedAtMs: Math.round(entry.responseEnd),
      contains: (found?.composition ?? [])
        .filter((part) => part.share >= 0.05 && !part.name.startsWith('unmapped'))
        .slice(0, 3)
        .map((part) => `${part.name} ${Math.round(part.share * 100)}%`),
    });
  }
  const total = { raw: 0, gzip: 0, brotli: 0, files: 0 };
  for (const group of [...GROUPS, 'other']) for (const key of Object.keys(total)) total[key] += bytes[group][key];
  return {
    firstRenderMs: Math.round(load.firstRenderMs),
    interactiveMs: Math.round(load.interactiveMs),
    heading: load.heading,
    remote: load.remote,
    remoteError: load.remoteError,
    requests: received.length,
    requestsByType: received.reduce((acc, r) => ({ ...acc, [r.initiatorType]: (acc[r.initiatorType] ?? 0) + 1 }), {}),
    jsFiles: files.length,
    bytes: { ...bytes, total },
    jsServedBytes: served,
    files,
    duplicatedModules: duplicatedModules(diskFiles),
    consoleErrors: load.consoleErrors,
    externalRequests: load.external,
    failedRequests: load.failed,
  };
}

async function measureFirstRender(baseUrl, catalog, runs, blockExternal, cookieOf) {
  const browser = await launchBrowser({ blockExternal });
  cleanups.push(() => browser.close());
  const chromiumVersion = browser.version();
  const results = [];
  try {
    // One untimed pass so the first measured page does not pay for a cold server.
    for (const page of PAGES) {
      throwIfStopped();
      await loadOnce(browser, new URL(page, baseUrl).href, { cookie: cookieOf(page) }).catch(() => {});
    }
    for (const page of PAGES) {
      const url = new URL(page, baseUrl).href;
      const loads = [];
      try {
        for (let run = 0; run < runs; run++) {
          throwIfStopped();
          loads.push(summarizeLoad(await loadOnce(browser, url, { cookie: cookieOf(page) }), catalog));
        }
      } catch (error) {
        if (stopSwitch.stopped) throw new Stopped();
        results.push({ page, error: error instanceof Error ? error.message : String(error) });
        log(`  ${padEnd(page, 46)} ✖ ${error instanceof Error ? error.message : error}`);
        continue;
      }
      const chosen = medianBy(loads, (l) => l.bytes.total.gzip);
      const varies = (pick) => new Set(loads.map(pick)).size > 1;
      const summary = {
        page,
        heading: chosen.heading,
        remote: chosen.remote,
        remoteError: loads.find((l) => l.remoteError)?.remoteError ?? null,
        firstRenderMs: median(loads.map((l) => l.firstRenderMs)),
        interactiveMs: median(loads.map((l) => l.interactiveMs)),
        requests: median(loads.map((l) => l.requests)),
        jsFiles: median(loads.map((l) => l.jsFiles)),
        bytes: Object.fromEntries(
          [...GROUPS, 'other', 'total'].map((g) => [
            g,
            { gzip: median(loads.map((l) => l.bytes[g].gzip)), brotli: median(loads.map((l) => l.bytes[g].brotli)), raw: median(loads.map((l) => l.bytes[g].raw)) },
          ]),
        ),
        variesBetweenRuns: {
          requests: varies((l) => l.requests),
          jsFiles: varies((l) =>
            l.files
              .map((f) => f.url)
              .sort()
              .join(),
          ),
        },
        medianRun: chosen,
        runs: loads.map(({ files, ...rest }) => ({ ...rest, files: files.map((f) => f.url) })),
      };
      results.push(summary);
      log(
        `  ${padEnd(page, 46)} first render ${pad(summary.firstRenderMs, 5)} ms, interactive ${pad(summary.interactiveMs, 5)} ms, ${summary.requests} requests, ${kb(summary.bytes.total.gzip)} KB JS gzip` +
          (summary.remoteError ? `  ✖ the ${summary.remoteError} remote failed to load` : ''),
      );
    }
  } finally {
    await browser.close();
  }
  return { results, chromiumVersion };
}

// ───────────────────────────── Lighthouse ─────────────────────────────

/**
 * Lighthouse for one URL, one retry: Lighthouse now and then fails to record a trace (NO_NAVSTART,
 * NO_FCP) on a busy machine. Returns the result, or the error's message.
 */
async function lighthouseOnce(url, label, options) {
  let error = null;
  for (let attempt = 1; attempt <= 2; attempt++) {
    throwIfStopped();
    const started = Date.now();
    try {
      const lhr = await runLighthouse(url, options);
      const m = metricsOf(lhr);
      log(`  ${label}: performance ${m.performance}, TBT ${Math.round(m.tbtMs)} ms, LCP ${seconds(m.lcpMs)} s (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      return { lhr, retried: attempt > 1 };
    } catch (caught) {
      if (stopSwitch.stopped) throw new Stopped();
      error = caught instanceof Error ? caught.message : String(caught);
      log(`  ${label}: ✖ ${error.split('\n')[0]}${attempt === 1 ? ' (retrying)' : ''}`);
    }
  }
  return { error };
}

const medianOf = (metrics) => Object.fromEntries(Object.keys(metrics[0]).map((key) => [key, median(metrics.map((m) => m[key]))]));

/**
 * Each page `runs` times, and as often its document alone (every .js file blocked), each run of
 * the page followed by one of its document, so a change in the machine's load reaches both.
 */
async function measureLighthouse(baseUrl, runs, blockExternal, cookieOf, cpuSlowdownMultiplier, documentAlone, throttlingMethod) {
  const results = [];
  for (const page of PAGES) {
    const url = new URL(page, baseUrl).href;
    const options = { blockExternal, cookie: cookieOf(page), cpuSlowdownMultiplier, throttlingMethod };
    const lhrs = [];
    const documentMetrics = [];
    let error = null;
    let retries = 0;
    for (let run = 0; run < runs; run++) {
      const measured = await lighthouseOnce(url, `${padEnd(page, 46)} run ${run + 1}/${runs}`, options);
      if (measured.lhr) lhrs.push(measured.lhr);
      else error = measured.error;
      if (measured.retried || measured.error) retries += 1;
      if (!documentAlone) continue;
      const alone = await lighthouseOnce(url, `${padEnd('', 46)} its document alone`, { ...options, withoutScripts: true });
      if (alone.lhr) documentMetrics.push(metricsOf(alone.lhr));
    }
    if (!lhrs.length) {
      results.push({ page, error });
      continue;
    }
    const metrics = lhrs.map(metricsOf);
    // Diagnostics come from the run closest to the median: median score, then median LCP.
    const representative = medianBy(
      lhrs.map((lhr, i) => ({ lhr, m: metrics[i] })),
      ({ m }) => (m.performance ?? 0) * 1e6 + (m.lcpMs ?? 0),
    );
    results.push({
      page,
      runs: metrics,
      failedRuns: runs - lhrs.length,
      retries,
      median: medianOf(metrics),
      documentAlone: documentMetrics.length ? { runs: documentMetrics, median: medianOf(documentMetrics) } : null,
      diagnostics: diagnosticsOf(representative.lhr),
    });
  }
  return results;
}

// ───────────────────────────── report ─────────────────────────────

function printFirstRenderTable(results, runs) {
  log('');
  log(`JavaScript and requests before the page is interactive — median of ${runs} cold load${runs > 1 ? 's' : ''} per page (KB = 1,024 bytes)`);
  log('');
  const W = 46;
  const cols = (values) => values.map((v) => pad(v, 7)).join('');
  const groupHead = `${' '.repeat(W)} ${pad('', 7)} ${pad('', 8)} ${pad('', 5)} ${pad('', 4)}   ${padEnd('JS gzip, KB', 28)}   ${padEnd('JS brotli, KB', 28)}`;
  const head = `${padEnd('page', W)} ${pad('render', 7)} ${pad('ready', 8)} ${pad('reqs', 5)} ${pad('JS', 4)}   ${cols(['shell', 'shared', 'remote', 'total'])}   ${cols(['shell', 'shared', 'remote', 'total'])}`;
  log(groupHead);
  log(head);
  log('─'.repeat(head.length));
  for (const r of results) {
    if (r.error) {
      log(`${padEnd(r.page, W)} ✖ not measured: ${r.error.split('\n')[0]}`);
      continue;
    }
    const b = r.bytes;
    const mark = r.variesBetweenRuns.requests || r.variesBetweenRuns.jsFiles ? '~' : ' ';
    log(
      `${padEnd(r.page, W)} ${pad(`${r.firstRenderMs} ms`, 7)} ${pad(`${r.interactiveMs} ms`, 8)} ${pad(r.requests, 4)}${mark} ${pad(r.jsFiles, 4)}   ${cols([b.shell.gzip, b.shared.gzip, b.remote.gzip, b.total.gzip].map(kb))}   ${cols([b.shell.brotli, b.shared.brotli, b.remote.brotli, b.total.brotli].map(kb))}` +
        (r.remoteError ? `  ✖ ${r.remoteError} remote failed: error page measured` : ''),
    );
    if (b.other.gzip) log(`${padEnd('', 46)} + ${kb(b.other.gzip)} KB of JS not found in any dist folder (counted in total at its served size)`);
  }
  log('');
  log(`  render   time from navigation start until "${FIRST_RENDER_SELECTOR}" is in the page with a layout box (Playwright, Chromium, no throttling,`);
  log(`           ${MOBILE_DEVICE.viewport.width}×${MOBILE_DEVICE.viewport.height} mobile viewport, empty cache)`);
  log("  ready    time until the page is interactive: the shell marks it ready (data-page-ready) once the route's remote has hydrated or rendered;");
  log('           "before interactive" = response fully received by then');
  log('  reqs     every request received before the page was interactive, the document included (~ = differed between runs)');
  log("  JS       .js files received before the page was interactive, plus the remote's mf-manifest.json the federation runtime fetches to load it");
  log("  shell    the shell's own chunks: main.js (carrying the federation runtime) and shell chunks that are not shared libraries");
  log('  shared   chunks providing shared modules (listed under `shared` in mf-manifest.json, or holding only code of the shared packages and their dependencies)');
  log("  remote   the remote's remoteEntry.js, mf-manifest.json and its other non-shared chunks (exposed modules)");
  log('  sizes    the .gz/.br files the build wrote and the bff serves (compressed here, same settings, when a file was below the threshold)');
}

function printBreakdown(result) {
  if (!result || result.error) return;
  const files = [...result.medianRun.files].sort((a, b) => b.gzip - a.gzip);
  log('');
  log(`JS before ${result.page} is interactive, largest first (gzip KB / brotli KB, group, what the source map says it holds):`);
  for (const f of files) {
    log(`  ${padEnd(f.url, 58)} ${pad(kb(f.gzip), 6)} ${pad(kb(f.brotli), 6)}  ${padEnd(f.group, 6)}  ${f.contains.join(', ') || f.why}`);
  }
  const dup = result.medianRun.duplicatedModules;
  if (dup?.modules) {
    log(
      `  duplicated: ${dup.modules} modules are compiled into more than one of these files, ${kb(dup.extraChars)} KB of extra copies before compression ` +
        `(${dup.byPackage
          .slice(0, 4)
          .map((p) => `${p.name} ${kb(p.chars)} KB`)
          .join(', ')})`,
    );
  }
}

function printLighthouseTable(results, runs, version, calibration, throttlingMethod) {
  log('');
  log(
    `Lighthouse ${version}, mobile (${THROTTLING_WORDS[throttlingMethod]}, ${calibration.cpuSlowdown}× CPU slowdown: ${calibration.how}), median of ${runs} run${runs > 1 ? 's' : ''} per page`,
  );
  log('');
  const head = `${padEnd('page', 46)} ${pad('perf', 5)} ${pad('FCP', 7)} ${pad('LCP', 7)} ${pad('TBT', 7)} ${pad('SI', 7)} ${pad('CLS', 6)} ${pad('CPU idx', 8)}  ${padEnd('observed FCP/LCP', 17)} perf per run`;
  log(head);
  log('─'.repeat(head.length + 8));
  for (const r of results) {
    if (r.error) {
      log(`${padEnd(r.page, 46)} ✖ not measured: ${r.error.split('\n')[0]}`);
      continue;
    }
    const m = r.median;
    log(
      `${padEnd(r.page, 46)} ${pad(Math.round(m.performance), 5)} ${pad(`${seconds(m.fcpMs)} s`, 7)} ${pad(`${seconds(m.lcpMs)} s`, 7)} ${pad(`${Math.round(m.tbtMs)} ms`, 7)} ${pad(`${seconds(m.speedIndexMs)} s`, 7)} ${pad(m.cls.toFixed(3), 6)} ${pad(Math.round(m.benchmarkIndex ?? 0), 8)}  ${padEnd(`${seconds(m.observedFcpMs)} / ${seconds(m.observedLcpMs)} s`, 17)} ${r.runs.map((x) => x.performance).join(' ')}` +
        (r.failedRuns ? ` (${r.failedRuns} failed)` : ''),
    );
  }
  log('');
  if (throttlingMethod === 'devtools') log('  FCP…CLS  what Chromium measured here, its CPU and network slowed while the page loaded');
  else {
    log('  FCP…CLS  simulated mobile values. FCP is simulated from high-priority requests only, so on a page that paints nothing before');
    log('           its deferred JavaScript runs it comes out optimistic; "observed" is what Chromium measured here unthrottled');
  }
  log("  CPU idx  Lighthouse's benchmarkIndex for the run (median): its CPU probe; a busy machine lowers it and inflates TBT and LCP");
  printDocumentAlone(results);
  log('');
  log('Diagnostics of the median run:');
  for (const r of results) {
    if (r.error) continue;
    const d = r.diagnostics;
    log(`  ${r.page}`);
    if (d.lcpElement) log(`    LCP element   ${d.lcpElement.selector || d.lcpElement.snippet} "${d.lcpElement.label.replace(/\s+/g, ' ').slice(0, 60)}"`);
    const phases = Object.entries(d.lcpPhasesMs);
    if (phases.length) log(`    LCP phases    ${phases.map(([k, v]) => `${k} ${v} ms`).join(', ')}`);
    if (d.layoutShift && (r.median.cls ?? 0) >= 0.01)
      log(`    layout shift  ${d.layoutShift.selector} "${d.layoutShift.label}" (${(d.layoutShift.score ?? 0).toFixed(3)} of CLS ${r.median.cls.toFixed(3)})`);
    for (const o of d.opportunities.slice(0, 3)) {
      const first = o.items[0];
      const top = first?.url
        ? ` (mostly ${new URL(first.url).pathname})`
        : first?.source
          ? ` (${o.items
              .map((i) => i.source)
              .filter(Boolean)
              .slice(0, 3)
              .join(', ')})`
          : '';
      log(`    opportunity   ${o.title}: ${[o.savingsMs ? `${o.savingsMs} ms` : '', o.savingsBytes ? `${kb(o.savingsBytes)} KB` : ''].filter(Boolean).join(', ')}${top}`);
    }
    const insights = d.insights.filter((i) => !d.opportunities.some((o) => o.title === i.title));
    if (insights.length) log(`    insights      ${insights.map((i) => `${i.title}${i.displayValue ? ` (${i.displayValue})` : ''}`).join('; ')}`);
    if (d.bootupScripts.length)
      log(
        `    JS boot-up    ${d.bootupScripts
          .slice(0, 3)
          .map((s) => `${s.url.startsWith('http') ? new URL(s.url).pathname : s.url} ${s.totalMs} ms`)
          .join(', ')}`,
      );
    if (d.externalRequests.length) log(`    ✖ external requests: ${d.externalRequests.slice(0, 5).join(', ')}`);
    if (d.runWarnings.length) log(`    warnings      ${d.runWarnings.join(' | ')}`);
  }
}

/**
 * What each page's HTML and CSS cost without any of its JavaScript (every .js file blocked; the
 * inline scripts stay): the least TBT and the most score the page can reach on this machine
 * whatever its scripts do, and so how much of its TBT they are.
 */
function printDocumentAlone(results) {
  const measured = results.filter((r) => r.documentAlone);
  if (!measured.length) return;
  log('');
  log('The document alone (the same runs with every .js file blocked: its HTML and CSS, parsed, laid out and painted), median:');
  log('');
  const head = `${padEnd('page', 46)} ${pad('perf', 5)} ${pad('LCP', 7)} ${pad('TBT', 7)}   ${padEnd('TBT of its scripts', 19)} perf per run`;
  log(head);
  log('─'.repeat(head.length + 8));
  for (const r of measured) {
    const alone = r.documentAlone.median;
    log(
      `${padEnd(r.page, 46)} ${pad(Math.round(alone.performance), 5)} ${pad(`${seconds(alone.lcpMs)} s`, 7)} ${pad(`${Math.round(alone.tbtMs)} ms`, 7)}   ${padEnd(`${Math.round(r.median.tbtMs - alone.tbtMs)} ms`, 19)} ${r.documentAlone.runs.map((x) => x.performance).join(' ')}`,
    );
  }
  log('');
  log("  TBT of its scripts  the page's median TBT less its document's: what its JavaScript adds");
}

/** One row per page and goal: its value, the goal, PASS or MISS with the gap, or n/a when not measured. */
function evaluateTargets(firstRender, lighthouse) {
  const rows = [];
  const add = (page, label, limitText, value, display, met, gap, invalid) => {
    let status = 'n/a';
    if (value != null) status = met ? 'PASS' : `MISS by ${gap}`;
    if (invalid && value != null) status += ` (invalid: ${invalid})`;
    rows.push({ page, label, target: limitText, value, display: value == null ? '—' : display, status });
  };
  for (const page of PAGES) {
    const load = firstRender.find((r) => r.page === page);
    const lh = lighthouse?.find((r) => r.page === page);
    const invalid = load && !load.error && load.remoteError ? `the ${load.remoteError} remote's error page was measured` : null;
    const js = load && !load.error ? load.bytes.total.gzip : null;
    if (page === '/')
      add(page, 'JS before interactive (gzip)', `≤ ${HOME_JS_GZIP_LIMIT / KB} KB`, js, `${kb(js ?? 0)} KB`, js <= HOME_JS_GZIP_LIMIT, `${kb(js - HOME_JS_GZIP_LIMIT)} KB`, invalid);
    else rows.push({ page, label: 'JS before interactive (gzip)', target: '(no goal)', value: js, display: js == null ? '—' : `${kb(js)} KB`, status: '' });
    const m = lh && !lh.error ? lh.median : null;
    const alone = lh?.documentAlone?.median;
    const goals = GOALS;
    add(
      page,
      'Lighthouse mobile performance',
      `≥ ${goals.performance}`,
      m?.performance ?? null,
      String(Math.round(m?.performance ?? 0)),
      m?.performance >= goals.performance,
      `${Math.round(goals.performance - (m?.performance ?? 0))} points`,
      invalid,
    );
    if (alone) rows.at(-1).documentAlone = String(Math.round(alone.performance));
    if (goals.lcpMs != null)
      add(
        page,
        'Largest Contentful Paint',
        `≤ ${seconds(goals.lcpMs)} s`,
        m?.lcpMs ?? null,
        `${seconds(m?.lcpMs ?? 0)} s`,
        m?.lcpMs <= goals.lcpMs,
        `${seconds((m?.lcpMs ?? 0) - goals.lcpMs)} s`,
        invalid,
      );
    add(
      page,
      'Total Blocking Time',
      `≤ ${TBT_LIMIT_MS} ms`,
      m?.tbtMs ?? null,
      `${Math.round(m?.tbtMs ?? 0)} ms`,
      m?.tbtMs <= TBT_LIMIT_MS,
      `${Math.round((m?.tbtMs ?? 0) - TBT_LIMIT_MS)} ms`,
      invalid,
    );
    if (alone) rows.at(-1).documentAlone = `${Math.round(alone.tbtMs)} ms`;
    add(page, 'Cumulative Layout Shift', '0', m?.cls ?? null, (m?.cls ?? 0).toFixed(3), m?.cls < 0.001, (m?.cls ?? 0).toFixed(3), invalid);
  }
  return rows;
}

/** Server-Timing `render;dur=…, render-cpu;dur=…` of one uncached render, or null for a page rendered in the browser. */
function renderTiming(header) {
  const wall = /(?:^|,)\s*render;dur=([\d.]+)/.exec(header ?? '');
  const cpu = /render-cpu;dur=([\d.]+)/.exec(header ?? '');
  return wall && cpu ? { ms: Number(wall[1]), cpuMs: Number(cpu[1]) } : null;
}

/**
 * What the bff spends rendering each page on the server: up to RENDERS uncached renders per
 * page, one after another, wall and CPU ms from the Server-Timing header, p50 and p95. A render
 * is a request like any other for the bff's throughput. An account page is rendered for the
 * benchmark's signed-in account (never cached): the session and the page's answers are part of
 * its cost. A public page is answered from the bff's page cache once the first-render loads
 * above have rendered it (the cache ignores query parameters its route does not declare), and is
 * reported as such.
 */
async function measureServerRender(baseUrl, cookieOf) {
  const RENDERS = 20;
  const results = [];
  for (const page of PAGES) {
    const timings = [];
    let cached = false;
    for (let index = 0; index <= RENDERS; index += 1) {
      const url = new URL(page, baseUrl);
      url.searchParams.set('bench-render', `${Date.now()}-${index}`);
      const cookie = cookieOf(page);
      const response = await fetch(url, { headers: { 'accept-encoding': 'identity', ...(cookie ? { cookie } : {}) } });
      await response.arrayBuffer();
      const header = response.headers.get('server-timing');
      const timing = renderTiming(header);
      if (!timing) {
        // The bff keys its page cache by the query parameters a route declares, not by any: the
        // benchmark's own parameter no longer forces an uncached render of a public page.
        if (/render;desc="cached"/.test(header ?? '')) cached = true;
        break;
      }
      if (index > 0) timings.push(timing); // the first warms the page's code up
    }
    if (timings.length === 0) {
      results.push({ page, serverRendered: cached, cached });
      continue;
    }
    const sorted = (key) => timings.map((t) => t[key]).sort((a, b) => a - b);
    const at = (values, fraction) => values[Math.min(values.length - 1, Math.floor(values.length * fraction))];
    const ms = sorted('ms');
    const cpu = sorted('cpuMs');
    results.push({ page, serverRendered: true, renders: timings.length, p50Ms: at(ms, 0.5), p95Ms: at(ms, 0.95), cpuP50Ms: at(cpu, 0.5), cpuP95Ms: at(cpu, 0.95) });
  }
  return results;
}

function printServerRenderTable(results) {
  log('');
  log('Server rendering in the bff: uncached renders, one at a time (Server-Timing), ms');
  log(`${padEnd('page', 46)} ${pad('wall p50', 9)} ${pad('p95', 7)} ${pad('CPU p50', 9)} ${pad('p95', 7)}`);
  for (const r of results) {
    if (r.cached) log(`${padEnd(r.page, 46)} answered from the bff's page cache: no uncached render to time`);
    else if (!r.serverRendered) log(`${padEnd(r.page, 46)} not rendered on the server (no Server-Timing: the render failed or timed out)`);
    else log(`${padEnd(r.page, 46)} ${pad(r.p50Ms.toFixed(1), 9)} ${pad(r.p95Ms.toFixed(1), 7)} ${pad(r.cpuP50Ms.toFixed(1), 9)} ${pad(r.cpuP95Ms.toFixed(1), 7)}`);
  }
}

// ───────────────────────────── main ─────────────────────────────

async function main() {
  const options = parseOptions();
  const started = Date.now();
  const loadAtStart = os.loadavg();
  const external = process.env.BENCH_URL?.trim();

  if (!external) {
    const missing = missingBuildFiles(ROOT);
    if (options.build || missing.length) {
      log(options.build ? '▶ building the front ends (--build)' : `▶ no complete production build (missing ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}): building`);
      await runNode([path.join(ROOT, 'scripts', 'build.mjs')], { NODE_ENV: 'production' });
      const still = missingBuildFiles(ROOT);
      if (still.length) throw new Error(`the build did not produce ${still.join(', ')}`);
    }
  }
  for (const s of staleBuilds(ROOT)) {
    log(`⚠ ${s.app}/dist was built ${s.builtAt.toISOString()}, before ${s.newer} changed (${s.changedAt.toISOString()}): measuring the old build (--build rebuilds first)`);
  }

  let catalog;
  let baseUrl = external;
  let blockExternal = true;
  const fingerprint = buildFingerprint(ROOT);
  if (external) {
    baseUrl = new URL(external).href;
    blockExternal = ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(baseUrl).hostname);
    catalog = loadCatalog(ROOT);
    log(`▶ measuring ${baseUrl} (BENCH_URL); sizes and groups come from the build in ${ROOT}, which must be the one it serves`);
  } else {
    // The bff serves a copy, so a rebuild during the run cannot mix two builds into the figures.
    const snapshot = snapshotBuild(ROOT);
    cleanups.push(snapshot.remove);
    lastResorts.push(snapshot.remove);
    catalog = loadCatalog(ROOT, { distRoot: snapshot.dir });
    log(`▶ starting the bff on a free loopback port, serving a copy of the build (${snapshot.dir})`);
    const bff = await startBff(ROOT, { rootDir: snapshot.dir });
    cleanups.push(bff.stop);
    lastResorts.push(bff.killNow);
    baseUrl = bff.url;
    log(`  ${baseUrl} is up`);
  }

  // The account pages are measured signed in: without a session they send the visitor to sign in.
  // A site without the development outbox (production, BENCH_URL) has its account pages measured
  // signed out, which the report says.
  let accountCookie;
  try {
    accountCookie = await signedInCookieHeader(baseUrl);
    log('  signed up and signed in an account for the account pages');
  } catch (error) {
    log(`⚠ the account pages are measured signed out (their sign-in page): no account could be made (${error instanceof Error ? error.message.split('\n')[0] : error})`);
  }
  const cookieOf = (page) => (page.startsWith('/account') ? accountCookie : undefined);

  log(`\n▶ first render and interactive: ${options.runs} cold load${options.runs > 1 ? 's' : ''} per page in Chromium (Playwright)`);
  const { results: firstRender, chromiumVersion } = await measureFirstRender(baseUrl, catalog, options.runs, blockExternal, cookieOf);

  log('\n▶ server rendering: uncached renders per page');
  const serverRender = await measureServerRender(baseUrl, cookieOf);

  let lighthouse = null;
  let lhVersion = null;
  let calibration = null;
  if (options.lighthouse) {
    lhVersion = await lighthouseVersion();
    log(`\n▶ Lighthouse ${lhVersion}: ${options.runs} run${options.runs > 1 ? 's' : ''} per page (mobile, ${THROTTLING_WORDS[options.throttlingMethod]})`);
    if (options.cpuSlowdown) {
      calibration = { cpuSlowdown: options.cpuSlowdown, how: 'set with --cpu-slowdown' };
    } else {
      log(`  calibrating: ${CALIBRATION_PROBES} runs of / for this host's CPU index`);
      const measured = await calibrateCpu(baseUrl, { blockExternal, log });
      calibration = {
        ...measured,
        how: `${REFERENCE_CPU.slowdown} × CPU index ${Math.round(measured.benchmarkIndex)} / ${REFERENCE_CPU.benchmarkIndex}, the phone of a host of index ${REFERENCE_CPU.benchmarkIndex} at ${REFERENCE_CPU.slowdown}×`,
      };
    }
    log(`  CPU slowdown ${calibration.cpuSlowdown}× (${calibration.how}${calibration.probes ? `; probes ${calibration.probes.join(', ')}` : ''})`);
    lighthouse = await measureLighthouse(baseUrl, options.runs, blockExternal, cookieOf, calibration.cpuSlowdown, options.documentAlone, options.throttlingMethod);
  }

  await cleanUp();
  const rebuiltDuringRun = buildFingerprint(ROOT) !== fingerprint;
  const loadAtEnd = os.loadavg();

  printFirstRenderTable(firstRender, options.runs);
  printBreakdown(firstRender.find((r) => r.page === '/'));
  printServerRenderTable(serverRender);
  if (lighthouse) printLighthouseTable(lighthouse, options.runs, lhVersion, calibration, options.throttlingMethod);

  const targets = evaluateTargets(firstRender, lighthouse);
  log('');
  log(`Goals (reported, not enforced${calibration ? `; Lighthouse at ${calibration.cpuSlowdown}× CPU slowdown` : ''}):`);
  for (const t of targets)
    log(`  ${padEnd(t.page, 46)} ${padEnd(t.label, 30)} ${padEnd(t.target, 9)} ${pad(t.display, 9)}  ${t.status}${t.documentAlone ? ` (the document alone: ${t.documentAlone})` : ''}`);

  const problems = [
    ...firstRender.filter((r) => r.error).map((r) => `${r.page}: ${r.error}`),
    ...firstRender.filter((r) => r.remoteError).map((r) => `${r.page}: the ${r.remoteError} remote failed to load, its error page was measured`),
    ...(lighthouse ?? []).filter((r) => r.error).map((r) => `${r.page} (Lighthouse): ${r.error}`),
  ];
  const externalSeen = [
    ...new Set([...firstRender.flatMap((r) => r.runs?.flatMap((run) => run.externalRequests) ?? []), ...(lighthouse ?? []).flatMap((r) => r.diagnostics?.externalRequests ?? [])]),
  ];
  const busiest = Math.max(loadAtStart[0], loadAtEnd[0], loadAtEnd[1]);
  if (busiest > os.cpus().length) {
    log(
      `\n⚠ the machine was busy (load average ${loadAtStart[0].toFixed(1)} at the start, ${loadAtEnd[1].toFixed(1)} over the last 5 min, ${os.cpus().length} CPUs): ` +
        'timings (render, TBT, LCP, score) are pessimistic; byte and request figures are not affected',
    );
  }
  if (rebuiltDuringRun) {
    log(
      external
        ? '\n⚠ the build on disk changed while the benchmark ran: sizes and groups may not match what was served'
        : '\n(the build on disk changed while the benchmark ran; the figures are for the copy taken at the start)',
    );
  }
  const runIndexes = (lighthouse ?? []).flatMap((r) => r.runs?.map((m) => m.benchmarkIndex) ?? []);
  if (calibration?.benchmarkIndex && runIndexes.length) {
    const during = median(runIndexes);
    if (Math.abs(during - calibration.benchmarkIndex) > calibration.benchmarkIndex / 4)
      log(
        `\n⚠ the CPU index moved from ${Math.round(calibration.benchmarkIndex)} (calibration) to ${Math.round(during)} (median of the runs): the machine's load changed, so the simulated phone did too`,
      );
  }
  if (externalSeen.length) log(`\n⚠ requests to other hosts were attempted (and blocked): ${externalSeen.slice(0, 5).join(', ')}`);

  const elapsed = (Date.now() - started) / 1000;
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify(
      {
        generatedAt: new Date().toISOString(),
        url: baseUrl,
        servedBy: external ? 'BENCH_URL' : 'bff started by the benchmark',
        runs: options.runs,
        elapsedSeconds: Math.round(elapsed),
        machine: {
          node: process.version,
          cpus: os.cpus().length,
          loadAverageAtStart: loadAtStart.map((v) => Number(v.toFixed(2))),
          loadAverageAtEnd: loadAtEnd.map((v) => Number(v.toFixed(2))),
          chromium: chromiumVersion,
          lighthouse: lhVersion,
        },
        definitions: {
          firstRender: `navigation start → "${FIRST_RENDER_SELECTOR}" in the DOM with a layout box (MutationObserver), Chromium via Playwright, ${MOBILE_DEVICE.viewport.width}x${MOBILE_DEVICE.viewport.height} mobile viewport, no throttling, empty cache`,
          interactive: 'navigation start → <html data-page-ready="true"> (MutationObserver): the shell marks the page ready once its remote hydrated or rendered',
          beforeInteractive: 'Resource Timing responseEnd ≤ interactive; the document counts as one request',
          js: '.js responses plus remote mf-manifest.json',
          groups: {
            shell: 'main.js and shell chunks that are not shared libraries',
            shared: 'chunks providing shared modules (mf-manifest.json `shared`, or code only from shared packages and their dependencies)',
            remote: "remote's remoteEntry.js, mf-manifest.json and non-shared chunks",
          },
          sizes: 'bytes of the .gz/.br siblings on disk (in-memory compression with the same settings when absent); KB = 1024 bytes',
          lighthouse: `default config: mobile form factor, ${THROTTLING_WORDS[options.throttlingMethod]} with the calibrated CPU slowdown; performance category only; median per metric, diagnostics from the median run`,
          documentAlone: 'the same Lighthouse runs with every .js file blocked (blockedUrlPatterns *.js): what the HTML and CSS cost alone',
        },
        buildChangedDuringRun: rebuiltDuringRun,
        targets,
        firstRender,
        serverRender,
        calibration,
        lighthouse,
        problems,
      },
      null,
      2,
    )}\n`,
  );
  log(`\nwrote ${path.relative(ROOT, RESULTS_FILE)} · took ${elapsed.toFixed(0)} s`);
  if (problems.length) {
    log('\n✖ some figures could not be measured:');
    for (const p of problems) log(`  ${p}`);
    process.exitCode = 1;
  }
}

main()
  .catch(async (error) => {
    if (stopSwitch.stopped || error instanceof Stopped) return;
    process.stderr.write(`\n✖ bench:web failed: ${error instanceof Error ? error.message : error}\n`);
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
