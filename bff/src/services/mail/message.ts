import type { NotificationPreferences, NotificationTopic } from '@bimi/contracts/account';

/** One mail as the store writes it; plugins/app/mail/mailer.ts sends it. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * A header value (recipient, subject) holding a control character: a CR or LF would start a new
 * header (Bcc: …) or the body. Mail texts build headers from checked or one-lined text
 * (services/mail/*-mails.ts); this is the last line of defence, so such a mail is never sent.
 */
export function headerProblem(message: Pick<MailMessage, 'to' | 'subject'>): string | null {
  for (const [header, value] of [
    ['to', message.to],
    ['subject', message.subject],
  ] as const) {
    // eslint-disable-next-line no-control-regex -- control characters are what this refuses
    if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u.test(value)) return `mail refused: the ${header} header holds a line break or control character`;
  }
  return null;
}

/** Whether a user who chose `preferences` gets a mail on `topic`; a mail of no topic (a reminder of a plan's renewal) always goes. */
export function wantsMail(preferences: NotificationPreferences, topic: NotificationTopic | null): boolean {
  return topic === null || preferences[topic];
}
