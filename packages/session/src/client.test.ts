// The real bff is built in this test; its declarations of untyped library modules come with it.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- a global declaration file, which an import cannot bring
/// <reference path="../../../bff/src/types/postalsys-vmc.d.ts" />
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the same
/// <reference path="../../../bff/src/types/fastify-rate-limit-stores.d.ts" />
import { SIGN_IN_ERRORS } from '@bimi/contracts/auth';
import { Browser, freshClientAddress, GOOD_PASSWORD, linkFromOutbox, startIdentityStore, storageEngines, type IdentityStore } from '../../../bff/test/identity-fixtures';
import { subscribe } from 'valtio';
import * as z from 'zod/mini';
import { ApiFailure, callApi } from './api';
import { getCsrfToken, getSession, prefetchSession, session, SESSION_MESSAGE_KEY, signIn, signOut, startSessionSync, startWithRenderedSession } from './client';
import { sessionRequiredPath } from './useSession';

/**
 * The client against the real bff: every fetch the client makes goes, with the page's cookies, to
 * the bff's own /api/auth endpoints (buildApp + inject), so the answers it is tested on are the ones
 * it gets in production and a change on either side fails here. Only what the real bff cannot be
 * made to do on demand, being down or answering garbage, is a fault put in front of it.
 */
interface Seen {
  method: string;
  path: string;
  body: URLSearchParams | null;
  /** What the bff answered (the fault's status when one stood in for it). */
  status: number;
}

// The real bff hashes passwords (argon2id) for each account: seconds, not milliseconds, on a busy machine.

const ORIGIN = 'http://127.0.0.1:3100';

let store: IdentityStore;
let seen: Seen[] = [];
/** Answers that stand in for the bff on one `METHOD /path`: a server that is down or broken. */
let faults: Record<string, () => Response>;
/** The page's cookies, as the browser keeps them for the bff's origin. */
let cookies: Map<string, string>;
let clientAddress: string;
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Sends the client's request to the real bff and hands its answer back as a fetch Response. */
async function throughBff(request: Request, body: string | undefined): Promise<Response> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (cookies.size > 0) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const answer = await store.app.inject({ method: request.method as 'GET', url: `${url.pathname}${url.search}`, headers, payload: body, remoteAddress: clientAddress });
  for (const cookie of answer.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
    const gone = cookie.value === '' || cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
    if (gone) cookies.delete(cookie.name);
    else cookies.set(cookie.name, cookie.value);
  }
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) responseHeaders.append(name, String(one));
  }
  const empty = [101, 204, 205, 304].includes(answer.statusCode);
  return new Response(empty ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, headers: responseHeaders });
}

class FakeWindow extends EventTarget {
  location = { href: `${ORIGIN}/account/dashboard`, origin: ORIGIN };
  store = new Map<string, string>();
  localStorage = {
    setItem: (key: string, value: string) => void this.store.set(key, value),
    getItem: (key: string) => this.store.get(key) ?? null,
  };
  setInterval = setInterval;
  clearInterval = clearInterval;
}
class FakeDocument extends EventTarget {
  visibilityState: 'visible' | 'hidden' = 'visible';
}
let win: FakeWindow;
let doc: FakeDocument;

beforeAll(async () => {
  // Links in mails and the answers' URLs start with the page's origin, as in production.
  store = await startIdentityStore(storageEngines()[0]!, { PUBLIC_URL: ORIGIN, SIGNUP_RATE_LIMIT_PER_HOUR: '1000' });
});
afterAll(async () => {
  await store.cleanUp();
});

beforeEach(() => {
  seen = [];
  faults = {};
  cookies = new Map();
  clientAddress = freshClientAddress();
  win = new FakeWindow();
  doc = new FakeDocument();
  Object.assign(globalThis, { window: win, document: doc, navigator: { onLine: true } });
  session.status = 'loading';
  session.data = null;
  globalThis.fetch = jest.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(new URL(String(input), ORIGIN), init);
    const path = new URL(request.url).pathname;
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
    const fault = faults[`${request.method} ${path}`];
    const response = fault ? fault() : await throughBff(request, body);
    seen.push({ method: request.method, path, body: body === undefined ? null : new URLSearchParams(body), status: response.status });
    return response;
  }) as typeof fetch;
  jest.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => jest.restoreAllMocks());

const posts = (path: string) => seen.filter((s) => s.method === 'POST' && s.path === path);
/** Lets the fire-and-forget `_log` beacon reach the bff. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

let accounts = 0;
/** A new, verified account (sign-up and the link from the outbox, on the real bff); not signed in on the page. */
async function verifiedAccount(name = 'Ada Lovelace'): Promise<{ name: string; email: string; password: string }> {
  accounts += 1;
  const email = `ada-${accounts}@example.com`;
  const helper = new Browser(store.app, freshClientAddress());
  const signUp = await helper.write('POST', '/api/auth/signup', { name, email, password: GOOD_PASSWORD });
  if (signUp.statusCode !== 201) throw new Error(`sign-up failed: ${signUp.body}`);
  const link = await linkFromOutbox(store.app, email, '/auth/verify');
  const verify = await helper.write('POST', '/api/auth/verify', { token: new URL(link).searchParams.get('token') });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  return { name, email, password: GOOD_PASSWORD };
}

/** Signs the page in through the client itself. */
async function signedInPage(): Promise<{ name: string; email: string }> {
  const user = await verifiedAccount();
  const result = await signIn('credentials', { email: user.email, password: user.password, redirect: false });
  if (!result?.ok) throw new Error(`sign-in failed: ${JSON.stringify(result)}`);
  return user;
}

const sessionOf = (user: { name: string; email: string }) => ({ user: { name: user.name, email: user.email, image: null }, expires: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });

describe('getSession', () => {
  it('is unauthenticated on the empty answer and authenticated with the user once signed in', async () => {
    expect(await getSession()).toBeNull();
    expect(session.status).toBe('unauthenticated');
    const user = await signedInPage();
    expect(await getSession()).toEqual(sessionOf(user));
    expect(session).toMatchObject({ status: 'authenticated', data: sessionOf(user) });
  });

  it('takes the answer prefetchSession asked for, once, and leaves the store alone until then', async () => {
    const user = await signedInPage();
    // A page opened afresh by the signed-in browser.
    session.status = 'loading';
    session.data = null;
    seen = [];
    const sessionGets = () => seen.filter((s) => s.method === 'GET' && s.path === '/api/auth/session').length;
    prefetchSession();
    prefetchSession();
    await settle();
    expect(sessionGets()).toBe(1);
    // A server-rendered page hydrates with the session it was rendered with: the answer waits for getSession.
    expect(session.status).toBe('loading');
    expect(await getSession()).toEqual(sessionOf(user));
    expect(session.status).toBe('authenticated');
    expect(sessionGets()).toBe(1);
    expect(await getSession()).toEqual(sessionOf(user));
    expect(sessionGets()).toBe(2);
  });

  it("starts with the session a page was rendered with; the same user's fresh answer changes nothing, another user's replaces it", async () => {
    const user = await signedInPage();
    session.status = 'loading';
    session.data = null;
    const rendered = { user: { name: user.name, email: user.email, image: null }, expires: '2026-01-01T00:00:00.000Z' };
    startWithRenderedSession(rendered);
    expect(session).toMatchObject({ status: 'authenticated', data: rendered });
    // A change of the store renders every reader again, and a server-rendered page that is still
    // hydrating would be drawn anew: only `expires` moved, so nothing changes.
    let changes = 0;
    const stop = subscribe(session, () => (changes += 1), true);
    expect(await getSession()).toEqual(rendered);
    expect(changes).toBe(0);
    startWithRenderedSession({ ...rendered, user: { ...rendered.user, name: 'Somebody Else' } });
    await getSession();
    expect(session.data).toEqual(sessionOf(user));
    expect(changes).toBeGreaterThan(0);
    stop();
  });

  it('only logs a failed fetch: a signed-in user stays signed in, a first fetch ends loading', async () => {
    faults['GET /api/auth/session'] = () => json({ message: 'down' }, 503);
    await getSession();
    expect(session.status).toBe('unauthenticated');

    delete faults['GET /api/auth/session'];
    const user = await signedInPage();
    expect(session).toMatchObject({ status: 'authenticated', data: sessionOf(user) });
    faults['GET /api/auth/session'] = () => json({ message: 'down' }, 503);
    await getSession();
    expect(session).toMatchObject({ status: 'authenticated', data: sessionOf(user) });

    await settle();
    const logs = posts('/api/auth/_log');
    expect(logs).toHaveLength(2);
    expect(logs[0]?.body?.get('level')).toBe('error');
    expect(logs[0]?.body?.get('code')).toBe('CLIENT_FETCH_ERROR');
    expect(logs[0]?.body?.get('message')).toContain('/api/auth/session: HTTP 503');
    // The bff takes the client's log lines as the client sends them.
    expect(logs.map((log) => log.status)).toEqual([200, 200]);
    expect(store.logs.entries.filter((entry) => entry.msg === 'authentication client log')).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'CLIENT_FETCH_ERROR', clientLevel: 'error', clientMessage: expect.stringContaining('/api/auth/session: HTTP 503') })]),
    );
  });

  it('treats an answer of the wrong shape as a failed fetch', async () => {
    faults['GET /api/auth/session'] = () => json({ user: 'not an object', expires: 1 });
    await getSession();
    expect(session.status).toBe('unauthenticated');
    await settle();
    expect(posts('/api/auth/_log')).toHaveLength(1);
  });
});

it('getCsrfToken reads the token the bff set in its cookie, and gives null (logged) when the endpoint fails', async () => {
  const token = await getCsrfToken();
  expect(token).toMatch(/^[0-9a-f]{64}$/);
  expect(cookies.get('next-auth.csrf-token')?.split('|')[0]).toBe(token);
  faults['GET /api/auth/csrf'] = () => json({ message: 'boom' }, 500);
  expect(await getCsrfToken()).toBeNull();
});

describe('a write while the token cannot be had (issue 31: a 503 turned into "Missing or invalid CSRF token")', () => {
  const DOWN = 'Our database is unavailable for a moment. Please try again in a few minutes.';
  const writes = () => seen.filter((s) => s.method !== 'GET');

  it('asks for the token again after a 503, then sends the write with it', async () => {
    // Two 503s, then the bff itself answers.
    let failures = 2;
    faults['GET /api/auth/csrf'] = () => {
      failures -= 1;
      if (failures === 0) delete faults['GET /api/auth/csrf'];
      return json({ message: DOWN }, 503);
    };
    const failure = await callApi('/api/account/profile', { method: 'PATCH', body: { name: 'X' }, answer: z.unknown() }).catch((error: unknown) => error);
    expect(seen.filter((s) => s.path === '/api/auth/csrf').map((s) => s.status)).toEqual([503, 503, 200]);
    // The write went out with a token: not signed in, so the bff answers 401, never 403 for the token
    // (the failed token fetches are logged to the bff, which is not the write).
    expect(writes().filter((s) => s.path !== '/api/auth/_log')).toEqual([expect.objectContaining({ method: 'PATCH', path: '/api/account/profile', status: 401 })]);
    expect(failure).toBeInstanceOf(ApiFailure);
  });

  it("says the service is unavailable, in the bff's words, and sends no write, when the token never comes", async () => {
    faults['GET /api/auth/csrf'] = () => json({ message: DOWN }, 503);
    const failure = await callApi('/api/account/profile', { method: 'PATCH', body: { name: 'X' }, answer: z.unknown() }).catch((error: unknown) => error);
    expect(failure).toEqual(expect.objectContaining({ message: DOWN, status: 503 }));
    expect(seen.filter((s) => s.path === '/api/auth/csrf')).toHaveLength(3);
    expect(writes().filter((s) => s.path !== '/api/auth/_log')).toEqual([]);
    // Without words of the bff's own, ours.
    faults['GET /api/auth/csrf'] = () => new Response('bad gateway', { status: 502 });
    const other = await callApi('/api/account/profile', { method: 'PATCH', body: {}, answer: z.unknown() }).catch((error: unknown) => error);
    expect(other).toEqual(expect.objectContaining({ message: 'The service is unavailable just now. Please try again in a few minutes.', status: 502 }));
  });

  it('signs nobody in without a token: the sign-in says the service is unavailable', async () => {
    const user = await verifiedAccount();
    faults['GET /api/auth/csrf'] = () => json({ message: DOWN }, 503);
    const result = await signIn('credentials', { email: user.email, password: user.password, redirect: false });
    expect(result).toEqual({ ok: false, status: 503, error: 'ServiceUnavailable', url: null, message: DOWN });
    expect(posts('/api/auth/callback/credentials')).toHaveLength(0);
  });
});

describe('signIn', () => {
  it('posts the credentials form-encoded with the CSRF token, callbackUrl and json=true, then reads the session', async () => {
    const user = await verifiedAccount();
    const result = await signIn('credentials', { email: user.email, password: user.password, callbackUrl: '/account/settings/profile', redirect: false });

    const [post] = posts('/api/auth/callback/credentials');
    expect(Object.fromEntries(post?.body ?? [])).toEqual({
      email: user.email,
      password: user.password,
      callbackUrl: '/account/settings/profile',
      csrfToken: cookies.get('next-auth.csrf-token')?.split('|')[0],
      json: 'true',
    });
    expect(result).toEqual({ ok: true, status: 200, error: null, url: `${ORIGIN}/account/settings/profile` });
    expect(session).toMatchObject({ status: 'authenticated', data: sessionOf(user) });
    expect(JSON.parse(win.store.get(SESSION_MESSAGE_KEY) ?? '{}')).toMatchObject({ event: 'signin' });
    expect(win.location.href).toBe(`${ORIGIN}/account/dashboard`);
  });

  it('answers CredentialsSignin with the bff message on a wrong password and stays on the page', async () => {
    const user = await verifiedAccount();
    const result = await signIn('credentials', { email: user.email, password: 'not the password 1', redirect: false });
    expect(result).toEqual({ ok: false, status: 401, error: 'CredentialsSignin', url: null, message: SIGN_IN_ERRORS.CredentialsSignin });
    expect(session.status).toBe('loading');
    expect(await getSession()).toBeNull();
  });

  it('answers EmailNotVerified for an account whose address is not verified yet', async () => {
    const helper = new Browser(store.app, freshClientAddress());
    expect((await helper.write('POST', '/api/auth/signup', { name: 'Not Yet', email: 'not-yet@example.com', password: GOOD_PASSWORD })).statusCode).toBe(201);
    const result = await signIn('credentials', { email: 'not-yet@example.com', password: GOOD_PASSWORD, redirect: false });
    expect(result).toEqual({ ok: false, status: 403, error: 'EmailNotVerified', url: null, message: SIGN_IN_ERRORS.EmailNotVerified });
  });

  it('navigates to the answer url when redirect is left on', async () => {
    const user = await verifiedAccount();
    expect(await signIn('credentials', { email: user.email, password: user.password, callbackUrl: '/checkout' })).toBeUndefined();
    expect(win.location.href).toBe(`${ORIGIN}/checkout`);
  });

  it('goes to the error page without providers and to the sign-in page for a provider the bff does not offer', async () => {
    faults['GET /api/auth/providers'] = () => json({ message: 'down' }, 500);
    await signIn('credentials', { redirect: false });
    expect(win.location.href).toBe('/api/auth/error');

    delete faults['GET /api/auth/providers'];
    await signIn('github', { callbackUrl: '/account/orders' });
    expect(win.location.href).toBe('/auth/signin?callbackUrl=%2Faccount%2Forders');
    expect(posts('/api/auth/callback/credentials')).toHaveLength(0);
    expect(seen.find((s) => s.path === '/api/auth/providers' && s.status === 200)).toBeDefined();
  });
});

describe('signOut', () => {
  beforeEach(async () => {
    await signedInPage();
    seen = [];
  });

  it('posts csrfToken, callbackUrl and json=true, ends the server session, empties the store and goes to the answer url', async () => {
    await signOut({ callbackUrl: '/auth/signin' });
    expect(Object.fromEntries(posts('/api/auth/signout')[0]?.body ?? [])).toEqual({
      callbackUrl: '/auth/signin',
      csrfToken: cookies.get('next-auth.csrf-token')?.split('|')[0],
      json: 'true',
    });
    expect(session).toMatchObject({ status: 'unauthenticated', data: null });
    expect(win.location.href).toBe(`${ORIGIN}/auth/signin`);
    expect(JSON.parse(win.store.get(SESSION_MESSAGE_KEY) ?? '{}')).toMatchObject({ event: 'signout' });
    expect(await getSession()).toBeNull();
  });

  it('stays on the page with redirect off, and still signs the page out when the server fails', async () => {
    faults['POST /api/auth/signout'] = () => json({ message: 'down' }, 503);
    expect(await signOut({ callbackUrl: '/auth/signin', redirect: false })).toEqual({ url: '/auth/signin' });
    expect(session.status).toBe('unauthenticated');
    expect(win.location.href).toBe(`${ORIGIN}/account/dashboard`);
    await settle();
    expect(posts('/api/auth/_log')).toHaveLength(1);
  });
});

describe('startSessionSync', () => {
  const sessionFetches = () => seen.filter((s) => s.path === '/api/auth/session').length;

  it('fetches once, then on window focus and when another tab signs in or out', async () => {
    const stop = startSessionSync();
    await settle();
    expect(sessionFetches()).toBe(1);

    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    doc.visibilityState = 'visible';
    doc.dispatchEvent(new Event('visibilitychange'));
    await settle();
    expect(sessionFetches()).toBe(2);

    win.dispatchEvent(Object.assign(new Event('storage'), { key: SESSION_MESSAGE_KEY }));
    win.dispatchEvent(Object.assign(new Event('storage'), { key: 'bimi.cart' }));
    await settle();
    expect(sessionFetches()).toBe(3);

    stop();
    doc.dispatchEvent(new Event('visibilitychange'));
    await settle();
    expect(sessionFetches()).toBe(3);
  });

  it('refetches on the interval when one is asked for', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'queueMicrotask', 'nextTick'] });
    win.setInterval = setInterval;
    win.clearInterval = clearInterval;
    const stop = startSessionSync({ refetchOnWindowFocus: false, refetchIntervalSeconds: 300 });
    jest.advanceTimersByTime(300_000 * 2);
    jest.useRealTimers();
    await settle();
    expect(sessionFetches()).toBe(3);
    doc.dispatchEvent(new Event('visibilitychange'));
    await settle();
    expect(sessionFetches()).toBe(3);
    stop();
  });
});

it('sends a visitor without a session to sign-in with the path to return to', () => {
  expect(sessionRequiredPath('/account/orders?status=active')).toBe('/auth/signin?callbackUrl=%2Faccount%2Forders%3Fstatus%3Dactive&error=SessionRequired');
  expect(sessionRequiredPath('//evil.example/x')).toBe('/auth/signin?callbackUrl=%2Faccount%2Fdashboard&error=SessionRequired');
});
