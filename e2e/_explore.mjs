import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const page = await browser.newPage();
page.on('console', m => console.log('console:', m.type(), m.text().slice(0,300)));
page.on('request', r => console.log('req', r.method(), r.resourceType(), r.url()));
await page.goto('http://127.0.0.1:3199/');
await page.waitForTimeout(3000);
const info = await page.evaluate(() => {
  const F = window.__FEDERATION__;
  return { keys: Object.keys(F), instances: F.__INSTANCES__.map(i => ({name: i.name, version: i.version, plugins: i.options.plugins.map(p => p.name), remotes: i.options.remotes })) , manifestLoading: Object.keys(F.__MANIFEST_LOADING__||{}), snapshot: Object.keys(F.__GLOBAL_LOADING_REMOTE_ENTRY__||{})};
});
console.log(JSON.stringify(info, null, 1));
await browser.close();
