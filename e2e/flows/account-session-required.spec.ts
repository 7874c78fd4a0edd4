import { expect, expectRemotePage, test } from '../support/test';
import { createVerifiedAccount, signInWithForm } from '../support/account';

/** Spec §6, §7: account routes need a session; sign-in gets callbackUrl and error=SessionRequired, then returns there. */
test('an account page without a session goes to sign-in and comes back after it', async ({ page }) => {
  // The account pages come with their loading frame in the first HTML (issue 14): each full load
  // below hydrates it, signed out and signed in, with no mismatch.
  const hydrationProblems: string[] = [];
  page.on('console', (message) => {
    if (/hydrat/i.test(message.text())) hydrationProblems.push(message.text());
  });
  const user = await createVerifiedAccount(page);

  await page.goto('/account/settings/contacts?from=mail');
  await expect(page).toHaveURL('/auth/signin?callbackUrl=%2Faccount%2Fsettings%2Fcontacts%3Ffrom%3Dmail&error=SessionRequired');
  await expectRemotePage(page, 'account', 'Sign in');
  await expect(page.getByText('Please sign in to continue.')).toBeVisible();
  // The header is signed out: the public site shows the sign-in icon.
  await signInWithForm(page, user);

  await expect(page).toHaveURL('/account/settings/contacts?from=mail');
  await expectRemotePage(page, 'account', 'Contacts');

  // Contacts: the shared rules, then the server saves one and it is listed under its kind.
  const form = page.getByRole('form', { name: 'Add a contact' });
  await form.getByRole('button', { name: 'Add contact' }).click();
  await expect(form.getByText('Name is required')).toBeVisible();
  await form.getByLabel('Name').fill('Grace Hopper');
  await form.getByLabel('Email').fill('grace@example.com');
  await form.getByRole('button', { name: 'Add contact' }).click();
  await expect(page.getByTestId('contacts-technical')).toContainText('Grace Hopper');
  await page.reload();
  await expect(page.getByTestId('contacts-technical')).toContainText('grace@example.com');

  // A tool page of another remote is an account route too: the session carries over.
  await page.goto('/account/tools/spf-lookup');
  await expect(page).toHaveURL('/account/tools/spf-lookup');

  // A return address on another site is not followed.
  await page.context().clearCookies();
  await page.goto('/auth/signin?callbackUrl=https%3A%2F%2Fevil.example%2F');
  await signInWithForm(page, user);
  await expect(page).toHaveURL('/account/dashboard');
  expect(hydrationProblems).toEqual([]);
});
