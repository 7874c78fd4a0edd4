import { getCsrfToken, getSession, session, SESSION_MESSAGE_KEY, signIn, signOut, startSessionSync } from './client';
import { sessionRequiredPath } from './useSession';

/**
 * The client against a double of the bff's /api/auth endpoints that answers the way NextAuth's
 * do (the real endpoints are exercised by the Playwright flows). Node's own fetch types
 * (Request, Response, URLSearchParams) carry every request and answer.
 */
interface Seen {
  method: string;
  path: string;
  body: URLSearchParams | null;
}

const ORIGIN = 'http://127.0.0.1:3100';
const PROVIDERS = { credentials: { id: 'credentials', name: 'Email and password', type: 'credentials', signinUrl: `${ORIGIN}/api/auth/signin/credentials`, callbackUrl: `${ORIGIN}/api/auth/callback/credentials` } };
const SESSION = { user: { name: 'Ada Lovelace', email: 'ada@example.com', image: null }, expires: '2099-01-01T00:00:00.000Z' };

let seen: Seen[] = [];
let routes: Record<string, () => Response>;
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

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

beforeEach(() => {
  seen = [];
  win = new FakeWindow();
  doc = new FakeDocument();
  Object.assign(globalThis, { window: win, document: doc, navigator: { onLine: true } });
  session.status = 'loading';
  session.data = null;
  routes = {
    'GET /api/auth/csrf': () => json({ csrfToken: 'token-123' }),
    'GET /api/auth/providers': () => json(PROVIDERS),
    'GET /api/auth/session': () => json({}),
    'POST /api/auth/_log': () => json({}),
  };
  globalThis.fetch = jest.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(new URL(String(input), ORIGIN), init);
    const path = new URL(request.url).pathname;
    const text = request.method === 'POST' ? await request.text() : null;
    seen.push({ method: request.method, path, body: text === null ? null : new URLSearchParams(text) });
    const route = routes[`${request.method} ${path}`];
    return route ? route() : json({ message: 'Not found' }, 404);
  }) as typeof fetch;
  jest.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => jest.restoreAllMocks());

const posts = (path: string) => seen.filter((s) => s.method === 'POST' && s.path === path);
/** Lets the fire-and-forget `_log` beacon reach the double. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('getSession', () => {
  it('is unauthenticated on an empty answer and authenticated with the user on a session', async () => {
    expect(await getSession()).toBeNull();
    expect(session.status).toBe('unauthenticated');
    routes['GET /api/auth/session'] = () => json(SESSION);
    expect(await getSession()).toEqual(SESSION);
    expect(session).toMatchObject({ status: 'authenticated', data: SESSION });
  });

  it('only logs a failed fetch: a signed-in user stays signed in, a first fetch ends loading', async () => {
    routes['GET /api/auth/session'] = () => json({ message: 'down' }, 503);
    await getSession();
    expect(session.status).toBe('unauthenticated');

    routes['GET /api/auth/session'] = () => json(SESSION);
    await getSession();
    routes['GET /api/auth/session'] = () => json({ message: 'down' }, 503);
    await getSession();
    expect(session).toMatchObject({ status: 'authenticated', data: SESSION });

    await settle();
    const logs = posts('/api/auth/_log');
    expect(logs).toHaveLength(2);
    expect(logs[0]?.body?.get('level')).toBe('error');
    expect(logs[0]?.body?.get('code')).toBe('CLIENT_FETCH_ERROR');
    expect(logs[0]?.body?.get('message')).toContain('/api/auth/session: HTTP 503');
  });

  it('treats an answer of the wrong shape as a failed fetch', async () => {
    routes['GET /api/auth/session'] = () => json({ user: 'not an object', expires: 1 });
    await getSession();
    expect(session.status).toBe('unauthenticated');
    await settle();
    expect(posts('/api/auth/_log')).toHaveLength(1);
  });
});

it('getCsrfToken reads csrfToken and gives null (logged) when the endpoint fails', async () => {
  expect(await getCsrfToken()).toBe('token-123');
  routes['GET /api/auth/csrf'] = () => json({ message: 'boom' }, 500);
  expect(await getCsrfToken()).toBeNull();
});

describe('signIn', () => {
  it('posts the credentials form-encoded with the CSRF token, callbackUrl and json=true, then reads the session', async () => {
    routes['POST /api/auth/callback/credentials'] = () => {
      routes['GET /api/auth/session'] = () => json(SESSION);
      return json({ url: `${ORIGIN}/account/settings/profile` });
    };
    const result = await signIn('credentials', { email: 'ada@example.com', password: 'Correct horse 1', callbackUrl: '/account/settings/profile', redirect: false });

    const [post] = posts('/api/auth/callback/credentials');
    expect(Object.fromEntries(post?.body ?? [])).toEqual({
      email: 'ada@example.com',
      password: 'Correct horse 1',
      callbackUrl: '/account/settings/profile',
      csrfToken: 'token-123',
      json: 'true',
    });
    expect(result).toEqual({ ok: true, status: 200, error: null, url: `${ORIGIN}/account/settings/profile` });
    expect(session).toMatchObject({ status: 'authenticated', data: SESSION });
    expect(JSON.parse(win.store.get(SESSION_MESSAGE_KEY) ?? '{}')).toMatchObject({ event: 'signin' });
    expect(win.location.href).toBe(`${ORIGIN}/account/dashboard`);
  });

  it('answers CredentialsSignin on a 401 and stays on the page', async () => {
    routes['POST /api/auth/callback/credentials'] = () => json({ url: `${ORIGIN}/api/auth/error?error=CredentialsSignin&provider=credentials` }, 401);
    const result = await signIn('credentials', { email: 'ada@example.com', password: 'wrong', redirect: false });
    expect(result).toEqual({ ok: false, status: 401, error: 'CredentialsSignin', url: null });
    expect(session.status).toBe('loading');

    routes['POST /api/auth/callback/credentials'] = () => json({ message: 'Wrong email or password' }, 401);
    expect(await signIn('credentials', { email: 'a@b.co', password: 'x', redirect: false })).toMatchObject({ error: 'CredentialsSignin', message: 'Wrong email or password' });
  });

  it('navigates to the answer url when redirect is left on', async () => {
    routes['POST /api/auth/callback/credentials'] = () => json({ url: `${ORIGIN}/checkout` });
    expect(await signIn('credentials', { email: 'ada@example.com', password: 'pw', callbackUrl: '/checkout' })).toBeUndefined();
    expect(win.location.href).toBe(`${ORIGIN}/checkout`);
  });

  it('goes to the error page without providers and to the sign-in page for an unknown provider', async () => {
    routes['GET /api/auth/providers'] = () => json({ message: 'down' }, 500);
    await signIn('credentials', { redirect: false });
    expect(win.location.href).toBe('/api/auth/error');

    routes['GET /api/auth/providers'] = () => json(PROVIDERS);
    await signIn('github', { callbackUrl: '/account/orders' });
    expect(win.location.href).toBe('/auth/signin?callbackUrl=%2Faccount%2Forders');
    expect(posts('/api/auth/callback/credentials')).toHaveLength(0);
  });
});

describe('signOut', () => {
  beforeEach(() => {
    session.status = 'authenticated';
    session.data = SESSION;
    routes['POST /api/auth/signout'] = () => json({ url: `${ORIGIN}/auth/signin` });
  });

  it('posts csrfToken, callbackUrl and json=true, empties the store and goes to the answer url', async () => {
    await signOut({ callbackUrl: '/auth/signin' });
    expect(Object.fromEntries(posts('/api/auth/signout')[0]?.body ?? [])).toEqual({ callbackUrl: '/auth/signin', csrfToken: 'token-123', json: 'true' });
    expect(session).toMatchObject({ status: 'unauthenticated', data: null });
    expect(win.location.href).toBe(`${ORIGIN}/auth/signin`);
    expect(JSON.parse(win.store.get(SESSION_MESSAGE_KEY) ?? '{}')).toMatchObject({ event: 'signout' });
  });

  it('stays on the page with redirect off, and still signs the page out when the server fails', async () => {
    routes['POST /api/auth/signout'] = () => json({ message: 'down' }, 503);
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
    await settle();
    jest.advanceTimersByTime(300_000 * 2);
    await settle();
    expect(sessionFetches()).toBe(3);
    doc.dispatchEvent(new Event('visibilitychange'));
    await settle();
    expect(sessionFetches()).toBe(3);
    stop();
    jest.useRealTimers();
  });
});

it('sends a visitor without a session to sign-in with the path to return to', () => {
  expect(sessionRequiredPath('/account/orders?status=active')).toBe('/auth/signin?callbackUrl=%2Faccount%2Forders%3Fstatus%3Dactive&error=SessionRequired');
  expect(sessionRequiredPath('//evil.example/x')).toBe('/auth/signin?callbackUrl=%2Faccount%2Fdashboard&error=SessionRequired');
});
