import { INVITE_LIFETIME_DAYS, INVITE_PAGE_PATH } from '@bimi/contracts/account';
import { SITE_NAME } from '@bimi/contracts/site';
import type { MailMessage } from '../plugins/app/mailer';

/** The texts of the mails the account area sends; each link is absolute, built on the site's public URL. */
export function verificationMail(to: string, name: string, baseUrl: string, token: string): MailMessage {
  return {
    to,
    subject: `Verify your email address for ${SITE_NAME}`,
    text: `Hello ${name},

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
    text: `Hello ${name},

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
    text: `Hello ${name},

Someone asked to reset the password of your ${SITE_NAME} account. To choose a new one, open this link:

${baseUrl}/auth/reset-password?token=${token}

The link works once, for one hour. If you did not ask for this, ignore this message: your password stays as it is.
`,
  };
}

export function invitationMail(to: string, inviterName: string, organizationName: string, role: string, baseUrl: string, token: string): MailMessage {
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
