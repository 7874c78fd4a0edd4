import { AUTH_PATHS, CSRF_HEADER } from '@bimi/contracts/auth';
import { expect, expectRemotePage, test, untilPageReady } from '../support/test';
import { newUser, signInWithForm, VERIFY_MAIL } from '../support/account';
import { linkFromMail } from '../support/mail';

/** What the verify page says of a link already followed by the verified account (issue 32): not "invalid… get a new one". */
const USED_LINK = 'This link was already used: your email address is verified. You can sign in.';

/** Issue 4: a visitor signs up, verifies the address from the mail, signs in, edits the profile and signs out. */
test('sign up, verify by mail, sign in, change the profile, sign out', async ({ page }) => {
  const user = newUser();

  await page.goto('/auth/signup');
  await expectRemotePage(page, 'account', 'Create your account');
  const form = page.getByRole('form', { name: 'Create your account' });

  // The shared zod rules answer before anything is sent…
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(form.getByText('Name is required')).toBeVisible();
  await expect(form.getByText('Email is required')).toBeVisible();

  // …and the password rule is shown live.
  const rules = page.getByTestId('password-rules');
  await form.getByLabel('Password', { exact: true }).fill('short');
  await expect(rules.getByText('At least 10 characters')).toHaveAttribute('data-met', 'false');
  await expect(rules.getByText('A letter')).toHaveAttribute('data-met', 'true');
  await form.getByLabel('Name').fill(user.name);
  await form.getByLabel('Email').fill(user.email);
  await form.getByLabel('Password', { exact: true }).fill(user.password);
  await expect(rules.locator('[data-met=false]')).toHaveCount(0);
  await form.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL(`/auth/check-email?email=${encodeURIComponent(user.email)}`);
  await expect(page.getByText(user.email)).toBeVisible();

  // Signing up twice with the same address answers as the first time (sign-up never tells who has
  // an account); the account, not verified yet, gets a fresh verification link.
  await page.goto('/auth/signup');
  await form.getByLabel('Name').fill(user.name);
  await form.getByLabel('Email').fill(user.email);
  await form.getByLabel('Password', { exact: true }).fill(user.password);
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(`/auth/check-email?email=${encodeURIComponent(user.email)}`);

  // Not verified yet: signing in is refused with the reason.
  await page.goto('/auth/signin');
  await signInWithForm(page, user);
  await expect(page.getByRole('alert')).toContainText('Please verify your email address first');

  // The link in the mail (over SMTP) verifies the address.
  const link = await linkFromMail(user.email, VERIFY_MAIL, /\/auth\/verify\?token=/);
  await page.goto(link.pathname + link.search);
  // The heading and the document title follow the outcome (issue 17), not the routes.json "Verify your email".
  await expectRemotePage(page, 'account', 'Email verified');
  await expect(page.locator('h1')).toHaveText('Email verified');
  await expect(page.getByRole('alert')).toHaveText('Your email address is verified. You can sign in now.');
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page.getByText('Your email address is verified')).toBeVisible();

  // The link works once: followed again, the page says it was used and the address is verified…
  await page.goto(link.pathname + link.search);
  await expectRemotePage(page, 'account', 'Email verified');
  await expect(page.locator('h1')).toHaveText('Email verified');
  await expect(page.getByRole('alert')).toHaveText(USED_LINK);
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  // …and the verify API says the same, changing nothing.
  const { csrfToken } = (await (await page.request.get(AUTH_PATHS.csrf)).json()) as { csrfToken: string };
  const reused = await page.request.post(AUTH_PATHS.verify, { data: { token: link.searchParams.get('token') }, headers: { [CSRF_HEADER]: csrfToken } });
  expect(reused.status()).toBe(200);
  expect(await reused.json()).toEqual({ purpose: 'signup', email: user.email, message: USED_LINK });
  await page.goBack();
  await expect(page).toHaveURL(/\/auth\/signin\?message=verified&email=/);
  // Back is a new document (no back-forward cache): the server's HTML, hydrated a moment later.
  await untilPageReady(page);

  // A wrong password is refused with the CredentialsSignin message.
  const signIn = page.getByRole('form', { name: 'Sign in' });
  await expect(signIn.getByLabel('Email')).toHaveValue(user.email);
  await signIn.getByLabel('Password').fill('not the password 1');
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await expect(signIn.getByRole('alert')).toHaveText('The email or password is incorrect.');

  await signIn.getByLabel('Password').fill(user.password);
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL('/account/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Ada');
  await expect(page.getByTestId('sidebar-user-menu')).toContainText(user.email);

  // The profile: a new name shows in the dashboard greeting at once.
  await page.getByTestId('account-sidebar').getByRole('button', { name: 'Settings' }).click();
  await page.getByTestId('account-sidebar').getByRole('link', { name: 'Profile' }).click();
  await expectRemotePage(page, 'account', 'Profile');
  const nameForm = page.getByRole('form', { name: 'Your name' });
  await nameForm.getByLabel('Name').fill('');
  await nameForm.getByRole('button', { name: 'Save name' }).click();
  await expect(nameForm.getByText('Name is required')).toBeVisible();
  await nameForm.getByLabel('Name').fill('Augusta Ada King');
  await nameForm.getByRole('button', { name: 'Save name' }).click();
  await expect(nameForm.getByText('Your name was saved.')).toBeVisible();

  // A wrong current password is the server's to refuse.
  const passwordForm = page.getByRole('form', { name: 'Change password' });
  await passwordForm.getByLabel('Current password').fill('not the password 1');
  await passwordForm.getByLabel('New password', { exact: true }).fill('Difference engine 1822');
  await passwordForm.getByRole('button', { name: 'Change password' }).click();
  // Issue 32: in words, under the field it is about, never with the field's code name ("currentPassword: …").
  await expect(passwordForm.getByText('The current password is incorrect')).toBeVisible();
  await expect(passwordForm.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  await expect(passwordForm).not.toContainText('currentPassword');

  await page.getByTestId('account-sidebar').getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Augusta');

  // The header of the public site shows the user menu instead of the sign-in icon.
  await page.goto('/');
  await expect(page.getByTestId('sign-in-link')).toHaveCount(0);
  await expect(page.getByTestId('floating-dashboard')).toBeVisible();
  await page.getByTestId('user-menu-button').click();
  const menu = page.getByTestId('user-menu');
  for (const label of ['Dashboard', 'Profile', 'Orders', 'Billing', 'Manage Data', 'Support']) await expect(menu.getByRole('link', { name: label })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Manage Data' })).toHaveAttribute('href', '/account/settings/organizations');
  await expect(menu).toContainText(user.email);

  // Sign out returns to the sign-in page, and the account area is closed again.
  await menu.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL('/auth/signin');
  expect(await (await page.request.get('/api/auth/session')).json()).toEqual({});
  await page.goto('/account/dashboard');
  await expect(page).toHaveURL('/auth/signin?callbackUrl=%2Faccount%2Fdashboard&error=SessionRequired');

  // Someone signs up with the now verified address: the same page as a new sign-up, and the owner
  // gets a mail saying so, with a way to sign in and to reset the password.
  await page.goto('/auth/signup');
  await form.getByLabel('Name').fill('Someone Else');
  await form.getByLabel('Email').fill(user.email);
  await form.getByLabel('Password', { exact: true }).fill('Another password 99');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(`/auth/check-email?email=${encodeURIComponent(user.email)}`);
  await expect(page.getByText('If this address already has an account, the email says so')).toBeVisible();
  const signInLink = await linkFromMail(user.email, /^Someone tried to sign up/, /\/auth\/signin\?email=/);
  await page.goto(signInLink.pathname + signInLink.search);
  await expect(page.getByRole('form', { name: 'Sign in' }).getByLabel('Email')).toHaveValue(user.email);
});
