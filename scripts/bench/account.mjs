// A signed-in account for the benchmark of the account pages: without a session, /account/* sends
// the visitor to the sign-in page, and measuring that would measure the sign-in page. The bff the
// benchmark starts keeps mail in its development outbox (GET /dev/outbox), so the account is made
// the way a person makes one: sign-up, the verification link from the mail, sign-in.
import { randomUUID } from 'node:crypto';

const PASSWORD = 'Benchmark of the account area 2026';

/** Every cookie a response set, as `name=value` pairs. */
function cookiesOf(response) {
  return response.headers.getSetCookie().map((line) => line.split(';')[0]);
}

async function call(baseUrl, path, { cookies = [], ...init } = {}) {
  const response = await fetch(new URL(path, baseUrl), { ...init, headers: { ...init.headers, cookie: cookies.join('; ') }, redirect: 'manual' });
  if (response.status >= 400) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return response;
}

/**
 * Signs up, verifies and signs in a new account on the bff at `baseUrl`; returns the Cookie header
 * value of its session (with the CSRF cookie), for Lighthouse's extraHeaders and Playwright.
 */
export async function signedInCookieHeader(baseUrl) {
  const csrf = await call(baseUrl, '/api/auth/csrf');
  const cookies = cookiesOf(csrf);
  const { csrfToken } = await csrf.json();
  const json = { 'content-type': 'application/json', 'x-csrf-token': csrfToken };
  const email = `bench-${randomUUID().slice(0, 8)}@example.com`;

  await call(baseUrl, '/api/auth/signup', { method: 'POST', cookies, headers: json, body: JSON.stringify({ name: 'Ada Lovelace', email, password: PASSWORD }) });
  const { messages } = await (await call(baseUrl, '/dev/outbox')).json();
  const link = messages
    .find((message) => message.to === email)
    ?.links.map((href) => new URL(href))
    .find((url) => url.pathname === '/auth/verify');
  const token = link?.searchParams.get('token');
  if (!token) throw new Error(`no verification link for ${email} in /dev/outbox (is SMTP_URL set?)`);
  await call(baseUrl, '/api/auth/verify', { method: 'POST', cookies, headers: json, body: JSON.stringify({ token }) });

  const signIn = await call(baseUrl, '/api/auth/callback/credentials', {
    method: 'POST',
    cookies,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrfToken, email, password: PASSWORD, callbackUrl: '/account/dashboard', json: 'true' }),
  });
  const session = cookiesOf(signIn);
  if (!session.length) throw new Error('signing in set no session cookie');
  return [...cookies, ...session].join('; ');
}
