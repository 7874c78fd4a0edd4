// Lighthouse through its Node API: the default config (mobile form factor, simulated
// throttling: Lighthouse's standard "mobile" run), performance category only, one fresh
// headless Chromium per run, launched by chrome-launcher (Lighthouse's own dependency).
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { CHROMIUM_PATH, NO_EXTERNAL_NETWORK_ARGS } from './first-render.mjs';
import { median } from './median.mjs';
import { Stopped, stopSwitch, throwIfStopped } from './stop.mjs';

let modules;
async function load() {
  if (modules) return modules;
  const lighthouseUrl = import.meta.resolve('lighthouse');
  const { default: lighthouse } = await import(lighthouseUrl);
  // chrome-launcher is Lighthouse's dependency, not the workspace's: resolve it from there.
  const launcherPath = createRequire(lighthouseUrl).resolve('chrome-launcher');
  const chromeLauncher = await import(pathToFileURL(launcherPath).href);
  const { version } = createRequire(lighthouseUrl)('../package.json');
  modules = { lighthouse, chromeLauncher, version };
  return modules;
}

export async function lighthouseVersion() {
  return (await load()).version;
}

export const LIGHTHOUSE_CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Chromium instances still running, so an interrupted benchmark can stop them. */
export const runningChromes = new Set();

/** Last resort on exit: every Chromium this module started and did not stop yet, killed with its process group. */
export function killChromesNow() {
  for (const chrome of runningChromes) {
    const pid = chrome.process?.pid ?? chrome.pid;
    try {
      if (pid) process.kill(-pid, 'SIGKILL');
    } catch {}
  }
  runningChromes.clear();
}

/**
 * @param {string} url
 * @param {{ blockExternal: boolean, cookie?: string, cpuSlowdownMultiplier?: number, withoutScripts?: boolean, throttlingMethod?: 'simulate' | 'devtools' }} options cookie: a
 *   Cookie header for every request (a signed-in visit); cpuSlowdownMultiplier: the CPU slowdown (Lighthouse's mobile
 *   default: 4); withoutScripts: every .js file blocked, so the page is its document alone (what its HTML and CSS cost);
 *   throttlingMethod: 'simulate' (Lighthouse's default: a model of the slow phone run on an unthrottled load) or 'devtools'
 *   (Chromium's CPU and network slowed while the page loads, and what it observed reported)
 * @returns {Promise<import('lighthouse').Result>}
 */
export async function runLighthouse(url, { blockExternal, cookie, cpuSlowdownMultiplier, withoutScripts = false, throttlingMethod = 'simulate' }) {
  const { lighthouse, chromeLauncher } = await load();
  throwIfStopped();
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: [...LIGHTHOUSE_CHROME_FLAGS, ...(blockExternal ? NO_EXTERNAL_NETWORK_ARGS : [])],
    logLevel: 'silent',
    // Its own handler would exit the process before the benchmark stops the bff: ours kills Chromium.
    handleSIGINT: false,
  });
  runningChromes.add(chrome);
  try {
    throwIfStopped();
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      disableFullPageScreenshot: true,
      // A Cookie header on every request: a signed-in visit.
      ...(cookie ? { extraHeaders: { cookie } } : {}),
      // Merged into the mobile defaults' throttling (latency and bandwidth stay).
      ...(cpuSlowdownMultiplier ? { throttling: { cpuSlowdownMultiplier } } : {}),
      ...(withoutScripts ? { blockedUrlPatterns: ['*.js'] } : {}),
      throttlingMethod,
    });
    if (!result?.lhr) throw new Error(`Lighthouse returned no result for ${url}`);
    if (result.lhr.runtimeError) throw new Error(`Lighthouse: ${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
    return result.lhr;
  } finally {
    runningChromes.delete(chrome);
    try {
      await chrome.kill();
    } catch {}
  }
}

const num = (lhr, id) => lhr.audits[id]?.numericValue ?? null;

/** The figures this benchmark reports from one Lighthouse result. */
export function metricsOf(lhr) {
  const score = lhr.categories.performance?.score;
  return {
    performance: score == null ? null : Math.round(score * 100),
    fcpMs: num(lhr, 'first-contentful-paint'),
    lcpMs: num(lhr, 'largest-contentful-paint'),
    tbtMs: num(lhr, 'total-blocking-time'),
    speedIndexMs: num(lhr, 'speed-index'),
    cls: num(lhr, 'cumulative-layout-shift'),
    ttiMs: num(lhr, 'interactive'),
    // What Chromium saw on this machine without throttling (the simulation starts from these traces).
    observedFcpMs: lhr.audits.metrics?.details?.items?.[0]?.observedFirstContentfulPaint ?? null,
    observedLcpMs: lhr.audits.metrics?.details?.items?.[0]?.observedLargestContentfulPaint ?? null,
    // Lighthouse's own CPU speed probe for the run: lower means the machine was busier or slower.
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
  };
}

function nodeOf(details) {
  const tables = details?.type === 'list' ? details.items : [details];
  for (const table of tables ?? []) {
    for (const item of table?.items ?? []) {
      if (item?.node?.type === 'node') return item.node;
    }
  }
  return null;
}

/** What a reader needs to act on one run: LCP element and its phases, opportunities, heavy scripts. */
export function diagnosticsOf(lhr) {
  const audits = lhr.audits;
  const lcpAudit = audits['largest-contentful-paint-element'];
  const lcpNode = nodeOf(lcpAudit?.details);
  const phases = {};
  const lists = lcpAudit?.details?.type === 'list' ? lcpAudit.details.items : [];
  for (const table of lists) {
    for (const item of table?.items ?? []) {
      if (typeof item.phase === 'string' && typeof item.timing === 'number') phases[item.phase] = Math.round(item.timing);
    }
  }
  const insightPhases = audits['lcp-breakdown-insight']?.details;
  if (!Object.keys(phases).length && insightPhases?.type === 'list') {
    for (const table of insightPhases.items ?? []) {
      for (const item of table?.items ?? []) {
        const label = item.label ?? item.subpart ?? item.phase;
        if (typeof label === 'string' && typeof item.duration === 'number') phases[label] = Math.round(item.duration);
      }
    }
  }

  const opportunities = Object.values(audits)
    .filter((audit) => audit.details?.type === 'opportunity' && (audit.score ?? 1) < 1 && ((audit.details.overallSavingsMs ?? 0) > 0 || (audit.details.overallSavingsBytes ?? 0) > 0))
    .map((audit) => ({
      id: audit.id,
      title: audit.title,
      savingsMs: Math.round(audit.details.overallSavingsMs ?? 0),
      savingsBytes: Math.round(audit.details.overallSavingsBytes ?? 0),
      displayValue: audit.displayValue ?? '',
      items: (audit.details.items ?? []).slice(0, 5).map((item) => ({
        url: item.url ?? null,
        source: typeof item.source === 'string' ? item.source : null,
        wastedBytes: item.wastedBytes,
        wastedMs: item.wastedMs,
        totalBytes: item.totalBytes,
      })),
    }))
    .sort((a, b) => b.savingsMs - a.savingsMs || b.savingsBytes - a.savingsBytes);

  const insights = Object.values(audits)
    .filter((audit) => audit.id.endsWith('-insight') && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'notApplicable')
    .map((audit) => ({
      id: audit.id,
      title: audit.title,
      displayValue: audit.displayValue ?? '',
      lcpSavingsMs: audit.metricSavings?.LCP ?? null,
      fcpSavingsMs: audit.metricSavings?.FCP ?? null,
    }));

  const bootup = audits['bootup-time'];
  const scripts = (bootup?.details?.items ?? []).slice(0, 5).map((item) => ({ url: item.url, totalMs: Math.round(item.total ?? 0), scriptingMs: Math.round(item.scripting ?? 0) }));
  const mainThread = (audits['mainthread-work-breakdown']?.details?.items ?? []).slice(0, 4).map((item) => ({ group: item.groupLabel ?? item.group, ms: Math.round(item.duration ?? 0) }));

  // The element that moved most (CLS culprit).
  const shifts = (audits['layout-shifts']?.details?.items ?? []).filter((item) => item?.node?.type === 'node');
  const topShift = shifts.sort((a, b) => (b.score ?? 0) - (a.score ?? 0))[0];
  const layoutShift = topShift ? { selector: topShift.node.selector ?? '', label: (topShift.node.nodeLabel ?? '').replace(/\s+/g, ' ').slice(0, 60), score: topShift.score ?? null } : null;

  const requests = audits['network-requests']?.details?.items ?? [];
  const origin = new URL(lhr.finalDisplayedUrl ?? lhr.requestedUrl).origin;
  const external = requests.map((r) => r.url).filter((u) => u && !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:'));

  return {
    lcpElement: lcpNode ? { label: lcpNode.nodeLabel ?? '', selector: lcpNode.selector ?? '', snippet: lcpNode.snippet ?? '' } : null,
    lcpPhasesMs: phases,
    layoutShift,
    opportunities,
    insights,
    bootupScripts: scripts,
    mainThread,
    requestCount: requests.length,
    externalRequests: external,
    runWarnings: lhr.runWarnings ?? [],
    finalUrl: lhr.finalDisplayedUrl,
  };
}

/** The phone every host simulates: Lighthouse's 4× CPU slowdown on a host whose benchmarkIndex is 1,000. */
export const REFERENCE_CPU = { benchmarkIndex: 1000, slowdown: 4 };

/**
 * The CPU slowdown that makes this host simulate the reference phone: a host twice as fast as the
 * reference (index 2,000) is slowed 8×, the reference itself 4×, never less than 1×.
 * @param {number} benchmarkIndex Lighthouse's CPU probe of this host
 */
export function calibratedCpuSlowdown(benchmarkIndex) {
  const multiplier = (REFERENCE_CPU.slowdown * benchmarkIndex) / REFERENCE_CPU.benchmarkIndex;
  return Math.max(1, Math.round(multiplier * 10) / 10);
}

/** Lighthouse runs of `/` whose median benchmarkIndex calibrates the CPU slowdown. */
export const CALIBRATION_PROBES = 3;

/**
 * This host's CPU (median benchmarkIndex of a few default Lighthouse runs of `/`) and the slowdown
 * that simulates the reference phone on it. A probe that fails to record a trace (NO_NAVSTART, as a
 * page's run can) is left out, not fatal.
 * @param {string} baseUrl
 * @param {{ blockExternal: boolean, log: (message: string) => void }} options
 */
export async function calibrateCpu(baseUrl, { blockExternal, log }) {
  const indexes = [];
  let failure = null;
  for (let probe = 0; probe < CALIBRATION_PROBES; probe++) {
    throwIfStopped();
    try {
      const index = metricsOf(await runLighthouse(new URL('/', baseUrl).href, { blockExternal })).benchmarkIndex;
      if (index) indexes.push(index);
    } catch (caught) {
      if (stopSwitch.stopped) throw new Stopped();
      failure = caught instanceof Error ? caught.message : String(caught);
      log(`  calibration probe ${probe + 1}/${CALIBRATION_PROBES}: ✖ ${failure.split('\n')[0]}`);
    }
  }
  if (!indexes.length) throw new Error(`Lighthouse reported no benchmarkIndex${failure ? ` (${failure.split('\n')[0]})` : ''}: pass --cpu-slowdown`);
  const benchmarkIndex = median(indexes);
  return { benchmarkIndex, probes: indexes.map(Math.round), cpuSlowdown: calibratedCpuSlowdown(benchmarkIndex) };
}
