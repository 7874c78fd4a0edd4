import { ORDER_PATHS } from '@bimi/contracts/api-paths';
import { CheckoutStarted, CheckoutState, OrderDetail, PaymentMethodList, PaymentMethodSetup } from '@bimi/contracts/orders';
import { MIXED_CART, formTokenOf } from './payments-fixtures';
import { type Replica, type ReplicaSite, signedUpBuyer, startReplicaSite } from './replicas-fixtures';

/**
 * The built-in test payments (a staging site runs them with TEST_PAYMENTS=true) on two replicas
 * behind nginx: their pages and subscriptions are the database's, not one process's. A payment
 * page opened on one replica is paid on the other, an add-a-card page opened on one is saved on the
 * other, and renewal changed on alternate replicas keeps every order's choice.
 *
 * Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (.ci/run), and then FAILS without nginx.
 */

jest.setTimeout(60_000);

const services = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
const describeServices = services ? describe : describe.skip;

describeServices('built-in test payments on two replicas behind nginx', () => {
  let site: ReplicaSite;
  let a: Replica;
  let b: Replica;

  beforeAll(async () => {
    site = await startReplicaSite(2, { SIGNUP_RATE_LIMIT_PER_HOUR: '1000', MONITOR_SCHEDULER_SECONDS: '0' });
    [a, b] = site.replicas as [Replica, Replica];
  }, 120_000);
  afterAll(async () => {
    await site?.cleanUp();
  }, 60_000);

  it('pays a page opened on one replica on the other, keeps each order’s renewal whichever replica changes it, and saves a card added across them', async () => {
    const buyer = await signedUpBuyer(site, 'staging@replicas.test', a, b);
    const started = await buyer.request(ORDER_PATHS.checkout, { method: 'POST', json: { items: MIXED_CART, acceptTerms: true }, csrf: true, on: a });
    expect(started.status).toBe(201);
    const { checkoutId, orderIds, url } = CheckoutStarted.parse(started.json());
    const page = await buyer.request(url, { on: a });
    expect(page.status).toBe(200);
    const paid = await buyer.request(url, {
      method: 'POST',
      form: { formToken: formTokenOf(page.body), cardNumber: '4242424242424242', expiry: '12/34', cvc: '123', name: 'Rita Replica' },
      on: b,
    });
    expect([paid.status, paid.headers.get('location')]).toEqual([303, `/checkout/success?checkout=${checkoutId}`]);
    expect(CheckoutState.parse((await buyer.request(ORDER_PATHS.checkoutState(checkoutId), { on: a })).json()).status).toBe('paid');

    // Renewal: the first order off on A, the second off on B, the first on again on A; each keeps its own.
    const [first = '', second = ''] = orderIds;
    const renewal = async (orderId: string, renew: boolean, on: Replica) => {
      const answer = await buyer.request(ORDER_PATHS.orderRenewal(orderId), { method: 'PUT', json: { renew }, csrf: true, on });
      expect(answer.status).toBe(200);
    };
    const renews = async (orderId: string) => OrderDetail.parse((await buyer.request(ORDER_PATHS.order(orderId))).json()).renews;
    await renewal(first, false, a);
    await renewal(second, false, b);
    expect([await renews(first), await renews(second)]).toEqual([false, false]);
    await renewal(first, true, a);
    expect([await renews(first), await renews(second)]).toEqual([true, false]);
    await renewal(second, true, b);
    await renewal(first, false, b);
    expect([await renews(first), await renews(second)]).toEqual([false, true]);

    // Add a card: the page comes from A, the form goes to B.
    const setup = await buyer.request(ORDER_PATHS.paymentMethodSetup, { method: 'POST', csrf: true, on: a });
    expect(setup.status).toBe(200);
    const setupUrl = PaymentMethodSetup.parse(setup.json()).url;
    const setupPage = await buyer.request(setupUrl, { on: a });
    expect(setupPage.status).toBe(200);
    const saved = await buyer.request(setupUrl, {
      method: 'POST',
      form: { formToken: formTokenOf(setupPage.body), cardNumber: '5555555555554444', expiry: '11/33', cvc: '321', name: 'Rita Replica' },
      on: b,
    });
    expect([saved.status, saved.headers.get('location')]).toEqual([303, '/account/billing/payment-methods']);
    // Used once: the same form sent again (to A) is refused.
    const again = await buyer.request(setupUrl, {
      method: 'POST',
      form: { formToken: formTokenOf(setupPage.body), cardNumber: '5555555555554444', expiry: '11/33', cvc: '321', name: 'Rita Replica' },
      on: a,
    });
    expect(again.status).not.toBe(303);
    const cards = PaymentMethodList.parse((await buyer.request(ORDER_PATHS.paymentMethods, { on: a })).json()).paymentMethods;
    expect(cards.map((card) => card.last4).sort()).toEqual(['4242', '4444']);
  });
});
