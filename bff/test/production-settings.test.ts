import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadConfig } from '../src/config';
import { FOREIGN_ORIGIN_REFUSED } from '../src/lib/csrf';
import { startRefusal } from '../src/lib/server-options';
import { SIGN_IN_NEEDS_HTTPS } from '../src/plugins/app/identity/sessions';
import { startTlsProxy, type TlsProxy } from './fixtures/tls-proxy';
import { GOOD_PASSWORD, linkFromOutbox, startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';

/**
 * Issue 10, finding 9 and the production-settings tier: the bff with NODE_ENV=production behind a
 * TLS-terminating proxy (a real https server on loopback, test/fixtures/tls-proxy.ts), as it runs
 * in production. Every other suite runs NODE_ENV=test over plain http and never sees the Secure
 * cookies and TRUST_PROXY at work.
 */

const SECRET = randomBytes(32).toString('hex');
const PRODUCTION = { NODE_ENV: 'production', SESSION_SECRET: SECRET };
const sqlite = storageEngines()[0];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  setCookies: string[];
  json(): any;
}

/** A browser over real https through the proxy: keeps the cookies the site sets, sends them back. */
class HttpsBrowser {
  readonly cookies = new Map<string, string>();
  constructor(private readonly proxy: TlsProxy) {}

  request(options: { method?: string; path: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string> }): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let payload: string | undefined;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(options.form).toString();
    } else if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(options.json);
    }
    return new Promise((resolve, reject) => {
      const request = https.request(
        {
          host: '127.0.0.1',
          servername: 'localhost',
          port: this.proxy.port,
          method: options.method ?? 'GET',
          path: options.path,
          headers: { host: `localhost:${this.proxy.port}`, ...headers },
          ca: this.proxy.certPem,
        },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => {
            const setCookies = response.headers['set-cookie'] ?? [];
            for (const line of setCookies) {
              const [pair = ''] = line.split(';');
              const name = pair.slice(0, pair.indexOf('='));
              const value = pair.slice(pair.indexOf('=') + 1);
              if (value === '' || /max-age=0/i.test(line) || /expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
              else this.cookies.set(name, value);
            }
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body, setCookies, json: () => JSON.parse(body) });
          });
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  async csrfToken(): Promise<string> {
    return (await this.request({ path: '/api/auth/csrf' })).json().csrfToken as string;
  }
}

/** The attributes of the Set-Cookie line for `name`, lower-cased, without its value. */
function cookieAttributes(setCookies: string[], name: string): string[] | undefined {
  const line = setCookies.find((candidate) => candidate.startsWith(`${name}=`));
  return line
    ?.split(';')
    .slice(1)
    .map((part) => part.trim().toLowerCase());
}

describe('production settings behind a TLS-terminating proxy', () => {
  let store: IdentityStore;
  let proxy: TlsProxy;

  beforeAll(async () => {
    proxy = await startTlsProxy({ target: 'http://127.0.0.1:9' });
    // The proxy talks to the bff from 127.0.0.1: that is the address TRUST_PROXY names.
    store = await startIdentityStore(sqlite!, { ...PRODUCTION, TRUST_PROXY: '127.0.0.1', PUBLIC_URL: proxy.origin });
    await store.app.listen({ host: '127.0.0.1', port: 0 });
    proxy.setTarget(`http://127.0.0.1:${(store.app.server.address() as AddressInfo).port}`);
  });
  afterAll(async () => {
    await proxy.close();
    await store.cleanUp();
  });

  it('signs up, verifies, signs in with a __Host- Secure session cookie, reads the account, and signs out', async () => {
    const browser = new HttpsBrowser(proxy);
    const site = { origin: proxy.origin };

    const csrf = await browser.request({ path: '/api/auth/csrf' });
    expect(cookieAttributes(csrf.setCookies, '__Host-next-auth.csrf-token')?.sort()).toEqual(['httponly', 'path=/', 'samesite=lax', 'secure']);
    const token = csrf.json().csrfToken as string;

    const signUp = await browser.request({
      method: 'POST',
      path: '/api/auth/signup',
      json: { name: 'Paula Prod', email: 'paula@example.com', password: GOOD_PASSWORD },
      headers: { 'x-csrf-token': token, ...site },
    });
    expect(signUp.status).toBe(201);
    const link = new URL(await linkFromOutbox(store.app, 'paula@example.com', '/auth/verify'));
    // Mailed links start with PUBLIC_URL, the https address.
    expect(link.origin).toBe(proxy.origin);
    expect((await browser.request({ method: 'POST', path: '/api/auth/verify', json: { token: link.searchParams.get('token') }, headers: { 'x-csrf-token': token, ...site } })).status).toBe(
      200,
    );

    const signIn = await browser.request({
      method: 'POST',
      path: '/api/auth/callback/credentials',
      form: { email: 'paula@example.com', password: GOOD_PASSWORD, redirect: 'false', csrfToken: token, callbackUrl: '/account/dashboard', json: 'true' },
      headers: site,
    });
    expect(signIn.status).toBe(200);
    expect(signIn.json()).toEqual({ url: `${proxy.origin}/account/dashboard` });
    // Finding 9: the cookie is set at all, with the prefix and the attributes it requires.
    const attributes = cookieAttributes(signIn.setCookies, '__Host-bimi.session');
    expect(attributes).toEqual(expect.arrayContaining(['path=/', 'httponly', 'secure', 'samesite=lax']));
    expect(attributes?.some((attribute) => attribute.startsWith('domain='))).toBe(false);
    expect(signIn.setCookies.some((line) => line.startsWith('bimi.session='))).toBe(false);

    const session = await browser.request({ path: '/api/auth/session' });
    expect(session.json()).toMatchObject({ user: { name: 'Paula Prod', email: 'paula@example.com' } });
    expect((await browser.request({ path: '/api/account/profile' })).json()).toMatchObject({ name: 'Paula Prod' });

    // Pages carry the cookie (Path=/) but neither read nor renew the session.
    const page = await browser.request({ path: '/account/dashboard' });
    expect(page.setCookies).toEqual([]);
    expect(page.headers['strict-transport-security']).toMatch(/max-age=\d+/);

    // Writes from the site itself go through; from another site they are refused.
    expect((await browser.request({ method: 'PATCH', path: '/api/account/profile', json: { name: 'Paula P.' }, headers: { 'x-csrf-token': token, ...site } })).status).toBe(200);
    const foreign = await browser.request({ method: 'PATCH', path: '/api/account/profile', json: { name: 'Mallory' }, headers: { 'x-csrf-token': token, origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.json()).toEqual({ message: FOREIGN_ORIGIN_REFUSED });
    // http:// is another origin than https:// on the same host.
    expect(
      (
        await browser.request({
          method: 'PATCH',
          path: '/api/account/profile',
          json: { name: 'Mallory' },
          headers: { 'x-csrf-token': token, origin: proxy.origin.replace('https:', 'http:') },
        })
      ).status,
    ).toBe(403);
    expect((await browser.request({ path: '/api/account/profile' })).json()).toMatchObject({ name: 'Paula P.' });

    const signOut = await browser.request({ method: 'POST', path: '/api/auth/signout', form: { csrfToken: token, callbackUrl: '/auth/signin', json: 'true' }, headers: site });
    expect(signOut.status).toBe(200);
    // Cleared with the same attributes, or the browser would ignore the clearing cookie.
    expect(cookieAttributes(signOut.setCookies, '__Host-bimi.session')).toEqual(expect.arrayContaining(['path=/', 'secure', 'httponly']));
    expect(browser.cookies.has('__Host-bimi.session')).toBe(false);
    expect((await browser.request({ path: '/api/auth/session' })).json()).toEqual({});
  });

  it('serves pages and assets over the proxy with the production headers', async () => {
    const browser = new HttpsBrowser(proxy);
    const health = await browser.request({ path: '/api/health' });
    expect(health.status).toBe(200);
    expect(health.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(health.headers['referrer-policy']).toBe('same-origin');
  });
});

describe('finding 9: production without a trusted proxy', () => {
  it('fails a sign-in over plain http loudly (500, logged with the fix) instead of answering 200 with no session', async () => {
    const store = await startIdentityStore(sqlite!, { ...PRODUCTION, TRUST_PROXY: '10.0.0.1', PUBLIC_URL: 'https://store.test' });
    try {
      const signUpAndVerify = async () => {
        const csrf = await store.app.inject({ url: '/api/auth/csrf', remoteAddress: '10.0.0.1', headers: { 'x-forwarded-proto': 'https' } });
        const cookie = csrf.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
        const token = csrf.json().csrfToken as string;
        const headers = { cookie, 'x-csrf-token': token, 'x-forwarded-proto': 'https' };
        expect(
          (
            await store.app.inject({
              method: 'POST',
              url: '/api/auth/signup',
              payload: { name: 'Paula Prod', email: 'paula@example.com', password: GOOD_PASSWORD },
              headers,
              remoteAddress: '10.0.0.1',
            })
          ).statusCode,
        ).toBe(201);
        const link = new URL(await linkFromOutbox(store.app, 'paula@example.com', '/auth/verify'));
        expect((await store.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { token: link.searchParams.get('token') }, headers, remoteAddress: '10.0.0.1' })).statusCode).toBe(
          200,
        );
        return { cookie, token };
      };
      const { cookie, token } = await signUpAndVerify();
      const form = new URLSearchParams({ email: 'paula@example.com', password: GOOD_PASSWORD, csrfToken: token, json: 'true' }).toString();
      const signIn = (remoteAddress: string) =>
        store.app.inject({
          method: 'POST',
          url: '/api/auth/callback/credentials',
          payload: form,
          remoteAddress,
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-proto': 'https' },
        });

      // A peer that is not the trusted proxy claims https: not believed, and said so.
      const untrusted = await signIn('203.0.113.5');
      expect(untrusted.statusCode).toBe(500);
      expect(untrusted.cookies).toEqual([]);
      expect(store.logs.entries.some((entry) => JSON.stringify(entry).includes(SIGN_IN_NEEDS_HTTPS))).toBe(true);

      // The trusted proxy saying https: signed in (with x-forwarded-proto, as finding 9 tried).
      const trusted = await signIn('10.0.0.1');
      expect(trusted.statusCode).toBe(200);
      expect(trusted.cookies.map((c) => ({ name: c.name, secure: c.secure, path: c.path }))).toContainEqual({ name: '__Host-bimi.session', secure: true, path: '/' });
    } finally {
      await store.cleanUp();
    }
  });

  it('refuses to start with NODE_ENV=production and no TRUST_PROXY, naming the setting', async () => {
    expect(startRefusal(loadConfig(PRODUCTION))).toMatch(/^TRUST_PROXY is not set, and NODE_ENV is production/);
    expect(startRefusal(loadConfig({ ...PRODUCTION, TRUST_PROXY: 'false' }))).toMatch(/TRUST_PROXY/);
    expect(startRefusal(loadConfig({ ...PRODUCTION, TRUST_PROXY: '10.0.0.0/8' }))).toBeUndefined();
    expect(startRefusal(loadConfig({}))).toBeUndefined();

    // The real server process: exits 1 with one line, before listening.
    const child = spawn(process.execPath, ['--import', 'tsx', join('src', 'server.ts')], {
      cwd: join(__dirname, '..'),
      env: { PATH: process.env.PATH, ...PRODUCTION, PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: join(__dirname, '..', '..', 'data', 'never-created') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^bff failed to start: TRUST_PROXY is not set, and NODE_ENV is production/);
  }, 30_000);
});

describe('TRUST_PROXY', () => {
  it('believes X-Forwarded-For only as far as the trusted hops go', async () => {
    const store = await startIdentityStore(sqlite!, { ...PRODUCTION, TRUST_PROXY: '10.0.0.1' });
    try {
      const addressSeen = async (remoteAddress: string, forwardedFor: string) => {
        const marker = randomBytes(4).toString('hex');
        await store.app.inject({ url: `/api/health?${marker}`, remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });
        const line = store.logs.entries.find((entry) => (entry.req as { url?: string } | undefined)?.url?.includes(marker)) as { req?: { remoteAddress?: string } } | undefined;
        return line?.req?.remoteAddress;
      };
      // Through the proxy: the address the proxy appended, not the one the client wrote before it.
      expect(await addressSeen('10.0.0.1', '198.51.100.1, 203.0.113.9')).toBe('203.0.113.9');
      // Straight from anyone else: the socket's address, whatever the header says.
      expect(await addressSeen('203.0.113.5', '198.51.100.1')).toBe('203.0.113.5');
    } finally {
      await store.cleanUp();
    }
  });

  it('is off by default, and takes true, false, or addresses, CIDRs and named ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7 ,::1,fd00::/8' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.7', '::1', 'fd00::/8']);
    expect(loadConfig({ TRUST_PROXY: 'loopback,uniquelocal' }).trustProxy).toEqual(['loopback', 'uniquelocal']);
  });

  it('refuses anything else with one line naming it, a hop count included (Fastify trusts no peer for one)', () => {
    for (const value of ['2', 'yes', '10.0.0.0/33', '10.0.0.1/8/9', 'proxy.internal', '10.0.0.1,,nonsense']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY must be true, false, or a comma-separated list/);
    }
  });
});
