import type { Transaction } from '@bimi/contracts/orders';
import { type IdentityStore, startIdentityStore } from './identity-fixtures';
import { detailsFor, pdfText } from './orders-fixtures';
import { buyer, payOnTestPage, startCheckout, until } from './payments-fixtures';

// A sign-up (argon2), a checkout and a payment on a shared 2-core machine.
jest.setTimeout(60_000);

/**
 * Issue 30, finding 8: "the success page and the receipt don't say which logo is which;
 * transactions show Order —". Two logos of one VMC, bought together: each order, the transaction,
 * the receipt PDF and the receipt mail name the certificate's domain, its logo and its order number.
 */
describe('a set of logos bought together, named everywhere', () => {
  let store: IdentityStore;
  beforeAll(async () => {
    store = await startIdentityStore({ name: 'SQLite', postgres: false, redis: false });
  });
  afterAll(() => store.cleanUp());

  it('names each order by number, domain and logo on the orders, the transactions, the receipt PDF and the mail', async () => {
    const browser = await buyer(store, 'Ada Buyer', 'ada-names@example.com');
    const { id: userId } = await store.app.db.selectFrom('users').select('id').where('email', '=', 'ada-names@example.com').executeTakeFirstOrThrow();
    const details = await detailsFor({ browser, userId, email: 'ada-names@example.com' }, ['acme.example', 'mail.acme.example']);
    const vmc = { productId: 'verified-mark-certificate', domains: 2, years: 1, logos: 1 };
    const started = await startCheckout(browser, [
      { ...vmc, logo: { index: 1, count: 2 }, details },
      { ...vmc, logo: { index: 2, count: 2 } },
    ]);
    expect(started.statusCode).toBe(201);
    const { checkoutId, orderIds, url } = started.json() as { checkoutId: string; orderIds: string[]; url: string };
    expect((await payOnTestPage(browser, url, '4242 4242 4242 4242')).statusCode).toBe(303);
    await until(
      async () => (await browser.request({ url: `/api/account/checkout/${checkoutId}` })).json().status,
      (status) => status === 'paid',
    );

    const orders = await Promise.all(orderIds.map(async (id) => (await browser.request({ url: `/api/account/orders/${id}` })).json()));
    expect(orders.map((order) => order.description)).toEqual(['2 domains · 1 year · Logo 1 of 2', '2 domains · 1 year · Logo 2 of 2']);
    const [first, second] = orders.map((order) => order.number as string);

    const transactions = await until(
      async () => (await browser.request({ url: '/api/account/billing/transactions' })).json().transactions as Transaction[],
      (list) => list.length > 0,
    );
    expect(transactions).toHaveLength(1);
    expect(transactions[0]?.orders).toEqual([
      { id: orderIds[0], number: first, label: 'Verified Mark Certificate for acme.example and mail.acme.example · 2 domains · 1 year · Logo 1 of 2' },
      { id: orderIds[1], number: second, label: 'Verified Mark Certificate · 2 domains · 1 year · Logo 2 of 2' },
    ]);

    const receipt = await browser.request({ url: transactions[0]?.receiptUrl ?? '' });
    expect(receipt.statusCode).toBe(200);
    const text = (await pdfText(receipt.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain(`${first} · Verified Mark Certificate for acme.example and mail.acme.example · 2 domains · 1 year · Logo 1 of 2`);
    expect(text).toContain(`${second} · Verified Mark Certificate · 2 domains · 1 year · Logo 2 of 2`);

    const mail = await until(
      async () =>
        store.app.db.selectFrom('outbox_messages').select(['subject', 'text']).where('recipient', '=', 'ada-names@example.com').where('subject', 'like', '%receipt%').executeTakeFirst(),
      (row) => row !== undefined,
    );
    expect(mail?.text).toContain(`- ${first} · Verified Mark Certificate for acme.example and mail.acme.example · 2 domains · 1 year · Logo 1 of 2: $`);
    expect(mail?.text).toContain(`- ${second} · Verified Mark Certificate · 2 domains · 1 year · Logo 2 of 2: $`);
  });

  it('refuses a logo position that is not one', async () => {
    const browser = await buyer(store);
    const answer = await startCheckout(browser, [{ productId: 'verified-mark-certificate', logo: { index: 3, count: 2 } }]);
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain('index must be at most count');
  });
});
