import { chromium } from '/work/main/node_modules/.pnpm/node_modules/playwright-core/index.mjs';
const BASE = 'http://127.0.0.1:3300';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const p = await browser.newPage();
await p.goto(BASE + '/'); await p.waitForTimeout(2000);
const files = (await (await fetch(BASE + '/mfe/account/mf-manifest.json')).json());
const urls = [...new Set(files.exposes.flatMap((e) => [...e.assets.js.sync, ...e.assets.js.async]))].slice(0, 12).map((f) => `/mfe/account/${f}`);
console.log(await p.evaluate(async (urls) => {
  const out = [];
  // 1: preloaded then appended
  for (const [i, u] of urls.entries()) {
    const pre = i % 2 === 0;
    if (pre) { const l = document.createElement('link'); l.rel = 'preload'; l.as = 'script'; l.href = u + '?x=' + i; document.head.appendChild(l); await new Promise((r) => (l.onload = r)); }
    else { await fetch(u + '?x=' + i).then((r) => r.text()); }
    const s = document.createElement('script'); s.src = u + '?x=' + i;
    const t = performance.now(); document.head.appendChild(s); const d = performance.now() - t;
    await new Promise((r) => { s.onload = r; s.onerror = r; });
    out.push(`${pre ? 'preloaded' : 'fetched  '} ${d.toFixed(2)} ms ${u}`);
  }
  return out.join('\n');
}, urls));
await browser.close();
