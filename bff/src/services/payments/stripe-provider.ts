import Stripe from 'stripe';
import {
  type CheckoutCompleted,
  type InvoiceLine,
  type PaymentEvent,
  type PaymentProvider,
  type PaymentUser,
  type ProviderCheckout,
  type ProviderPaymentMethod,
  type SubscriptionChanged,
  WebhookSignatureError,
} from './provider';

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

/** Metadata keys naming our records on Stripe's objects. */
export const METADATA = {
  checkoutId: 'checkout_id',
  orderId: 'order_id',
  userId: 'user_id',
  /** On a subscription item: "false" once renewal is off for that order (see endNonRenewingItems). */
  renews: 'renews',
  /** order_1 … order_20 on the session and the subscription: "<order id> <price id>". */
  orderPrefix: 'order_',
} as const;

/** The words a buyer reads when an asynchronous payment or a renewal fails; Stripe's own reason stays in its dashboard. */
const ASYNC_PAYMENT_FAILED = 'Your payment did not go through. Please try again with another card.';
const RENEWAL_PAYMENT_FAILED = 'Your card was declined for this payment. Please update your card.';

type Metadata = Record<string, string> | null | undefined;

function orderEntries(metadata: Metadata): { orderId: string; priceId: string }[] {
  if (!metadata) return [];
  return Object.entries(metadata)
    .filter(([key]) => key.startsWith(METADATA.orderPrefix) && /^\d+$/.test(key.slice(METADATA.orderPrefix.length)))
    .sort(([a], [b]) => Number(a.slice(METADATA.orderPrefix.length)) - Number(b.slice(METADATA.orderPrefix.length)))
    .map(([, value]) => {
      const [orderId = '', priceId = ''] = value.split(' ');
      return { orderId, priceId };
    })
    .filter((entry) => entry.orderId !== '');
}

/**
 * Which order a subscription item (or an invoice line) charges: the item's own metadata.order_id
 * when Stripe copied the Checkout line item's metadata to it, else the order the subscription's
 * metadata names for its price (a subscription never holds one price twice: checkout refuses that).
 */
function orderOf(itemMetadata: Metadata, priceId: string | null, subscriptionMetadata: Metadata): string | null {
  const own = itemMetadata?.[METADATA.orderId];
  if (own) return own;
  if (!priceId) return null;
  return orderEntries(subscriptionMetadata).find((entry) => entry.priceId === priceId)?.orderId ?? null;
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

function toMs(seconds: number | null | undefined): number | null {
  return typeof seconds === 'number' ? seconds * 1000 : null;
}

function invoiceLines(invoice: Stripe.Invoice, subscriptionMetadata: Metadata): InvoiceLine[] {
  return invoice.lines.data.map((line) => {
    const priceId = idOf(line.pricing?.price_details?.price ?? null);
    const itemRef = line.parent?.subscription_item_details?.subscription_item ?? null;
    return {
      orderId: orderOf(line.metadata, priceId, subscriptionMetadata),
      itemRef,
      description: line.description ?? '',
      amount: line.amount,
      periodStart: line.period.start * 1000,
      periodEnd: line.period.end * 1000,
    };
  });
}

/** One verified Stripe event as the PaymentEvent orders apply, or null for an event this store does not act on. */
export function paymentEventFromStripe(event: Stripe.Event): PaymentEvent | null {
  const base = { eventId: event.id, occurredAt: event.created * 1000 };
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      if (session.mode !== 'subscription') return null;
      const checkoutId = session.client_reference_id ?? session.metadata?.[METADATA.checkoutId];
      if (!checkoutId) return null;
      const completed: CheckoutCompleted = {
        ...base,
        kind: 'checkout.completed',
        checkoutId,
        checkoutRef: session.id,
        customerRef: idOf(session.customer) ?? '',
        subscriptionRef: idOf(session.subscription),
        // The session does not list the subscription's items; invoice lines and subscription
        // events name them (with their order) as they come.
        items: orderEntries(session.metadata).map((entry) => ({ orderId: entry.orderId, itemRef: null })),
        paymentStatus: session.payment_status === 'paid' ? 'paid' : session.payment_status === 'no_payment_required' ? 'no_payment_required' : 'unpaid',
      };
      return completed;
    }
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed': {
      const session = event.data.object;
      const checkoutId = session.client_reference_id ?? session.metadata?.[METADATA.checkoutId];
      if (!checkoutId || session.mode !== 'subscription') return null;
      return {
        ...base,
        kind: event.type === 'checkout.session.expired' ? 'checkout.expired' : 'checkout.failed',
        checkoutId,
        checkoutRef: session.id,
        failureMessage: event.type === 'checkout.session.expired' ? null : ASYNC_PAYMENT_FAILED,
      };
    }
    case 'invoice.paid': {
      const invoice = event.data.object;
      const details = invoice.parent?.subscription_details ?? null;
      return {
        ...base,
        kind: 'invoice.paid',
        invoiceRef: invoice.id,
        subscriptionRef: idOf(details?.subscription ?? null),
        customerRef: idOf(invoice.customer) ?? '',
        checkoutId: details?.metadata?.[METADATA.checkoutId] ?? null,
        number: invoice.number,
        amountPaid: invoice.amount_paid,
        currency: invoice.currency,
        paidAt: toMs(invoice.status_transitions?.paid_at) ?? event.created * 1000,
        lines: invoiceLines(invoice, details?.metadata),
        receipt: { pdfUrl: invoice.invoice_pdf ?? null, hostedUrl: invoice.hosted_invoice_url ?? null },
      };
    }
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const details = invoice.parent?.subscription_details ?? null;
      return {
        ...base,
        kind: 'invoice.payment_failed',
        invoiceRef: invoice.id,
        subscriptionRef: idOf(details?.subscription ?? null),
        customerRef: idOf(invoice.customer) ?? '',
        checkoutId: details?.metadata?.[METADATA.checkoutId] ?? null,
        amountDue: invoice.amount_due,
        currency: invoice.currency,
        failureMessage: RENEWAL_PAYMENT_FAILED,
        lines: invoiceLines(invoice, details?.metadata),
      };
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      const changed: SubscriptionChanged = {
        ...base,
        kind: event.type === 'customer.subscription.updated' ? 'subscription.updated' : 'subscription.deleted',
        subscriptionRef: subscription.id,
        customerRef: idOf(subscription.customer) ?? '',
        status: subscription.status,
        items: subscription.items.data.map((item) => ({
          orderId: orderOf(item.metadata, item.price.id, subscription.metadata),
          itemRef: item.id,
          currentPeriodEnd: toMs(item.current_period_end),
          renews:
            event.type === 'customer.subscription.updated' &&
            !subscription.cancel_at_period_end &&
            subscription.cancel_at === null &&
            item.metadata?.[METADATA.renews] !== 'false',
        })),
      };
      return changed;
    }
    default:
      return null;
  }
}

/** What the price check reads of a Stripe price. */
export interface StripePriceFacts {
  id: string;
  active: boolean;
  currency: string;
  billingScheme: 'per_unit' | 'tiered';
  unitAmount: number | null;
  tiersMode: 'graduated' | 'volume' | null;
  tiers: { upTo: number | null; unitAmount: number; flatAmount: number }[];
  interval: string | null;
  intervalCount: number | null;
  usageType: string | null;
}

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
    const orders: Record<string, string> = {};
    checkout.lines.forEach((line, index) => {
      orders[`${METADATA.orderPrefix}${index + 1}`] = `${line.orderId} ${line.priceId ?? ''}`;
    });
    const metadata = { [METADATA.checkoutId]: checkout.checkoutId, [METADATA.userId]: checkout.user.id, ...orders };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        customer: checkout.customerRef,
        client_reference_id: checkout.checkoutId,
        line_items: checkout.lines.map((line) => {
          if (!line.priceId) throw new Error(`order ${line.orderId} has no Stripe price`);
          return {
            price: line.priceId,
            quantity: line.quantity,
            metadata: { [METADATA.orderId]: line.orderId, [METADATA.checkoutId]: checkout.checkoutId },
          };
        }),
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

  /**
   * Renewal off: when the item is the subscription's only live item, the whole subscription is
   * cancelled at its period end (`cancel_at_period_end`). Otherwise the item is marked
   * `metadata.renews = "false"`, and `endNonRenewingItems` removes it during the last day of its
   * period, before Stripe would invoice the next one. Back on undoes either.
   */
  async setRenewal(target: { subscriptionRef: string; itemRef: string | null }, renew: boolean): Promise<void> {
    const subscription = await this.stripe.subscriptions.retrieve(target.subscriptionRef);
    const items = subscription.items.data;
    const onlyItem = target.itemRef === null || items.length <= 1 || items.every((item) => item.id === target.itemRef);
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
   * The renewal job: every item marked `renews = "false"` whose period ends within `withinMs` of
   * `now` is removed without proration (the order keeps its paid end date), or, when it is the
   * last live item, the subscription is set to cancel at its period end. Returns the items handled.
   */
  async endNonRenewingItems(now: number, withinMs = 24 * 60 * 60 * 1000): Promise<string[]> {
    const handled: string[] = [];
    for await (const subscription of this.stripe.subscriptions.list({ status: 'active', limit: 100 })) {
      const due = subscription.items.data.filter(
        (item) => item.metadata?.[METADATA.renews] === 'false' && item.current_period_end * 1000 - now <= withinMs,
      );
      if (due.length === 0) continue;
      const remaining = subscription.items.data.length - due.length;
      if (remaining === 0) {
        await this.stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
      } else {
        for (const item of due) await this.stripe.subscriptionItems.del(item.id, { proration_behavior: 'none' });
      }
      handled.push(...due.map((item) => item.id));
    }
    return handled;
  }

  async listPaymentMethods(customerRef: string): Promise<ProviderPaymentMethod[]> {
    const [customer, methods] = await Promise.all([
      this.stripe.customers.retrieve(customerRef),
      this.stripe.paymentMethods.list({ customer: customerRef, type: 'card', limit: 100 }),
    ]);
    const defaultRef = customer.deleted ? null : idOf(customer.invoice_settings?.default_payment_method ?? null);
    return methods.data.flatMap((method) =>
      method.card
        ? [
            {
              ref: method.id,
              brand: method.card.brand,
              last4: method.card.last4,
              expMonth: method.card.exp_month,
              expYear: method.card.exp_year,
              isDefault: method.id === defaultRef,
            },
          ]
        : [],
    );
  }

  async setDefaultPaymentMethod(customerRef: string, paymentMethodRef: string): Promise<void> {
    await this.stripe.customers.update(customerRef, { invoice_settings: { default_payment_method: paymentMethodRef } });
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
