import { proxy } from 'valtio';
import * as z from 'zod/mini';
import { AUTH_BASE_PATH, AUTH_PATHS } from '@bimi/contracts/api-paths';
import { CLIENT_LOG_MESSAGE_LIMIT, CsrfAnswer, ProvidersAnswer, RedirectAnswer, SessionAnswer, SignedInSession } from '@bimi/contracts/session';

/**
 * The one session client of the site (spec §4, §7). It speaks the NextAuth client protocol
 * to the bff's /api/auth endpoints, and keeps the answer in a valtio store that every app
 * reads: the package is a Module Federation singleton, so the shell's header, the account
 * remote's pages and the idle timer all see the same session.
 */

/** Tabs tell each other about sign-in and sign-out through this localStorage key. */
export const SESSION_MESSAGE_KEY = 'bimi.session.message';

export type Session = z.infer<typeof SignedInSession>;
export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

export const session = proxy<{ status: SessionStatus; data: Session | null }>({ status: 'loading', data: null });

// The credentials callback and signout answer {url}; a rate-limited or refused one adds a message.
const UrlAnswer = z.partial(RedirectAnswer);

/** Sends a log line to the server without waiting (NextAuth's `_log` beacon, form-encoded). */
function logToServer(level: 'error' | 'warn' | 'debug', code: string, message: string): void {
  console[level === 'debug' ? 'log' : level](`[session] ${code}: ${message}`);
  // Within what the beacon takes (ClientLogForm): a longer message is cut, not refused.
  const body = new URLSearchParams({ level, code, message: message.slice(0, CLIENT_LOG_MESSAGE_LIMIT), client: 'true' });
  const url = AUTH_PATHS.log;
  try {
    if (typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, body)) return;
    void fetch(url, { method: 'POST', body, keepalive: true }).catch(() => {});
  } catch {
    // Logging must never break the page.
  }
}

/** GET an /api/auth endpoint and check its answer; failures are logged (spec §8) and give null. */
async function fetchAuth<T>(endpoint: string, schema: z.ZodMiniType<T>): Promise<T | null> {
  const url = `${AUTH_BASE_PATH}/${endpoint}`;
  try {
    const res = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return schema.parse(await res.json());
  } catch (error) {
    logToServer('error', 'CLIENT_FETCH_ERROR', `${url}: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

let early: Promise<SessionAnswer | null> | undefined;

const sameUser = (known: Session | null, fresh: Session) =>
  known !== null && known.user.name === fresh.user.name && known.user.email === fresh.user.email && known.user.image === fresh.user.image;

/**
 * Asks for the session while the page's code still starts (the shell's bootstrap); the first
 * getSession takes this answer instead of asking again. The store changes only in getSession,
 * so a server-rendered page still hydrates with the session it was rendered with ("loading" on a
 * public page; a signed-in account page's own, startWithRenderedSession). An account page the
 * server could not render for its visitor, which shows nothing before the session is known, saves
 * a round trip.
 */
export function prefetchSession(): void {
  early ??= fetchAuth('session', SessionAnswer);
}

/**
 * Starts the store with the session a signed-in page was rendered with (readPageState), before the
 * page hydrates: the browser's first render draws what the server drew. getSession still asks.
 */
export function startWithRenderedSession(data: Session): void {
  session.data = data;
  session.status = 'authenticated';
}

/**
 * Fetches the session and updates the store. A failed fetch is logged only: the store keeps
 * what it knew (a network blip on window focus does not sign anybody out), except that a
 * first fetch that fails ends "loading" as unauthenticated.
 */
export async function getSession(): Promise<Session | null> {
  const prefetched = early;
  early = undefined;
  const answer = await (prefetched ?? fetchAuth('session', SessionAnswer));
  if (answer === null) {
    if (session.status === 'loading') session.status = 'unauthenticated';
    return session.data;
  }
  const parsed = SignedInSession.safeParse(answer);
  // The same user as before changes nothing (only `expires`, which no page shows, moved): every
  // reader of the store would render again, and a server-rendered account page that was still
  // hydrating would be drawn anew (an update reaching a part not yet hydrated).
  if (parsed.success && session.status === 'authenticated' && sameUser(session.data, parsed.data)) return session.data;
  session.data = parsed.success ? parsed.data : null;
  session.status = parsed.success ? 'authenticated' : 'unauthenticated';
  return session.data;
}

export async function getCsrfToken(): Promise<string | null> {
  return (await fetchAuth('csrf', CsrfAnswer))?.csrfToken ?? null;
}

/** What a write says when no CSRF token could be had and the bff gave no words of its own. */
export const SERVICE_UNAVAILABLE_MESSAGE = 'The service is unavailable just now. Please try again in a few minutes.';
export const SERVER_UNREACHABLE_MESSAGE = 'The server could not be reached. Check your connection and try again.';

/** No CSRF token came, after the retries: `message` is fit to show, `status` is what the token endpoint answered (0: no answer). */
export class CsrfTokenUnavailable extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The waits before asking for the token again: a PostgreSQL restart answers 503 for a moment. */
const TOKEN_RETRY_DELAYS_MS = [300, 1000];

const messageOf = (data: unknown) => (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string' && data.message.trim() ? data.message : undefined);

/**
 * The CSRF token a write must carry, asked for again after a failure a retry may cure (no answer, a
 * 5xx, a 429). Never an empty token: when none comes it throws CsrfTokenUnavailable with the bff's
 * own words for a 503 (what is down) or ours, so the page says the service is unavailable instead
 * of sending a write the bff must refuse as "Missing or invalid CSRF token" (issue 31).
 */
export async function csrfTokenForWrite(): Promise<string> {
  const url = `${AUTH_BASE_PATH}/csrf`;
  let failure = new CsrfTokenUnavailable(SERVICE_UNAVAILABLE_MESSAGE, 0);
  for (let attempt = 0; ; attempt += 1) {
    let retry = true;
    try {
      const res = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
      const data: unknown = await res.json().catch(() => null);
      const token = res.ok ? CsrfAnswer.safeParse(data).data?.csrfToken : undefined;
      if (token) return token;
      failure = new CsrfTokenUnavailable((res.status === 503 && messageOf(data)) || SERVICE_UNAVAILABLE_MESSAGE, res.status);
      retry = res.status >= 500 || res.status === 429;
    } catch {
      failure = new CsrfTokenUnavailable(SERVER_UNREACHABLE_MESSAGE, 0);
    }
    const wait = TOKEN_RETRY_DELAYS_MS[attempt];
    if (!retry || wait === undefined) break;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  logToServer('error', 'CLIENT_FETCH_ERROR', `${url}: no token (HTTP ${failure.status}) after ${TOKEN_RETRY_DELAYS_MS.length + 1} attempts`);
  throw failure;
}

export async function getProviders(): Promise<ProvidersAnswer | null> {
  return fetchAuth('providers', ProvidersAnswer);
}

function tellOtherTabs(event: 'signin' | 'signout'): void {
  try {
    window.localStorage.setItem(SESSION_MESSAGE_KEY, JSON.stringify({ event, at: Date.now() }));
  } catch {
    // No storage (private mode): other tabs catch up on their next focus.
  }
}

/** Posts the form NextAuth's endpoints expect: the CSRF token, the callback URL and json=true. */
async function postAuthForm(endpoint: string, fields: Record<string, string>) {
  const csrfToken = await csrfTokenForWrite();
  const res = await fetch(`${AUTH_BASE_PATH}/${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    credentials: 'same-origin',
    body: new URLSearchParams({ ...fields, csrfToken, json: 'true' }),
  });
  const parsed = UrlAnswer.safeParse(await res.json().catch(() => ({})));
  return { res, answer: parsed.success ? parsed.data : {} };
}

export interface SignInOptions {
  email?: string;
  password?: string;
  /** Where to go once signed in; the current page by default. */
  callbackUrl?: string;
  /** false: stay on the page and get the result back instead of navigating. */
  redirect?: boolean;
}

export interface SignInResult {
  ok: boolean;
  status: number;
  /** NextAuth's error code (CredentialsSignin for a wrong email or password), or null. */
  error: string | null;
  /** Where the server sends the user, when it succeeded. */
  url: string | null;
  /** The server's own message, when it sent one (for example when rate limited). */
  message?: string;
}

/**
 * NextAuth's `signIn`: with no providers the user goes to the error page, with an unknown
 * provider to the sign-in page; credentials are posted form-encoded to the callback endpoint.
 */
export async function signIn(provider: string, options: SignInOptions = {}): Promise<SignInResult | undefined> {
  const { callbackUrl = window.location.href, redirect = true, ...credentials } = options;
  const providers = await getProviders();
  if (!providers) {
    window.location.href = AUTH_PATHS.errorPage;
    return undefined;
  }
  const chosen = providers[provider];
  if (!chosen) {
    window.location.href = `/auth/signin?${new URLSearchParams({ callbackUrl })}`;
    return undefined;
  }
  const fields: Record<string, string> = { callbackUrl };
  for (const [key, value] of Object.entries(credentials)) if (typeof value === 'string') fields[key] = value;
  const endpoint = chosen.type === 'credentials' ? `callback/${provider}` : `signin/${provider}`;

  let res: Response;
  let answer: z.infer<typeof UrlAnswer>;
  try {
    ({ res, answer } = await postAuthForm(endpoint, fields));
  } catch (error) {
    // No token to sign in with: the service is down for a moment, not the password wrong.
    if (error instanceof CsrfTokenUnavailable) return { ok: false, status: error.status || 503, error: 'ServiceUnavailable', url: null, message: error.message };
    logToServer('error', 'CLIENT_FETCH_ERROR', `sign-in: ${error instanceof Error ? error.message : String(error)}`);
    return { ok: false, status: 0, error: 'NetworkError', url: null };
  }
  const url = answer.url ?? null;
  const errorInUrl = url ? new URL(url, window.location.origin).searchParams.get('error') : null;
  const error = errorInUrl ?? (res.status === 401 ? 'CredentialsSignin' : res.ok ? null : 'SignInFailed');
  if (res.ok && !error) {
    await getSession();
    tellOtherTabs('signin');
    if (redirect) {
      window.location.href = url ?? callbackUrl;
      return undefined;
    }
  }
  const result: SignInResult = { ok: res.ok && !error, status: res.status, error, url: error ? null : url };
  if (answer.message) result.message = answer.message;
  return result;
}

export interface SignOutOptions {
  callbackUrl?: string;
  redirect?: boolean;
}

/** NextAuth's `signOut`: ends the server session, empties the store and (by default) navigates. */
export async function signOut(options: SignOutOptions = {}): Promise<{ url: string } | undefined> {
  const { callbackUrl = window.location.href, redirect = true } = options;
  let url = callbackUrl;
  try {
    const { res, answer } = await postAuthForm('signout', { callbackUrl });
    if (!res.ok) throw new Error(answer.message ?? `HTTP ${res.status}`);
    url = answer.url ?? callbackUrl;
  } catch (error) {
    logToServer('error', 'CLIENT_FETCH_ERROR', `sign-out: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Whatever the server said, this page stops showing the user as signed in.
  session.data = null;
  session.status = 'unauthenticated';
  tellOtherTabs('signout');
  if (redirect) {
    window.location.href = url;
    return undefined;
  }
  return { url };
}

export interface SessionSyncOptions {
  /** Refetch when the tab becomes visible again (NextAuth's refetchOnWindowFocus); on by default. */
  refetchOnWindowFocus?: boolean;
  /** Refetch every so many seconds while the browser is online; 0 (the default) never. */
  refetchIntervalSeconds?: number;
}

let syncing = false;

/**
 * Fetches the session once, then keeps it fresh: on window focus, on an optional interval and
 * when another tab signs in or out. Returns the function that stops it.
 */
export function startSessionSync(options: SessionSyncOptions = {}): () => void {
  if (syncing) return () => {};
  syncing = true;
  const { refetchOnWindowFocus = true, refetchIntervalSeconds = 0 } = options;
  void getSession();

  const onVisibility = () => {
    if (document.visibilityState === 'visible') void getSession();
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key === SESSION_MESSAGE_KEY) void getSession();
  };
  if (refetchOnWindowFocus) document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('storage', onStorage);
  const timer =
    refetchIntervalSeconds > 0
      ? window.setInterval(() => {
          if (navigator.onLine !== false) void getSession();
        }, refetchIntervalSeconds * 1000)
      : undefined;

  return () => {
    syncing = false;
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('storage', onStorage);
    if (timer !== undefined) window.clearInterval(timer);
  };
}
