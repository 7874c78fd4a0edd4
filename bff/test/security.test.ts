import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inlineScriptHashes } from '../src/plugins/app/shell-page';
import { createFakeRoot, shellTemplate, startTestStore, type TestStore } from './fixtures';

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

  it('are found by their hash, and only scripts that run: not a source, not a data block', () => {
    const template = shellTemplate(
      `<script>${EARLY}</script><script type="text/javascript">var a = "</p>";</script><script defer src="/mfe/shell/start.js"></script>` +
        '<script id="page-state" type="application/json">{"a":1}</script><script type="module">import "x";</script><script></script>',
    );
    expect(inlineScriptHashes(template)).toEqual([sha256(EARLY), sha256('var a = "</p>";'), sha256('import "x";')]);
    expect(inlineScriptHashes(shellTemplate())).toEqual([]);
  });

  it("are allowed on the shell's pages by their hash, cached or not, and follow a new template; nowhere else", async () => {
    const rootDir = createFakeRoot();
    const templatePath = join(rootDir, 'shell', 'dist', 'index.html');
    writeFileSync(templatePath, shellTemplate(`<!--bff:inject--><script>${EARLY}</script>`));
    const store = await startTestStore({}, rootDir);
    try {
      const scriptSources = async (url: string) => policyOf((await store.app.inject({ url })).headers['content-security-policy']).get('script-src');
      expect(await scriptSources('/faq')).toEqual(["'self'", sha256(EARLY)]);
      // The same page again, from the bff's page cache.
      expect(await scriptSources('/faq')).toEqual(["'self'", sha256(EARLY)]);
      expect(await scriptSources('/no-such-page')).toEqual(["'self'", sha256(EARLY)]);
      expect(await scriptSources('/api/health')).toEqual(["'self'"]);
      expect(await scriptSources('/mfe/shell/main.js')).toEqual(["'self'"]);

      // A shell deployed with another script: its hash replaces the old one.
      const next = EARLY.replace('true', 'false');
      writeFileSync(templatePath, shellTemplate(`<!--bff:inject--><script>${next}</script>`));
      expect(await scriptSources('/faq')).toEqual(["'self'", sha256(next)]);
    } finally {
      await store.cleanUp();
    }
  });
});
