import { randomUUID } from 'node:crypto';
import type { Browser, Cookie, Page } from '@playwright/test';
import { AUTH_PATHS, CSRF_HEADER } from '@bimi/contracts/auth';
import { expect } from './test';
import { linkFromMail } from './mail';

export interface TestUser {
  name: string;
  email: string;
  password: string;
}

/** A user no other test uses (the flows run in parallel against one database). */
export function newUser(name = 'Ada Lovelace'): TestUser {
  return { name, email: `ada-${randomUUID().slice(0, 8)}@example.com`, password: 'Analytical engine 1843' };
}

export const VERIFY_MAIL = /^Verify your email address/;

/**
 * Creates a verified account the way a person does, minus the typing: the bff's sign-up call,
 * the verification mail over SMTP, and the link in it. The sign-up page itself is the
 * subject of the sign-up flow.
 */
export async function createVerifiedAccount(page: Page, user: TestUser = newUser()): Promise<TestUser> {
  const { csrfToken } = (await (await page.request.get(AUTH_PATHS.csrf)).json()) as { csrfToken: string };
  const signUp = await page.request.post(AUTH_PATHS.signUp, { data: user, headers: { [CSRF_HEADER]: csrfToken } });
  expect(signUp.status(), await signUp.text()).toBe(201);
  const link = await linkFromMail(user.email, VERIFY_MAIL, /\/auth\/verify\?token=/);
  const verify = await page.request.post(AUTH_PATHS.verify, { data: { token: link.searchParams.get('token') }, headers: { [CSRF_HEADER]: csrfToken } });
  expect(verify.status(), await verify.text()).toBe(200);
  return user;
}

/** Signs in through the sign-in page, which is where the user lands afterwards is up to the caller. */
export async function signInWithForm(page: Page, user: TestUser): Promise<void> {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(user.email);
  await form.getByLabel('Password').fill(user.password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

/** A verified user, signed in, on the dashboard. */
export async function signedInOnDashboard(page: Page): Promise<TestUser> {
  const user = await createVerifiedAccount(page);
  await page.goto('/auth/signin?callbackUrl=%2Faccount%2Fdashboard');
  await signInWithForm(page, user);
  await expect(page).toHaveURL('/account/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Ada');
  return user;
}

/**
 * Signs in over the NextAuth protocol of spec §7 (csrf, then the credentials callback), as
 * the session client does; the cookie lands in the page's browser context.
 */
export async function signInByApi(page: Page, user: TestUser): Promise<void> {
  const { csrfToken } = (await (await page.request.get(AUTH_PATHS.csrf)).json()) as { csrfToken: string };
  const answer = await page.request.post(AUTH_PATHS.credentialsCallback, {
    form: { csrfToken, email: user.email, password: user.password, callbackUrl: '/account/dashboard', json: 'true' },
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

/**
 * The cookies of a new verified account, signed in: for a worker-scoped fixture, one account per
 * worker (sign-up is rate limited per address, and tools only need a session, not a fresh user).
 */
export async function signedInAccountCookies(browser: Browser, baseURL: string | undefined): Promise<Cookie[]> {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    await signInByApi(page, await createVerifiedAccount(page));
    return await context.cookies();
  } finally {
    await context.close();
  }
}
