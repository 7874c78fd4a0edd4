import { certificatePlanCents, DMARC_OPTIONS } from '@bimi/catalog/prices';
import { quoteCart } from '@bimi/catalog/quote';
import { PriceCheck, PriceCheckError, chargedLine, priceMismatch, stripeAmountFor } from '../src/services/payments/price-check';
import type { StripePriceFacts } from '../src/services/payments/price-check';
import { paymentEventFromStripe } from '../src/services/payments/stripe-events';
import type Stripe from 'stripe';

// Price settings are unset here on purpose: the quote's log of it is not wanted in the output.
const SILENT = { error: () => undefined };

const perUnit = (id: string, unitAmount: number, interval: string, intervalCount: number): StripePriceFacts => ({
  id,
  active: true,
  currency: 'usd',
  billingScheme: 'per_unit',
  unitAmount,
  tiersMode: null,
  tiers: [],
  interval,
  intervalCount,
  usageType: 'licensed',
});
const volume = (id: string, tiers: StripePriceFacts['tiers'], interval: string): StripePriceFacts => ({
  ...perUnit(id, 0, interval, 1),
  billingScheme: 'tiered',
  unitAmount: null,
  tiersMode: 'volume',
  tiers,
});

const charged = (line: Parameters<typeof quoteCart>[0][number], priceId = 'price_x') => {
  const quoted = quoteCart([line], {}, SILENT).items[0];
  if (!quoted) throw new Error('no quote');
  return chargedLine(line, { ...quoted, priceId });
};

describe('a catalog line as a Stripe price × quantity', () => {
  it('charges a certificate per domain for the whole term, every `years` years, domains × logos × copies units', () => {
    for (const years of [1, 2, 3]) {
      const line = charged({ productId: 'verified-mark-certificate', domains: 7, years, logos: 2, quantity: 3 });
      expect(line).toMatchObject({
        quantity: 7 * 2 * 3,
        interval: 'year',
        intervalCount: years,
        expected: { kind: 'per-unit', unitAmount: certificatePlanCents('verified-mark-certificate', years) },
      });
      expect(stripeAmountFor(perUnit('p', certificatePlanCents('verified-mark-certificate', years), 'year', years), line.quantity)).toBe(line.amount);
      expect(priceMismatch(line, perUnit('p', certificatePlanCents('verified-mark-certificate', years), 'year', years))).toBeNull();
    }
  });

  it('charges a DMARC plan at the volume tier of emails ÷ 1,000, monthly or yearly', () => {
    const options = DMARC_OPTIONS['dmarc-premium'];
    for (const period of ['monthly', 'annual'] as const) {
      const tiers = options.map((option, index) => ({
        upTo: index === options.length - 1 ? null : option.emails / 1000,
        unitAmount: 0,
        flatAmount: period === 'monthly' ? option.price : option.annualPrice,
      }));
      const price = volume('p', tiers, period === 'monthly' ? 'month' : 'year');
      for (const option of options) {
        const line = charged({ productId: 'dmarc-premium', emailVolume: option.emails, billingPeriod: period });
        expect(line).toMatchObject({ quantity: option.emails / 1000, interval: period === 'monthly' ? 'month' : 'year', intervalCount: 1 });
        expect(priceMismatch(line, price)).toBeNull();
      }
    }
  });

  it('works out graduated tiers too', () => {
    const price: StripePriceFacts = {
      ...volume(
        'p',
        [
          { upTo: 10, unitAmount: 100, flatAmount: 50 },
          { upTo: null, unitAmount: 10, flatAmount: 0 },
        ],
        'month',
      ),
      tiersMode: 'graduated',
    };
    expect(stripeAmountFor(price, 5)).toBe(550);
    expect(stripeAmountFor(price, 15)).toBe(50 + 1000 + 50);
  });

  it('names what is wrong with a price', () => {
    const line = charged({ productId: 'common-mark-certificate', domains: 2, years: 3 });
    const good = perUnit('price_cmc_3y', certificatePlanCents('common-mark-certificate', 3), 'year', 3);
    expect(priceMismatch(line, null)).toMatch(/does not exist/);
    expect(priceMismatch(line, { ...good, active: false })).toMatch(/archived/);
    expect(priceMismatch(line, { ...good, currency: 'eur' })).toMatch(/in eur/);
    expect(priceMismatch(line, { ...good, usageType: 'metered' })).toMatch(/not a licensed recurring price/);
    expect(priceMismatch(line, { ...good, intervalCount: 1 })).toMatch(/renews every 1 year, the catalog every 3 year/);
    expect(priceMismatch(line, { ...good, unitAmount: good.unitAmount! + 1 })).toMatch(/a unit, the catalog/);
    expect(priceMismatch(line, good)).toBeNull();
  });

  it('refuses a DMARC line in copies and a free product', () => {
    expect(() => charged({ productId: 'dmarc-plus', emailVolume: 100_000, quantity: 2 })).toThrow('one at a time');
    expect(() => charged({ productId: 'bimi-checker' })).toThrow('free');
  });
});

describe('PriceCheck', () => {
  it('fetches a price once while kept, again after the TTL, never keeps a missing one, and is bounded', async () => {
    let clock = 1_000_000;
    const fetched: string[] = [];
    const prices = new Map([['price_a', perUnit('price_a', 100, 'year', 1)]]);
    const check = new PriceCheck(
      async (id) => {
        fetched.push(id);
        return prices.get(id) ?? null;
      },
      { max: 2, ttlMs: 1000, now: () => clock },
    );
    const line = charged({ productId: 'stripe-test-product' }, 'price_a');
    await check.check([line]);
    await check.check([line]);
    expect(fetched).toEqual(['price_a']);
    clock += 1500;
    await check.check([line]);
    expect(fetched).toEqual(['price_a', 'price_a']);
    await expect(check.check([charged({ productId: 'stripe-test-product' }, 'price_missing')])).rejects.toBeInstanceOf(PriceCheckError);
    prices.set('price_missing', perUnit('price_missing', 100, 'year', 1));
    await check.check([charged({ productId: 'stripe-test-product' }, 'price_missing')]);
    prices.set('price_b', perUnit('price_b', 100, 'year', 1));
    await check.check([charged({ productId: 'stripe-test-product' }, 'price_b')]);
    expect(check.size).toBe(2);
  });

  it("checks lines at one price as the one item Stripe charges them on: the summed quantity must come to the lines' total", async () => {
    const plan = certificatePlanCents('verified-mark-certificate', 1);
    const prices = new Map([
      ['price_vmc_1y', perUnit('price_vmc_1y', plan, 'year', 1)],
      [
        'price_plus',
        volume(
          'price_plus',
          DMARC_OPTIONS['dmarc-plus'].map((option, index, all) => ({ upTo: index === all.length - 1 ? null : option.emails / 1000, unitAmount: 0, flatAmount: option.price })),
          'month',
        ),
      ],
    ]);
    const check = new PriceCheck(async (id) => prices.get(id) ?? null);
    // Two VMC lines (two logos): per-unit, so 3 units cost what the two lines do.
    await expect(
      check.check([
        charged({ productId: 'verified-mark-certificate', domains: 2, years: 1 }, 'price_vmc_1y'),
        charged({ productId: 'verified-mark-certificate', domains: 1, years: 1 }, 'price_vmc_1y'),
      ]),
    ).resolves.toBeUndefined();
    // Two DMARC lines at one plan: each matches alone, but the volume tier of their sum does not.
    const dmarc = charged({ productId: 'dmarc-plus', emailVolume: 100_000, billingPeriod: 'monthly' }, 'price_plus');
    expect(priceMismatch(dmarc, prices.get('price_plus') ?? null)).toBeNull();
    const error = await check.check([dmarc, dmarc]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PriceCheckError);
    expect((error as PriceCheckError).problems).toEqual([expect.objectContaining({ priceId: 'price_plus', problem: expect.stringContaining('(2 lines on one item)') })]);
  });

  it('names every line at fault', async () => {
    const check = new PriceCheck(async () => null);
    const error = await check
      .check([charged({ productId: 'stripe-test-product' }, 'price_gone'), { ...charged({ productId: 'verified-mark-certificate' }), priceId: null }])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PriceCheckError);
    expect((error as PriceCheckError).problems.map((problem) => problem.problem)).toEqual(['price price_gone does not exist', 'no price identifier is configured']);
  });
});

describe('Stripe events as payment events', () => {
  const subscription = (itemMetadata: Record<string, string>) =>
    ({
      id: 'sub_1',
      object: 'subscription',
      customer: 'cus_1',
      status: 'active',
      cancel_at_period_end: false,
      cancel_at: null,
      metadata: { checkout_id: 'chk_1', order_1: 'ord_a price_a', order_2: 'ord_b price_b' },
      items: {
        object: 'list',
        data: [
          { id: 'si_a', metadata: itemMetadata, price: { id: 'price_a' }, current_period_end: 2_000_000_000 },
          { id: 'si_b', metadata: {}, price: { id: 'price_b' }, current_period_end: 1_900_000_000 },
        ],
      },
    }) as unknown as Stripe.Subscription;
  const event = (type: string, object: unknown) => ({ id: 'evt_1', created: 1_800_000_000, type, data: { object } }) as unknown as Stripe.Event;

  it("finds each item's order from its own metadata, else from the subscription's metadata by price; renewal off per item", () => {
    const mapped = paymentEventFromStripe(event('customer.subscription.updated', subscription({ order_id: 'ord_own', renews: 'false' })));
    expect(mapped).toMatchObject({
      kind: 'subscription.updated',
      eventId: 'evt_1',
      occurredAt: 1_800_000_000_000,
      items: [
        { orderId: 'ord_own', itemRef: 'si_a', currentPeriodEnd: 2_000_000_000_000, renews: false },
        { orderId: 'ord_b', itemRef: 'si_b', currentPeriodEnd: 1_900_000_000_000, renews: true },
      ],
    });
    const deleted = paymentEventFromStripe(event('customer.subscription.deleted', subscription({})));
    expect(deleted).toMatchObject({
      kind: 'subscription.deleted',
      items: [
        { orderId: 'ord_a', renews: false },
        { orderId: 'ord_b', renews: false },
      ],
    });
  });

  it('maps an item shared by orders at one price back to every order: renewal off per order, the invoice line split by quantity', () => {
    const shared = {
      ...subscription({ checkout_id: 'chk_1', renewal_off: '2' }),
      metadata: { checkout_id: 'chk_1', order_1: 'ord_a price_a 2', order_2: 'ord_c price_a 1', order_3: 'ord_b price_b 1000' },
    } as unknown as Stripe.Subscription;
    expect(paymentEventFromStripe(event('customer.subscription.updated', shared))).toMatchObject({
      items: [
        { orderId: 'ord_a', itemRef: 'si_a', renews: true },
        { orderId: 'ord_c', itemRef: 'si_a', renews: false },
        { orderId: 'ord_b', itemRef: 'si_b', renews: true },
      ],
    });
    const invoice = {
      id: 'in_1',
      customer: 'cus_1',
      amount_paid: 1001,
      currency: 'usd',
      number: 'N-1',
      status_transitions: { paid_at: 1_800_000_000 },
      parent: { subscription_details: { subscription: 'sub_1', metadata: shared.metadata } },
      lines: {
        data: [
          {
            amount: 1000,
            description: '3 × VMC',
            metadata: shared.metadata,
            period: { start: 1_800_000_000, end: 1_831_536_000 },
            parent: { subscription_item_details: { subscription_item: 'si_a' } },
            pricing: { price_details: { price: 'price_a' } },
          },
        ],
      },
    };
    const paid = paymentEventFromStripe(event('invoice.paid', invoice));
    expect(paid).toMatchObject({
      kind: 'invoice.paid',
      lines: [
        { orderId: 'ord_a', itemRef: 'si_a', amount: 667 },
        { orderId: 'ord_c', itemRef: 'si_a', amount: 333 },
      ],
    });
  });

  it('ignores sessions of another mode and events it does not act on', () => {
    expect(paymentEventFromStripe(event('checkout.session.completed', { id: 'cs_1', mode: 'setup', client_reference_id: 'chk_1', metadata: {} }))).toBeNull();
    expect(paymentEventFromStripe(event('charge.refunded', { id: 'ch_1' }))).toBeNull();
  });
});
