import type { InvoicePaymentFailed } from '../src/services/payments/provider';
import { Browser, GOOD_PASSWORD, startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';
import { type SmtpFixture, startSmtpServer } from './smtp-fixture';
import { advance, apply, DAY, detailsFor, eventId, paidEvents, placeCheckout, VMC_3_DOMAINS_1_YEAR } from './orders-fixtures';

jest.setTimeout(60_000);

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Signs up, verifies with the link the SMTP server received, signs in. */
async function smtpBuyer(store: IdentityStore, smtp: SmtpFixture, name: string, email: string) {
  const browser = new Browser(store.app);
  expect((await browser.write('POST', '/api/auth/signup', { name, email, password: GOOD_PASSWORD })).statusCode).toBe(201);
  const link = (smtp.messages.at(-1)?.text ?? '')
    .match(/https?:\/\/\S+/g)
    ?.map((candidate) => new URL(candidate))
    .find((url) => url.pathname === '/auth/verify');
  expect((await browser.write('POST', '/api/auth/verify', { token: link?.searchParams.get('token') })).statusCode).toBe(200);
  expect((await browser.signIn(email, GOOD_PASSWORD)).statusCode).toBe(200);
  const { id } = await store.app.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return { browser, userId: id, email };
}

const DMARC_PLUS_ANNUAL = { productId: 'dmarc-plus', emailVolume: 1_000_000, billingPeriod: 'annual' as const };

describe.each(storageEngines())('order mail over SMTP on $name', (engine) => {
  it("confirms the order, sends the receipt and the payment failure, and reminds 30 and 7 days before renewal, each once (start-up run included), as the user's preferences allow", async () => {
    const smtp = await startSmtpServer();
    const store = await startIdentityStore(engine, { SMTP_URL: smtp.url, MAIL_FROM: 'BIMI Store <no-reply@store.test>' });
    let revived: Awaited<ReturnType<typeof startSmtpServer>> | undefined;
    try {
      const jane = await smtpBuyer(store, smtp, 'Jane Doe', 'jane@example.com');
      smtp.messages.length = 0;
      const checkout = await placeCheckout(store, jane.userId, [VMC_3_DOMAINS_1_YEAR, DMARC_PLUS_ANNUAL]);
      const [vmc, dmarc] = checkout.orders;
      if (!vmc || !dmarc) throw new Error('two orders expected');
      const start = store.clock.now;
      const end = start + 365 * DAY;
      const paid = paidEvents(checkout, start, [end, end]);
      await apply(store, paid.invoicePaid, paid.checkoutCompleted);

      expect(smtp.messages.map((mail) => mail.subject)).toEqual([
        `Your BIMI Store orders ${vmc.number}, ${dmarc.number} are confirmed`,
        expect.stringMatching(/^Your BIMI Store receipt R-[0-9A-F]{8}$/),
      ]);
      const [confirmation, receipt] = smtp.messages;
      expect(confirmation?.text).toContain(`http://store.test/account/orders/${vmc.id}`);
      expect(confirmation?.text).toContain('add the details of your certificate');
      expect(receipt?.text).toContain(`We received your payment of $${(paid.invoicePaid.amountPaid / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
      expect(receipt?.text).toContain('http://store.test/account/billing/transactions');

      await jane.browser.write('PUT', `/api/account/orders/${vmc.id}/details`, await detailsFor(jane, ['example.com', 'example.net', 'example.org']));
      await store.app.fulfilment.issue(vmc.id, null);
      smtp.messages.length = 0;

      // Far from the end: nothing. 30 days before: one reminder per order; a second run sends nothing more.
      expect(await store.app.jobs.runNow('renewal-reminders')).toBe(0);
      await advance(store, 335 * DAY, jane);
      expect(await store.app.jobs.runNow('renewal-reminders')).toBe(2);
      expect(await store.app.jobs.runNow('renewal-reminders')).toBe(0);
      const when = new Date(end).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
      expect(smtp.messages.map((mail) => mail.subject).sort()).toEqual([`DMARC Plus ${dmarc.number} renews on ${when}`, `Verified Mark Certificate ${vmc.number} renews on ${when}`]);
      expect(smtp.messages[0]?.text).toContain('in 30 days');

      // The buyer turns certificate expiry reminders off; 7 days before, after a restart, the start-up run sends the plan's only.
      const preferences = await jane.browser.write('PUT', '/api/account/notifications', {
        orderUpdates: true,
        certificateExpiry: false,
        monitorAlerts: true,
        billingReceipts: true,
        productNews: false,
      });
      expect(preferences.statusCode).toBe(200);
      smtp.messages.length = 0;
      store.advance(23 * DAY);
      await store.restart();
      await until(() => smtp.messages.length >= 1, 'the start-up reminder');
      jane.browser = new Browser(store.app);
      expect((await jane.browser.signIn(jane.email, GOOD_PASSWORD)).statusCode).toBe(200);
      expect(await store.app.jobs.runNow('renewal-reminders')).toBe(0);
      expect(smtp.messages.map((mail) => mail.subject)).toEqual([`DMARC Plus ${dmarc.number} renews on ${when}`]);
      expect(smtp.messages[0]?.text).toContain('in 7 days');
      expect(await store.app.db.selectFrom('renewal_reminders').select(['order_id', 'days_ahead']).orderBy('days_ahead').execute()).toHaveLength(4);

      // The renewal charge fails: the mail links to where the card is fixed.
      smtp.messages.length = 0;
      const failed: InvoicePaymentFailed = {
        eventId: eventId(),
        occurredAt: store.clock.now,
        kind: 'invoice.payment_failed',
        invoiceRef: 'in_renewal',
        subscriptionRef: paid.subscriptionRef,
        customerRef: 'cus_test',
        checkoutId: null,
        amountDue: dmarc.amount,
        currency: 'usd',
        failureMessage: 'Your card was declined.',
        lines: [{ orderId: dmarc.id, itemRef: paid.itemRefs[1] ?? null, description: dmarc.description, amount: dmarc.amount, periodStart: end, periodEnd: end + 365 * DAY }],
      };
      expect(await apply(store, failed)).toEqual(['applied']);
      expect(smtp.messages.map((mail) => mail.subject)).toEqual(['Your BIMI Store payment did not go through']);
      expect(smtp.messages[0]?.text).toContain('The card issuer said: Your card was declined.');
      expect(smtp.messages[0]?.text).toContain('http://store.test/account/billing/payment-methods');
      expect(smtp.messages[0]?.text).toContain(`http://store.test/account/orders/${dmarc.id}`);

      // With the mail server gone, an event is still applied (the mail failure is only logged).
      await smtp.close();
      const next = await placeCheckout(store, jane.userId, [DMARC_PLUS_ANNUAL]);
      const nextPaid = paidEvents(next, store.clock.now, [store.clock.now + 365 * DAY]);
      expect(await apply(store, nextPaid.invoicePaid)).toEqual(['applied']);
      expect((await jane.browser.request({ url: `/api/account/orders/${next.orders[0]?.id}` })).json().status).toBe('active');
      expect(store.logs.messages(50)).toContain('an order notification failed: it will be tried again (the payment event stays applied)');
      const pending = await store.app.db.selectFrom('order_notifications').select(['kind', 'attempts', 'claimed_at']).where('done_at', 'is', null).orderBy('position').execute();
      expect(pending).toEqual([
        { kind: 'order-confirmation', attempts: 1, claimed_at: null },
        { kind: 'payment-receipt', attempts: 1, claimed_at: null },
      ]);
      // Not due yet: nothing is tried.
      expect(await store.app.jobs.runNow('order-mail')).toBe(0);

      // The mail server is back, the retry is due: each mail goes once, and never again.
      revived = await startSmtpServer({ port: Number(new URL(smtp.url).port) });
      store.advance(2 * 60 * 1000);
      expect(await store.app.jobs.runNow('order-mail')).toBe(2);
      expect(revived.messages.map((mail) => mail.subject)).toEqual([expect.stringContaining(next.orders[0]?.number ?? '?'), expect.stringMatching(/receipt R-/)]);
      store.advance(60 * 60 * 1000);
      expect(await store.app.jobs.runNow('order-mail')).toBe(0);
      expect(revived.messages).toHaveLength(2);
    } finally {
      await store.cleanUp();
      await smtp.close().catch(() => undefined);
      await revived?.close().catch(() => undefined);
    }
  });
});
