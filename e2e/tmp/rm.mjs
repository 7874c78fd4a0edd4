import { chromium } from '@playwright/test';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage();
p.on('console', (m) => console.log('console', m.type(), m.text().slice(0, 300)));
await p.addInitScript(() => {
  document.addEventListener('DOMContentLoaded', () => {
    new MutationObserver((muts) => {
      for (const m of muts) for (const n of m.removedNodes) if (n.nodeType === 1 && n.tagName !== 'STYLE' && (n.textContent || '').length > 40) console.log('removed', n.tagName, (n.className || '').toString().slice(0, 40), 'from', m.target.tagName, (m.target.className || '').toString().slice(0, 40), JSON.stringify(n.textContent.slice(0, 50)), performance.now().toFixed(0));
    }).observe(document.body, { childList: true, subtree: true });
  });
});
await p.goto(process.argv[2]);
await p.waitForTimeout(3000);
await b.close();
