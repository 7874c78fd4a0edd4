import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { createVerifiedAccount, signInByApi } from '../support/account';
import { expect, tempRoot, test, untilPageReady } from '../support/test';

/**
 * Issue 34: while a server-rendered page goes live, no script of the site makes the browser lay the
 * page out (reading `scrollY`, a size or a computed style after React changed the DOM). Such a read
 * runs the layout inside hydration's long task; in an animation frame the browser lays the page out
 * anyway, so a read there costs nothing (useScrollListener in shell/src/layout/useScrollY.ts).
 * Chromium's trace marks a forced layout with the script's stack; the build's source maps name
 * the source file.
 */

test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

/** The pages `bench:web` measures, and one more of each remote's kinds of page. */
const PUBLIC_PAGES = ['/', '/products/digicert-verified-mark-certificate', '/products/government-mark-certificate', '/checkout', '/bimi-checker', '/dmarc-checker', '/faq'];
const ACCOUNT_PAGES = ['/account/dashboard', '/account/orders', '/account/settings'];

/**
 * Library components whose measuring on mount is what they are for: MUI's scrollable tabs measure
 * the scrollbar (the orders page's filters at phone width).
 */
const MEASURING_ON_MOUNT = [/\/@mui\/material\/Tabs\//];

const sourceMaps = new Map<string, TraceMap>();

/** `/mfe/account/7672.js` line and column (1-based, as the trace gives them) → the source file the build made it from. */
function sourceOf(path: string, line: number, column: number): string {
  const [, remote, file] = /^\/mfe\/([^/]+)\/([^?]+)/.exec(path) ?? [];
  if (!remote || !file) return path;
  const mapFile = join(tempRoot(), remote === 'shell' ? 'shell' : `mfe-${remote}`, 'dist', `${file}.map`);
  let map = sourceMaps.get(mapFile);
  if (!map) sourceMaps.set(mapFile, (map = new TraceMap(readFileSync(mapFile, 'utf8'))));
  const source = originalPositionFor(map, { line, column: column - 1 }).source ?? path;
  return source.replace(/^.*\/node_modules\//, 'node_modules/').replace(/^webpack:\/\/[^/]+\//, '');
}

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, { url?: string; stackTrace?: { url: string; functionName: string; lineNumber: number; columnNumber: number }[] }>;
};

/** Layouts and style recalculations a script of `origin` forced on the page's main thread, outside an animation frame. */
function forcedLayouts(events: TraceEvent[], origin: string): string[] {
  const parse = events.find((event) => event.name === 'ParseHTML' && String(event.args?.beginData?.url ?? '').startsWith(origin));
  if (!parse) throw new Error('the trace has no parse of the page');
  const onMain = events.filter((event) => event.pid === parse.pid && event.tid === parse.tid && event.ph === 'X');
  const frames = onMain.filter((event) => event.name === 'FireAnimationFrame');
  const inFrame = (event: TraceEvent) => frames.some((frame) => frame.ts <= event.ts && event.ts <= frame.ts + (frame.dur ?? 0));
  return onMain
    .filter((event) => event.name === 'Layout' || event.name === 'UpdateLayoutTree')
    .flatMap((event) => {
      const stack = event.args?.beginData?.stackTrace ?? event.args?.data?.stackTrace;
      const top = stack?.find((frame) => frame.url.startsWith(origin));
      if (!top || inFrame(event)) return [];
      const source = sourceOf(new URL(top.url).pathname, top.lineNumber, top.columnNumber);
      if (MEASURING_ON_MOUNT.some((allowed) => allowed.test(source))) return [];
      return [`${event.name} from ${top.functionName || '(anonymous)'} in ${source}`];
    });
}

async function layoutsForcedGoingLive(browser: Browser, page: Page, path: string): Promise<string[]> {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.stack'] });
  try {
    await page.goto(path);
    await untilPageReady(page);
    // The effects and frames right after the page went live.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
  } catch (error) {
    await browser.stopTracing();
    throw error;
  }
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  return forcedLayouts(trace.traceEvents, new URL(page.url()).origin);
}

for (const path of PUBLIC_PAGES) {
  test(`${path} goes live without a layout forced by the site's scripts`, async ({ browser, page }) => {
    expect(await layoutsForcedGoingLive(browser, page, path)).toEqual([]);
  });
}

test("the account's pages at phone width go live without a layout forced by the site's scripts", async ({ browser, page }) => {
  await signInByApi(page, await createVerifiedAccount(page));
  for (const path of ACCOUNT_PAGES) expect(await layoutsForcedGoingLive(browser, page, path), path).toEqual([]);
});
