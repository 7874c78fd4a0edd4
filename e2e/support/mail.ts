import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { runDir } from './test';

/** A message the bff sent through SMTP, as the loopback SMTP server (support/smtp-sink.mjs) received it. */
export interface ReceivedMail {
  to: string[];
  from: string | null;
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

function mailbox(): ReceivedMail[] {
  const dir = join(runDir(), 'mail');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as ReceivedMail);
}

/** Waits for the newest mail to `to` whose subject matches, and gives the first link in it that matches `link`. */
export async function linkFromMail(to: string, subject: RegExp, link: RegExp): Promise<URL> {
  let found: ReceivedMail | undefined;
  await expect
    .poll(
      () => {
        found = mailbox()
          .filter((mail) => mail.to.includes(to.toLowerCase()) && subject.test(mail.subject))
          .at(-1);
        return found?.subject;
      },
      { message: `a mail to ${to} with subject ${subject}` },
    )
    .toMatch(subject);
  const href = (found?.text ?? '').match(/https?:\/\/\S+/g)?.find((url) => link.test(url));
  if (!href) throw new Error(`no link matching ${link} in "${found?.subject}":\n${found?.text}`);
  return new URL(href);
}
