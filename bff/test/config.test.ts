import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, describeDefaults, loadConfig } from '../src/config';

describe('loadConfig', () => {
  it('fills in the defaults when nothing is set', () => {
    const config = loadConfig({});
    const workspaceRoot = resolve(__dirname, '..', '..');
    expect(config).toMatchObject({ host: '127.0.0.1', port: 3000, nodeEnv: 'development', logLevel: 'info', rootDir: workspaceRoot, dataDir: join(workspaceRoot, 'data') });
    expect(config.newsletterUrl).toBeUndefined();
    expect(config.remotes.map((remote) => remote.name)).toEqual(['storefront', 'checkout', 'account', 'tools']);
    expect(config.remotes.every((remote) => remote.url === undefined && remote.prefixes === undefined)).toBe(true);
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
      dnsServers: ['127.0.0.1:5353', '[::1]:5353'],
    });
    expect(config.remotes.find((remote) => remote.name === 'tools')?.url).toBe('https://cdn.example.com/tools/');
  });

  describe('the remotes', () => {
    let folder: string;
    beforeEach(() => {
      folder = mkdtempSync(join(tmpdir(), 'remotes-config-'));
    });
    afterEach(() => rmSync(folder, { recursive: true, force: true }));
    const configFile = (content: unknown) => {
      const file = join(folder, 'remotes.json');
      writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
      return file;
    };

    it('adds every other mfe-<name> folder of the root after the four', () => {
      mkdirSync(join(folder, 'mfe-partners'));
      mkdirSync(join(folder, 'mfe-Not_A_Remote'));
      mkdirSync(join(folder, 'mfe-shell'));
      expect(loadConfig({ ROOT_DIR: folder }).remotes.map((remote) => remote.name)).toEqual(['storefront', 'checkout', 'account', 'tools', 'partners']);
    });

    it('reads them from REMOTES_CONFIG: a fifth remote, one on a CDN, prefixes', () => {
      const file = configFile({
        remotes: [{ name: 'storefront' }, { name: 'tools', url: 'https://cdn.example.com/tools/v8/' }, { name: 'partners', prefixes: ['/partners'] }],
      });
      const config = loadConfig({ REMOTES_CONFIG: file });
      expect(config.remotes).toEqual([
        { name: 'storefront', url: undefined },
        { name: 'tools', url: 'https://cdn.example.com/tools/v8/' },
        { name: 'partners', prefixes: ['/partners'], url: undefined },
      ]);
      expect(describeDefaults(config).some((note) => note.startsWith('REMOTES_CONFIG not set'))).toBe(false);
    });

    it.each([
      ['{ not json', /REMOTES_CONFIG cannot be read as JSON/],
      [{ remotes: [] }, /REMOTES_CONFIG remotes must list at least one remote/],
      [{ remotes: [{ name: 'tools' }, { name: 'tools' }] }, /REMOTES_CONFIG remotes must not list a remote twice/],
      [{ remotes: [{ name: 'Tools' }] }, /REMOTES_CONFIG remotes\.0\.name must be a lowercase identifier/],
      [{ remotes: [{ name: 'shell' }] }, /REMOTES_CONFIG remotes\.0\.name must not be shell, the host/],
      [{ remotes: [{ name: 'tools', url: 'https://cdn.example.com/tools' }] }, /REMOTES_CONFIG remotes\.0\.url must be an absolute http\(s\) URL ending in \//],
      [{ remotes: [{ name: 'tools', prefixes: ['partners'] }] }, /REMOTES_CONFIG remotes\.0\.prefixes\.0 must be a path starting with \//],
      [{ remotes: [{ name: 'tools', entry: '/x' }] }, /REMOTES_CONFIG remotes\.0 Unrecognized key/],
    ])('refuses the file %j, naming what is wrong', (content, message) => {
      expect(() => loadConfig({ REMOTES_CONFIG: configFile(content) })).toThrow(message);
    });

    it('refuses a REMOTES_CONFIG that names no file', () => {
      expect(() => loadConfig({ REMOTES_CONFIG: join(folder, 'missing.json') })).toThrow('Invalid configuration: REMOTES_CONFIG must name a readable file');
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
  it('says which default replaces each missing optional setting, but the payment settings (the payments plugin says those)', () => {
    const notes = describeDefaults(loadConfig({}));
    expect(notes.filter((note) => /STRIPE_|_PRICE\b/.test(note))).toEqual([]);
    for (const name of ['SMTP_URL', 'DATABASE_URL', 'REDIS_URL', 'NEWSLETTER_URL', 'TAG_MANAGER_ID', 'DNS_SERVERS', 'REMOTES_CONFIG']) {
      expect(notes).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^${name} not set: `))]));
    }
  });

  it('says nothing about settings that are set', () => {
    const notes = describeDefaults(loadConfig({ DNS_SERVERS: '127.0.0.1:53', TAG_MANAGER_ID: 'GTM-ABC1234' }));
    expect(notes.some((note) => note.startsWith('DNS_SERVERS'))).toBe(false);
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
