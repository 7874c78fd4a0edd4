import type { MailMessage } from '../src/services/mail/message';
import { emailChangeAttemptMail, emailChangeMail, invitationMail, passwordResetMail, signUpAttemptMail, verificationMail } from '../src/services/mail/account-mails';
import { monitorAlertMail } from '../src/services/mail/monitor-mails';
import { orderConfirmationMail, paymentFailedMail, paymentReceiptMail, renewalReminderMail, type MailOrder } from '../src/services/mail/order-mails';

// Issue 32, finding 6: a link at the end of a sentence took the sentence's "." with it, and a mail
// program that keeps it opens a 404. No link in any mail the store sends is followed by punctuation.
const BASE = 'https://store.example';
const order: MailOrder = {
  id: 'ord_1',
  number: 'O-000123',
  productName: 'Verified Mark Certificate',
  description: '1 domain · 1 year',
  amount: 149900,
  interval: 'year',
  intervalCount: 1,
  needsDetails: true,
};
const issue = { checkId: 'dmarc.policy.none', group: 'dmarc' as const, status: 'warn' as const, title: 'Policy is none', detail: 'd', fix: 'Move to p=quarantine.' };

const MAILS: [string, MailMessage][] = [
  ['verification', verificationMail('a@example.com', 'Ann', BASE, 'tok')],
  ['email change', emailChangeMail('a@example.com', 'Ann', BASE, 'tok')],
  ['password reset', passwordResetMail('a@example.com', 'Ann', BASE, 'tok')],
  ['invitation', invitationMail('a@example.com', 'Bob', 'Acme', 'member', BASE, 'tok')],
  ['sign-up attempt', signUpAttemptMail('a@example.com', 'Ann', BASE)],
  ['email change attempt', emailChangeAttemptMail('a@example.com', 'Ann', BASE)],
  ['monitor alert', monitorAlertMail('a@example.com', 'Ann', BASE, { domain: 'example.com', scoreDrop: { from: 90, to: 40 }, changes: [], topIssues: [issue] })],
  ['order confirmation', orderConfirmationMail('a@example.com', 'Ann', BASE, [order])],
  [
    'payment receipt',
    paymentReceiptMail('a@example.com', 'Ann', BASE, {
      receiptNumber: 'R-1',
      date: '2026-01-01T00:00:00.000Z',
      amount: 149900,
      orderNumbers: ['O-000123'],
      lines: [{ description: 'VMC', amount: 149900 }],
      testPayment: false,
    }),
  ],
  ['payment failed', paymentFailedMail('a@example.com', 'Ann', BASE, { amount: 149900, failureMessage: 'Your card was declined.', orders: [{ id: 'ord_1', number: 'O-000123' }] })],
  ['renewal reminder', renewalReminderMail('a@example.com', 'Ann', BASE, { order, periodEnd: '2027-01-01T00:00:00.000Z', daysAhead: 30, renews: true })],
];

describe('links in mails', () => {
  it.each(MAILS)('the %s mail: every link stands free of punctuation', (_name, mail) => {
    const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect({ link, trailing: /[.,;:!?)\]'"]$/.test(link) }).toEqual({ link, trailing: false });
  });
});
