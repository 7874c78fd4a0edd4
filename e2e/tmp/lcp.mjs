import { chromium } from '@playwright/test';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 412, height: 823 } });
await p.addInitScript(() => {
  new PerformanceObserver((l) => { for (const e of l.getEntries()) console.log('lcp', e.startTime.toFixed(0), e.size, e.element && e.element.tagName, e.element && e.element.textContent.slice(0, 40)); }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) console.log('paint', e.name, e.startTime.toFixed(0)); }).observe({ type: 'paint', buffered: true });
});
p.on('console', (m) => console.log(m.text().slice(0, 200)));
const cdp = await p.context().newCDPSession(p);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await p.goto(process.argv[2]);
await p.waitForTimeout(5000);
await b.close();
