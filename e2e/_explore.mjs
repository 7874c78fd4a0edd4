import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run'] });
const page = await browser.newPage();
page.on('console', m => console.log('console:', m.type(), m.text()));
page.on('request', r => { if (!r.url().includes('/mfe/')) console.log('req', r.method(), r.resourceType(), r.url()); });
await page.goto('http://127.0.0.1:3199/');
await page.locator('[data-remote=storefront] h1').waitFor();
const share = await page.evaluate(() => {
  const F = window.__FEDERATION__;
  const out = { keys: Object.keys(F), instances: F.__INSTANCES__.map(i => ({name: i.name, keys: Object.keys(i)})) };
  out.share = {};
  for (const [scopeKey, scope] of Object.entries(F.__SHARE__)) {
    out.share[scopeKey] = {};
    for (const [sk, pkgs] of Object.entries(scope)) {
      out.share[scopeKey][sk] = {};
      for (const [pkg, versions] of Object.entries(pkgs)) {
        out.share[scopeKey][sk][pkg] = Object.fromEntries(Object.entries(versions).map(([v, s]) => [v, Object.fromEntries(Object.entries(s).filter(([k,x]) => typeof x !== 'function' && typeof x !== 'object' || k==='useIn' || k==='shareConfig' || k === 'loaded').map(([k,x]) => [k, k==='loaded'? x : x]))]));
      }
    }
  }
  return out;
});
console.log(JSON.stringify(share, null, 1));
await browser.close();
