import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import { HttpError } from '../../../lib/http-error';
import type { StripePriceFacts } from '../../../services/payments/price-check';
import { type PaymentEvent, type PaymentProvider, type PaymentUser, type ProviderCheckout, type ProviderPaymentMethod, WebhookSignatureError } from '../../../services/payments/provider';
import { METADATA, type Share, idOf, paymentEventFromStripe, renewalOffOf, sharesOf } from '../../../services/payments/stripe-events';

/**
 * The API version this integration is written and tested against: the one stripe 23.1.0 ships
 * with (`Stripe.API_VERSION`). Pinned so a change on Stripe's side never changes object shapes
 * under us; flexible billing mode (mixed intervals in one subscription) needs 2025-07-30.basil or later.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string | undefined;
  /** Where the SDK sends its calls instead of api.stripe.com (the HTTP double in tests). */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
  /** Retries of a failed call; the SDK repeats the same Idempotency-Key on each. */
  maxNetworkRetries?: number;
  timeoutMs?: number;
}

export const ORDER_LEFT_ITS_SUBSCRIPTION = 'This order no longer renews: it left its subscription at the end of its period. Buy it again from the store to go on.';

/** How far in the future a webhook's signature time may be (the clocks' skew). */
const WEBHOOK_FUTURE_TOLERANCE_MS = 60_000;

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly stripe: Stripe;

  constructor(private readonly options: StripeProviderOptions) {
    this.stripe = new Stripe(options.secretKey, {
      apiVersion: STRIPE_API_VERSION,
      maxNetworkRetries: options.maxNetworkRetries ?? 2,
      timeout: options.timeoutMs ?? 20_000,
      telemetry: false,
      ...(options.api && { host: options.api.host, port: options.api.port, protocol: options.api.protocol }),
    });
  }

  async createCustomer(user: PaymentUser): Promise<string> {
    const customer = await this.stripe.customers.create(
      { email: user.email, name: user.name, metadata: { [METADATA.userId]: user.id } },
      // One customer per user even when two first checkouts race: Stripe answers both with one.
      { idempotencyKey: `customer-${user.id}` },
    );
    return customer.id;
  }

  async createCheckout(checkout: ProviderCheckout): Promise<{ ref: string; url: string }> {
    // Stripe holds a price once per subscription ("Cannot add multiple subscription items with the
    // same price"): lines at one price (a VMC bought for two logos: two orders) become ONE line item
    // with the summed quantity; `order_N` says which order owns how many of its units.
    const byPrice = new Map<string, { quantity: number; orderIds: string[] }>();
    const orders: Record<string, string> = {};
    checkout.lines.forEach((line, index) => {
      if (!line.priceId) throw new Error(`order ${line.orderId} has no Stripe price`);
      orders[`${METADATA.orderPrefix}${index + 1}`] = `${line.orderId} ${line.priceId} ${line.quantity}`;
      const item = byPrice.get(line.priceId) ?? { quantity: 0, orderIds: [] };
      item.quantity += line.quantity;
      item.orderIds.push(line.orderId);
      byPrice.set(line.priceId, item);
    });
    const metadata = { [METADATA.checkoutId]: checkout.checkoutId, [METADATA.userId]: checkout.user.id, ...orders };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        customer: checkout.customerRef,
        client_reference_id: checkout.checkoutId,
        line_items: [...byPrice].map(([price, item]) => ({
          price,
          quantity: item.quantity,
          // One order: it is named on the line item too. Several: the subscription's order_N entries name them.
          metadata: { ...(item.orderIds.length === 1 && { [METADATA.orderId]: item.orderIds[0] as string }), [METADATA.checkoutId]: checkout.checkoutId },
        })),
        metadata,
        // One subscription for the whole cart, whatever the intervals of its lines: flexible
        // billing mode lets a 2-year certificate and a monthly plan renew each on its own cycle.
        subscription_data: { metadata, billing_mode: { type: 'flexible' } },
        success_url: checkout.successUrl,
        cancel_url: checkout.cancelUrl,
      },
      { idempotencyKey: checkout.idempotencyKey },
    );
    if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a URL`);
    return { ref: session.id, url: session.url };
  }

  /** Expires an open Checkout Session (its checkout.session.expired event then changes nothing: the checkout is closed already). */
  async pageStatus(ref: string): Promise<'open' | 'paid' | 'closed'> {
    const { status } = await this.stripe.checkout.sessions.retrieve(ref);
    return status === 'open' ? 'open' : status === 'complete' ? 'paid' : 'closed';
  }

  async closeCheckout(ref: string): Promise<'closed' | 'paid'> {
    const session = await this.stripe.checkout.sessions.retrieve(ref);
    if (session.status !== 'open') return session.status === 'complete' ? 'paid' : 'closed';
    try {
      await this.stripe.checkout.sessions.expire(ref);
      return 'closed';
    } catch (error) {
      // Stripe refuses to expire a session completed meanwhile.
      if ((await this.stripe.checkout.sessions.retrieve(ref)).status === 'complete') return 'paid';
      throw error;
    }
  }

  /**
   * Renewal off: when the order is alone on the subscription's only live item, the whole
   * subscription is cancelled at its period end (`cancel_at_period_end`). When it shares its item
   * with other orders (lines at one price), its `order_N` number is added to the item's
   * `renewal_off`; when it has an item of its own among others, the item is marked
   * `metadata.renews = "false"`. `endNonRenewingItems` acts on either during the last day of the
   * period, before Stripe would invoice the next one. Back on undoes any of them.
   */
  async setRenewal(target: { subscriptionRef: string; itemRef: string | null; orderId?: string }, renew: boolean): Promise<void> {
    const subscription = await this.stripe.subscriptions.retrieve(target.subscriptionRef);
    const items = subscription.items.data;
    const item = items.find((candidate) => candidate.id === target.itemRef);
    const shares = item ? sharesOf(item.metadata, item.price.id, subscription.metadata) : [];
    const share = shares.find((candidate) => candidate.orderId === target.orderId);
    if (item && target.orderId && shares.length > 0 && !share) {
      // The renewal job lowered the shared item's quantity and took the order off it: its paid period is its last.
      throw new HttpError(409, ORDER_LEFT_ITS_SUBSCRIPTION);
    }
    if (item && shares.length > 1 && share?.index != null) {
      const off = renewalOffOf(item.metadata);
      if (renew) off.delete(share.index);
      else off.add(share.index);
      await this.stripe.subscriptionItems.update(item.id, {
        metadata: { [METADATA.renewalOff]: [...off].sort((a, b) => a - b).join(' ') },
        proration_behavior: 'none',
      });
      // Every order of the last item had turned renewal off and the job had cancelled the subscription at its end.
      if (renew && subscription.cancel_at_period_end) await this.stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false });
      return;
    }
    const onlyItem = target.itemRef === null || items.length <= 1 || items.every((candidate) => candidate.id === target.itemRef);
    if (onlyItem) {
      await this.stripe.subscriptions.update(target.subscriptionRef, { cancel_at_period_end: !renew });
      return;
    }
    if (!target.itemRef) return;
    await this.stripe.subscriptionItems.update(target.itemRef, {
      metadata: { [METADATA.renews]: renew ? '' : 'false' },
      proration_behavior: 'none',
    });
  }

  /**
   * The renewal job, for items whose period ends within `withinMs` of `now`:
   * - an item whose orders all stop renewing is removed without proration (the orders keep their
   *   paid end date), or, when it is the subscription's last live item, the subscription is set to
   *   cancel at its period end;
   * - a shared item on which some orders stop renewing and others go on keeps renewing at a lower
   *   quantity: in ONE subscription update (one event, nothing half done), the item's quantity drops
   *   by the leaving orders' shares, its `renewal_off` is cleared and their `order_N` entries are
   *   removed from the subscription, so its next invoice charges only the orders that renew and its
   *   events no longer name the ones that left (they end at their paid period's end).
   * The update carries an idempotency key made of what it changes, so two replicas running the job
   * in the same hour lower the quantity once. Returns the items handled.
   */
  async endNonRenewingItems(now: number, withinMs = 24 * 60 * 60 * 1000): Promise<string[]> {
    const handled: string[] = [];
    for await (const subscription of this.stripe.subscriptions.list({ status: 'active', limit: 100 })) {
      const items = subscription.items.data;
      const ending: Stripe.SubscriptionItem[] = [];
      const lowering: { item: Stripe.SubscriptionItem; quantity: number; leaving: Share[] }[] = [];
      for (const item of items) {
        if (item.current_period_end * 1000 - now > withinMs) continue;
        if (item.metadata?.[METADATA.renews] === 'false') {
          ending.push(item);
          continue;
        }
        const shares = sharesOf(item.metadata, item.price.id, subscription.metadata);
        const off = renewalOffOf(item.metadata);
        const leaving = shares.filter((share) => share.index !== null && off.has(share.index));
        if (leaving.length === 0) continue;
        const quantity = (item.quantity ?? 0) - leaving.reduce((sum, share) => sum + (share.quantity ?? 0), 0);
        if (leaving.length === shares.length || quantity <= 0 || leaving.some((share) => share.quantity === null)) ending.push(item);
        else lowering.push({ item, quantity, leaving });
      }
      if (ending.length === 0 && lowering.length === 0) continue;
      if (ending.length === items.length) {
        await this.stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
      } else {
        if (lowering.length > 0) {
          const params: Stripe.SubscriptionUpdateParams = {
            items: lowering.map(({ item, quantity }) => ({ id: item.id, quantity, metadata: { [METADATA.renewalOff]: '' } })),
            metadata: Object.fromEntries(lowering.flatMap(({ leaving }) => leaving.map((share) => [`${METADATA.orderPrefix}${share.index}`, '']))),
            proration_behavior: 'none',
          };
          const key = createHash('sha256').update(JSON.stringify(params)).digest('hex').slice(0, 32);
          await this.stripe.subscriptions.update(subscription.id, params, { idempotencyKey: `renewal-${subscription.id}-${key}` });
        }
        for (const item of ending) await this.stripe.subscriptionItems.del(item.id, { proration_behavior: 'none' });
      }
      handled.push(...lowering.map(({ item }) => item.id), ...ending.map((item) => item.id));
    }
    return handled;
  }

  /**
   * The customer's cards, oldest first. Stripe Checkout makes no card the customer's default
   * (a payment session sets its subscription's `default_payment_method`, a setup session only
   * attaches the card), and detaching the default leaves none: as with the test payments, when the
   * customer has cards but no default, the oldest becomes the default here, so there is always one.
   */
  async listPaymentMethods(customerRef: string): Promise<ProviderPaymentMethod[]> {
    const [customer, methods] = await Promise.all([this.stripe.customers.retrieve(customerRef), this.stripe.paymentMethods.list({ customer: customerRef, type: 'card', limit: 100 })]);
    // Stripe lists the newest first; a stable sort keeps its order within one second.
    const cards = methods.data.filter((method) => method.card).sort((a, b) => a.created - b.created);
    let defaultRef = customer.deleted ? null : idOf(customer.invoice_settings?.default_payment_method ?? null);
    const oldest = cards[0];
    if (!customer.deleted && oldest && !cards.some((method) => method.id === defaultRef)) {
      await this.stripe.customers.update(customerRef, { invoice_settings: { default_payment_method: oldest.id } });
      defaultRef = oldest.id;
    }
    return cards.map((method) => ({
      ref: method.id,
      brand: method.card?.brand ?? 'unknown',
      last4: method.card?.last4 ?? '',
      expMonth: method.card?.exp_month ?? 0,
      expYear: method.card?.exp_year ?? 0,
      isDefault: method.id === defaultRef,
    }));
  }

  /**
   * The customer's default card, and the card of each of their subscriptions: Checkout set each
   * new subscription's `default_payment_method`, which Stripe charges before the customer's
   * default, so changing only the customer's would leave renewals on the old card.
   */
  async setDefaultPaymentMethod(customerRef: string, paymentMethodRef: string): Promise<void> {
    await this.stripe.customers.update(customerRef, { invoice_settings: { default_payment_method: paymentMethodRef } });
    for await (const subscription of this.stripe.subscriptions.list({ customer: customerRef, limit: 100 })) {
      if (['canceled', 'incomplete_expired'].includes(subscription.status)) continue;
      const current = idOf(subscription.default_payment_method);
      if (current === null || current === paymentMethodRef) continue;
      await this.stripe.subscriptions.update(subscription.id, { default_payment_method: paymentMethodRef });
    }
  }

  async removePaymentMethod(_customerRef: string, paymentMethodRef: string): Promise<void> {
    await this.stripe.paymentMethods.detach(paymentMethodRef);
  }

  async createPaymentMethodSetup(customerRef: string, returnUrl: string): Promise<{ url: string }> {
    const session = await this.stripe.checkout.sessions.create({
      mode: 'setup',
      customer: customerRef,
      currency: 'usd',
      success_url: returnUrl,
      cancel_url: returnUrl,
    });
    if (!session.url) throw new Error(`Stripe answered setup session ${session.id} without a URL`);
    return { url: session.url };
  }

  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): PaymentEvent[] {
    const signature = headers['stripe-signature'];
    if (!this.options.webhookSecret) throw new WebhookSignatureError('STRIPE_WEBHOOK_SECRET is not set, so no webhook can be verified');
    if (!signature) throw new WebhookSignatureError('No Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.options.webhookSecret);
      // The SDK refuses a signature older than its tolerance, but not one from the future (issue 31).
      const signedAt = Number(/(?:^|,)t=(\d{1,12})(?:,|$)/.exec(String(signature))?.[1]);
      if (signedAt * 1000 > Date.now() + WEBHOOK_FUTURE_TOLERANCE_MS) throw new Error('Timestamp is in the future, past the tolerance');
    } catch (error) {
      throw new WebhookSignatureError(error instanceof Error ? error.message : String(error));
    }
    const mapped = paymentEventFromStripe(event);
    return mapped ? [mapped] : [];
  }

  /** The facts of one price the catalog check compares (tiers expanded: they are not sent by default). */
  async priceFacts(priceId: string): Promise<StripePriceFacts | null> {
    let price: Stripe.Price;
    try {
      price = await this.stripe.prices.retrieve(priceId, { expand: ['tiers'] });
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
      throw error;
    }
    return {
      id: price.id,
      active: price.active,
      currency: price.currency,
      billingScheme: price.billing_scheme === 'tiered' ? 'tiered' : 'per_unit',
      unitAmount: price.unit_amount,
      tiersMode: price.tiers_mode === 'graduated' ? 'graduated' : price.tiers_mode === 'volume' ? 'volume' : null,
      tiers: (price.tiers ?? []).map((tier) => ({ upTo: tier.up_to, unitAmount: tier.unit_amount ?? 0, flatAmount: tier.flat_amount ?? 0 })),
      interval: price.recurring?.interval ?? null,
      intervalCount: price.recurring?.interval_count ?? null,
      usageType: price.recurring?.usage_type ?? null,
    };
  }

  /** The receipt of a Stripe invoice (its PDF and hosted page), for the receipt redirect. */
  async invoiceReceipt(invoiceRef: string): Promise<{ pdfUrl: string | null; hostedUrl: string | null }> {
    const invoice = await this.stripe.invoices.retrieve(invoiceRef);
    return { pdfUrl: invoice.invoice_pdf ?? null, hostedUrl: invoice.hosted_invoice_url ?? null };
  }
}
