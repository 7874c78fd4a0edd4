import { startTestStore, type TestStore } from './fixtures';

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
