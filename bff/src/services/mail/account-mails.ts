import { INVITE_LIFETIME_DAYS, INVITE_PAGE_PATH } from '@bimi/contracts/account';
import { toOneLine } from '@bimi/contracts/human-text';
import { SITE_NAME } from '@bimi/contracts/site';
import type { MailMessage } from './message';

/**
 * The texts of the mails the account area sends; each link is absolute, built on the site's public URL.
 * Names and organization names are checked human text when stored (@bimi/contracts/human-text);
 * they go into a subject or greeting through toOneLine all the same, so a row stored before that
 * rule, or by another path, can neither break a header nor turn text around with a bidi override.
 */
export function verificationMail(to: string, name: string, baseUrl: string, token: string): MailMessage {
  return {
    to,
    subject: `Verify your email address for ${SITE_NAME}`,
    text: `Hello ${toOneLine(name)},

Thanks for signing up. Please confirm your email address by opening this link:

${baseUrl}/auth/verify?token=${token}

The link works once, for 24 hours. If you did not sign up, you can ignore this message.
`,
  };
}

export function emailChangeMail(to: string, name: string, baseUrl: string, token: string): MailMessage {
  return {
    to,
    subject: `Confirm your new email address for ${SITE_NAME}`,
    text: `Hello ${toOneLine(name)},

You asked to use this address for your ${SITE_NAME} account. Confirm it by opening this link:

${baseUrl}/auth/verify?token=${token}

The link works once, for 24 hours. Until then your account keeps its current address. If you did not ask for this, ignore this message.
`,
  };
}

export function passwordResetMail(to: string, name: string, baseUrl: string, token: string): MailMessage {
  return {
    to,
    subject: `Reset your ${SITE_NAME} password`,
    text: `Hello ${toOneLine(name)},

Someone asked to reset the password of your ${SITE_NAME} account. To choose a new one, open this link:

${baseUrl}/auth/reset-password?token=${token}

The link works once, for one hour. If you did not ask for this, ignore this message: your password stays as it is.
`,
  };
}

export function invitationMail(to: string, inviter: string, organization: string, role: string, baseUrl: string, token: string): MailMessage {
  const inviterName = toOneLine(inviter, 100);
  const organizationName = toOneLine(organization, 100);
  return {
    to,
    subject: `${inviterName} invited you to ${organizationName} on ${SITE_NAME}`,
    text: `Hello,

${inviterName} invited you to join ${organizationName} on ${SITE_NAME} as ${role === 'owner' ? 'an owner' : 'a member'}.
Sign in (or sign up with this address), then open this link to accept:

${baseUrl}${INVITE_PAGE_PATH}?invite=${token}

The invitation is valid for ${INVITE_LIFETIME_DAYS} days.
`,
  };
}

/**
 * Sent instead of a verification mail when someone signs up with the address of an existing,
 * verified account: the sign-up answer is the same either way (it must not tell who has an
 * account), so the owner learns here what happened and where to go.
 */
export function signUpAttemptMail(to: string, name: string, baseUrl: string): MailMessage {
  return {
    to,
    subject: `Someone tried to sign up for ${SITE_NAME} with your address`,
    text: `Hello ${toOneLine(name)},

Someone, maybe you, tried to create a ${SITE_NAME} account with this email address. You already have an account, so no new one was made and nothing changed in yours.

To sign in:

${baseUrl}/auth/signin?${new URLSearchParams({ email: to })}

If you forgot your password, choose a new one here:

${baseUrl}/forgot-password

If it was not you, you can ignore this message: your account and password stay as they are.
`,
  };
}

/**
 * Sent instead of the confirmation link when a signed-in user asks to move their account to the
 * address of another account: the answer is the same either way (it must not tell who has an
 * account), so the owner of the address learns here that nothing changed.
 */
export function emailChangeAttemptMail(to: string, name: string, baseUrl: string): MailMessage {
  return {
    to,
    subject: `Someone asked to use your address for another ${SITE_NAME} account`,
    text: `Hello ${toOneLine(name)},

Someone signed in to another ${SITE_NAME} account asked to change that account's email address to this one. It already belongs to your account, so nothing changed: no other account can use it, and yours stays as it is.

To sign in:

${baseUrl}/auth/signin?${new URLSearchParams({ email: to })}

If you did this from a second account of yours, sign in there and choose another address.
`,
  };
}
