import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PublicConfig } from '@bimi/contracts/public-config';
import { injectPageData, inlineScriptHashes } from '../src/plugins/app/pages/shell-page';
import { rootWithShellServerBuild, shellTemplate, startTestStore, type TestStore } from './fixtures';

/** The content security policy of a response, directive → sources. */
function policyOf(header: string | string[] | number | undefined): Map<string, string[]> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name = '', ...sources]) => [name, sources] as const),
  );
}

async function policyFor(env: NodeJS.ProcessEnv, url = '/faq'): Promise<Map<string, string[]>> {
  const store = await startTestStore(env);
  try {
    return policyOf((await store.app.inject({ url })).headers['content-security-policy']);
  } finally {
    await store.cleanUp();
  }
}

describe('security headers', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await startTestStore();
  });
  afterAll(() => store.cleanUp());

  it('allows only the site itself by default', async () => {
    const policy = policyOf((await store.app.inject({ url: '/faq' })).headers['content-security-policy']);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'https:']);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(policy.has('upgrade-insecure-requests')).toBe(false);
  });

  it('keeps the other helmet protections on', async () => {
    const response = await store.app.inject({ url: '/api/newsletter/subscribe?email=a@example.com&c=cb' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['cross-origin-embedder-policy']).toBeUndefined();
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('keeps other windows out of the pages that show an account, sign in or take payment, not out of public ones', async () => {
    for (const url of ['/account/monitors/example.com', '/auth/signin', '/checkout']) {
      expect({ url, policy: (await store.app.inject({ url })).headers['cross-origin-opener-policy'] }).toEqual({ url, policy: 'same-origin' });
    }
    for (const url of ['/', '/faq', '/landing/entrust-to-digicert', '/no-such-page', '/api/health']) {
      const headers = (await store.app.inject({ url })).headers;
      expect({ url, policy: headers['cross-origin-opener-policy'] }).toEqual({ url, policy: undefined });
    }
    // Chromium keys agent clusters by origin by default; the header would only ask for a process.
    expect((await store.app.inject({ url: '/account/monitors/example.com' })).headers['origin-agent-cluster']).toBeUndefined();
  });
});

describe('the content security policy follows the configuration', () => {
  it('adds the origins of remotes hosted elsewhere to script-src and connect-src', async () => {
    const policy = await policyFor({
      REMOTE_TOOLS_URL: 'https://cdn.example.net/tools/v7/',
      REMOTE_ACCOUNT_URL: 'https://cdn.example.net/account/v3/',
      REMOTE_CHECKOUT_URL: 'http://localhost:3102/',
    });
    expect(policy.get('script-src')).toEqual(["'self'", 'http://localhost:3102', 'https://cdn.example.net']);
    expect(policy.get('connect-src')).toEqual(["'self'", 'http://localhost:3102', 'https://cdn.example.net']);
    expect(policy.get('script-src')).not.toContain('https://www.googletagmanager.com');
  });

  it('adds an external newsletter provider to script-src only', async () => {
    const policy = await policyFor({ NEWSLETTER_URL: 'https://example.us1.list-manage.com/subscribe/post-json?u=1&id=2' });
    expect(policy.get('script-src')).toEqual(["'self'", 'https://example.us1.list-manage.com']);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
  });

  it('adds the tag manager only when TAG_MANAGER_ID is set', async () => {
    const policy = await policyFor({ TAG_MANAGER_ID: 'GTM-ABC1234' });
    expect(policy.get('script-src')).toEqual(["'self'", 'https://www.googletagmanager.com']);
    expect(policy.get('connect-src')).toEqual(expect.arrayContaining(["'self'", 'https://www.googletagmanager.com', 'https://*.google-analytics.com']));
    expect(policy.get('img-src')).toContain('https:');
  });

  it('upgrades insecure requests in production only', async () => {
    expect((await policyFor({ NODE_ENV: 'production', SESSION_SECRET: 'a production secret of at least 32 characters' })).has('upgrade-insecure-requests')).toBe(true);
  });
});

describe("the shell's inline scripts", () => {
  const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  const EARLY = '(function(){document.addEventListener("click",function(){},true)})();';

  it('are found by their hash, whatever their type, with line breaks as the browser reads them; not a script file', () => {
    const template = shellTemplate(
      `<script>${EARLY}</script><script type="text/javascript; charset=utf-8">var a = "</p>";\r\nvar b = 1;\rvar c;</script><script defer src="/mfe/shell/main.js"></script>` +
        `<script type="module">import "x";</script><script></script><script>${EARLY}</script>`,
    );
    expect(inlineScriptHashes(template)).toEqual([sha256(EARLY), sha256('var a = "</p>";\nvar b = 1;\nvar c;'), sha256('import "x";')]);
    expect(inlineScriptHashes(shellTemplate())).toEqual([]);
  });

  it('are not changed by what the bff fills in (a script changed after it was hashed would be refused)', () => {
    const template = shellTemplate(`<!--bff:inject--><script>${EARLY}</script>`);
    const page = injectPageData(template, {
      registry: { remotes: [] },
      publicConfig: PublicConfig.parse({ newsletterUrl: '/api/newsletter/subscribe', tagManagerId: null, priceSettings: {} }),
      pageUrl: 'https://store.example/faq',
      rootHtml: '<main><h1>FAQ</h1></main>',
      rootStyles: [{ key: 'bimi', ids: ['a1'], css: '.bimi-a1{color:red}' }],
    });
    // (The page also holds the data blocks the bff adds, which do not run.)
    expect(inlineScriptHashes(page)).toEqual(expect.arrayContaining(inlineScriptHashes(template)));
  });

  it("are allowed on the shell's pages by their hash, rendered or kept, and follow a new template; nowhere else", async () => {
    const rootDir = rootWithShellServerBuild("return { html: '<main><h1>Hello</h1></main>', errors: [] };", `<!--bff:inject--><script>${EARLY}</script>`);
    const templatePath = join(rootDir, 'shell', 'dist', 'index.html');
    const store = await startTestStore({}, rootDir);
    try {
      const answer = async (url: string) => {
        const response = await store.app.inject({ url });
        return { scriptSources: policyOf(response.headers['content-security-policy']).get('script-src'), timing: response.headers['server-timing'] };
      };
      expect(await answer('/faq')).toEqual({ scriptSources: ["'self'", sha256(EARLY)], timing: expect.stringContaining('render;dur=') });
      // The same page again, kept by the bff.
      expect(await answer('/faq')).toEqual({ scriptSources: ["'self'", sha256(EARLY)], timing: 'render;desc="cached"' });
      expect((await answer('/no-such-page')).scriptSources).toEqual(["'self'", sha256(EARLY)]);
      expect((await answer('/api/health')).scriptSources).toEqual(["'self'"]);
      expect((await answer('/mfe/shell/main.js')).scriptSources).toEqual(["'self'"]);

      // A shell deployed with another script: its hash replaces the old one.
      const next = EARLY.replace('true', 'false');
      writeFileSync(templatePath, readFileSync(templatePath, 'utf8').replace(EARLY, next));
      expect((await answer('/faq')).scriptSources).toEqual(["'self'", sha256(next)]);
    } finally {
      await store.cleanUp();
    }
  });
});
