import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { ConfigError, describeDefaults, loadConfig } from '../src/config';

describe('loadConfig', () => {
  it('fills in the defaults when nothing is set', () => {
    const config = loadConfig({});
    const workspaceRoot = resolve(__dirname, '..', '..');
    expect(config).toMatchObject({ host: '127.0.0.1', port: 3000, nodeEnv: 'development', logLevel: 'info', rootDir: workspaceRoot, dataDir: join(workspaceRoot, 'data') });
    expect(config.newsletterUrl).toBeUndefined();
    expect(config.remoteUrls).toEqual({ storefront: undefined, checkout: undefined, account: undefined, tools: undefined });
  });

  it('reads every setting', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '8080',
      ROOT_DIR: '/srv/store',
      NEWSLETTER_URL: 'https://lists.example.com/subscribe',
      TAG_MANAGER_ID: 'GTM-ABC1234',
      REMOTE_TOOLS_URL: 'https://cdn.example.com/tools/',
      DNS_SERVERS: '127.0.0.1:5353, [::1]:5353',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      rootDir: '/srv/store',
      dataDir: '/srv/store/data',
      newsletterUrl: 'https://lists.example.com/subscribe',
      tagManagerId: 'GTM-ABC1234',
      remoteUrls: { tools: 'https://cdn.example.com/tools/' },
      dnsServers: ['127.0.0.1:5353', '[::1]:5353'],
    });
  });

  it('takes an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', NEWSLETTER_URL: '' })).toMatchObject({ port: 3000, newsletterUrl: undefined });
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be a whole number from 0 to 65535'],
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be a whole number from 0 to 65535'],
    [{ REMOTE_TOOLS_URL: 'https://cdn.example.com/tools' }, 'Invalid configuration: REMOTE_TOOLS_URL must be an absolute http(s) URL ending in /'],
    [{ NEWSLETTER_URL: 'lists.example.com' }, 'Invalid configuration: NEWSLETTER_URL must be an absolute http(s) URL'],
    [{ TAG_MANAGER_ID: '"><script>' }, 'Invalid configuration: TAG_MANAGER_ID must look like GTM-XXXXXXX'],
    [{ LOG_LEVEL: 'loud' }, 'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ DNS_SERVERS: 'dns.example.com' }, 'Invalid configuration: DNS_SERVERS must be a comma-separated list of IP addresses, each with an optional :port'],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'abc', NODE_ENV: 'staging' })).toThrow(/PORT must .*; NODE_ENV must be development, production or test/);
  });
});

describe('describeDefaults', () => {
  it('says which default replaces each missing optional setting, payments first', () => {
    const notes = describeDefaults(loadConfig({}));
    expect(notes[0]).toBe('STRIPE_SECRET_KEY not set: the built-in test payments take the payments (test cards only, nothing is charged)');
    for (const name of ['SMTP_URL', 'DATABASE_URL', 'REDIS_URL', 'NEWSLETTER_URL', 'TAG_MANAGER_ID', 'DNS_SERVERS', 'REMOTE_TOOLS_URL']) {
      expect(notes).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^${name} not set: `))]));
    }
  });

  it('says nothing about settings that are set', () => {
    const notes = describeDefaults(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_123', TAG_MANAGER_ID: 'GTM-ABC1234' }));
    expect(notes.some((note) => note.startsWith('STRIPE_SECRET_KEY'))).toBe(false);
    expect(notes.some((note) => note.startsWith('TAG_MANAGER_ID'))).toBe(false);
  });
});

describe('starting the server with a bad setting', () => {
  it('exits with one line naming the variable', () => {
    const bff = resolve(__dirname, '..');
    const result = spawnSync(join(bff, 'node_modules', '.bin', 'tsx'), ['src/server.ts'], {
      cwd: bff,
      env: { PATH: process.env.PATH, PORT: 'abc' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('bff failed to start: Invalid configuration: PORT must be a whole number from 0 to 65535\n');
  });
});
