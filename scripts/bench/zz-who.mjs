import { chromium } from '/work/main/node_modules/.pnpm/node_modules/playwright-core/index.mjs';
import { createRequire } from 'node:module';
import { readFileSync, existsSync } from 'node:fs';
import { signedInCookieHeader } from './account.mjs';
const require = createRequire(import.meta.url);
const { SourceMapConsumer } = require('/work/main/node_modules/.pnpm/source-map@0.6.1/node_modules/source-map');
const BASE = process.env.BASE ?? 'http://127.0.0.1:3300';
const maps = new Map();
function where(f) {
  if (!f.url?.startsWith(BASE)) return `${f.functionName || '(anon)'} ${f.url?.split('/').pop() ?? ''}`;
  const u = new URL(f.url); const m = /^\/mfe\/([a-z]+)\/(.*)$/.exec(u.pathname);
  const file = m[1] === 'shell' ? `/work/main/shell/dist/${m[2]}` : `/work/main/mfe-${m[1]}/dist/${m[2]}`;
  if (!maps.has(file)) maps.set(file, existsSync(file + '.map') ? new SourceMapConsumer(JSON.parse(readFileSync(file + '.map', 'utf8'))) : null);
  const pos = maps.get(file)?.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber });
  return pos?.source ? `${pos.source.replace(/.*node_modules\//, '').replace(/^webpack:\/\/[^/]*\//, '')}:${pos.line}` : `${f.functionName} ${m[2]}`;
}
const page = process.argv[2] ?? '/account/dashboard'; const WHO = process.argv[3] ?? 'appendChild';
const cookie = page.startsWith('/account') ? await signedInCookieHeader(BASE) : undefined;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const agg = new Map();
for (let run = 0; run < 3; run++) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
  if (cookie) await context.addCookies(cookie.split('; ').map((pair) => ({ name: pair.split('=')[0], value: pair.slice(pair.indexOf('=') + 1), url: BASE })));
  const p = await context.newPage(); const cdp = await context.newCDPSession(p);
  await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 }); await cdp.send('Profiler.start');
  await p.goto(BASE + page); await p.waitForSelector('[data-page-ready]', { state: 'attached' }); await p.waitForTimeout(1500);
  const { profile } = await cdp.send('Profiler.stop');
  const dt = new Map(); for (let i = 0; i < profile.samples.length; i++) dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const parent = new Map(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
  for (const n of profile.nodes) {
    if (n.callFrame.functionName !== WHO || !dt.get(n.id)) continue;
    const chain = []; let q = parent.get(n.id); while (q && chain.length < 4) { chain.push(where(q.callFrame)); q = parent.get(q.id); }
    const k = chain.join(' <- '); agg.set(k, (agg.get(k) ?? 0) + dt.get(n.id) / 1000);
  }
  await context.close();
}
for (const [k, v] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log((v / 3).toFixed(1).padStart(6), k);
await browser.close();
