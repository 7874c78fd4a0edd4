import { randomBytes, timingSafeEqual } from 'node:crypto';
import { formatUsd } from '@bimi/catalog/prices';
import { addMonths } from '@bimi/contracts/dates';
import { escapeHtml } from '../../../lib/html';
import { cardFields, page, renewalWords } from './test-pages';
import {
  type PaymentEvent,
  type PaymentProvider,
  type PaymentUser,
  type ProviderCheckout,
  type ProviderPaymentMethod,
  type SubscriptionChanged,
  WebhookSignatureError,
} from '../../../services/payments/provider';

/**
 * Built-in test payments: the default when no STRIPE_SECRET_KEY is set, so a fresh machine sells
 * end to end. The bff serves a hosted payment page (plain HTML, clearly a test) that takes Stripe's
 * test card numbers and turns the outcome into the same PaymentEvents Stripe's webhooks become, so
 * orders follow one code path. Saved test cards are stored (`cards`, the test_payment_methods
 * table), and so are payment pages (`sessions`, the test_payment_sessions table) and add-a-card
 * pages (`setups`, test_payment_setups): a restart, or another bff replica on the same database,
 * still serves and takes an open one, and one left unpaid for 24 hours expires with a
 * checkout.expired event (`expireOpenSessions`, hourly). Test subscriptions are read from the
 * orders they charge whenever they change, never from one process's memory.
 */

export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

export const CARD_MESSAGES = {
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  unknown: 'This is a test payment page: use the test card 4242 4242 4242 4242 (or 4000 0000 0000 0002 to see a decline).',
  expiry: 'Enter the expiry date as MM/YY, in the future.',
  cvc: 'Enter the 3 or 4 digit security code.',
  expired: 'This payment page can no longer be used: it expired, or its order was cancelled or moved to a newer payment page. Your orders say what is left to pay.',
  paid: 'This payment went through: your order is paid. Nothing more is charged on this page.',
  failed: 'This payment was declined. Your order can be paid again from its page, with another card.',
} as const;

export interface TestSession {
  ref: string;
  checkout: ProviderCheckout;
  /** The form's CSRF token: only the page this session served can post to it. */
  formToken: string;
  status: 'open' | 'paid' | 'failed' | 'expired';
  createdAt: number;
}

export interface TestSetup {
  ref: string;
  customerRef: string;
  returnUrl: string;
  formToken: string;
}

/** Where saved test cards are kept (brand, last four and expiry only, as Stripe shows them). */
export interface TestCardStore {
  list(customerRef: string): Promise<ProviderPaymentMethod[]>;
  /** Saves a card; the customer's first card becomes the default. */
  add(customerRef: string, card: Omit<ProviderPaymentMethod, 'isDefault'>): Promise<void>;
  setDefault(customerRef: string, ref: string): Promise<void>;
  /** Removes a card; when it was the default, the oldest remaining one becomes the default. */
  remove(customerRef: string, ref: string): Promise<void>;
}

/** Where test payment pages are kept (the test_payment_sessions table). */
export interface TestSessionStore {
  add(session: TestSession, expiresAt: number): Promise<void>;
  get(ref: string): Promise<TestSession | undefined>;
  /**
   * Moves the page from open to `status`, or from `status` back to open (`reopen`); false when it
   * was not in the state moved from (another click or another process took it first).
   */
  move(ref: string, from: TestSession['status'] | 'expired', to: TestSession['status'] | 'expired'): Promise<boolean>;
  /**
   * Moves the page from open to paid and saves the card it was paid with, in ONE transaction: a
   * paid page always has its card. False when the page was not open.
   */
  markPaid(ref: string, customerRef: string, card: Omit<ProviderPaymentMethod, 'isDefault'>): Promise<boolean>;
  /** Pages paid (created before `createdBefore`) whose checkout is not paid yet: the payment's events were not all applied. */
  paidWithUnpaidCheckout(createdBefore: number, limit: number): Promise<string[]>;
  /** Refs of open pages whose end (`expiresAt`) is at or before `at`, oldest first. */
  openEndedBy(at: number, limit: number): Promise<{ ref: string; checkoutId: string }[]>;
  /** Forgets pages no longer open whose end is at or before `at`; answers how many. */
  forgetClosedEndedBefore(at: number): Promise<number>;
}

/** Where add-a-card pages are kept (the test_payment_setups table). */
export interface TestSetupStore {
  add(setup: TestSetup, expiresAt: number): Promise<void>;
  /** The page, unless it was used or its end (`expiresAt`) is at or before `at`. */
  get(ref: string, at: number): Promise<TestSetup | undefined>;
  /** Uses the page up: false when it was already used (another click or another process took it first). */
  take(ref: string): Promise<boolean>;
  /** Forgets pages whose end is at or before `at`; answers how many. */
  forgetEndedBy(at: number): Promise<number>;
}

export interface TestSubscription {
  ref: string;
  customerRef: string;
  cancelAtPeriodEnd: boolean;
  items: { itemRef: string; orderId: string; currentPeriodEnd: number; renews: boolean }[];
}

export interface TestProviderOptions {
  /**
   * The start of the hosted page URLs. Empty: the pages and their redirects are paths on the
   * site the buyer is on, so the session cookie goes with them whether they came by localhost or
   * 127.0.0.1 (Stripe needs absolute URLs; the test payments do not).
   */
  baseUrl: string;
  now: () => number;
  /** Applies an event exactly as a webhook's would be (fastify.orders.applyPaymentEvent). */
  emit: (event: PaymentEvent) => Promise<unknown>;
  cards: TestCardStore;
  sessions: TestSessionStore;
  setups: TestSetupStore;
  /**
   * A test subscription as its orders store it. Read on every change: a copy kept in memory would
   * be stale as soon as another bff replica (or a restart) changed the subscription.
   */
  loadSubscription: (subscriptionRef: string) => Promise<TestSubscription | undefined>;
}

export type CardOutcome = { ok: true; redirect: string } | { ok: false; message: string; redirect?: string };

const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;
const CLOSED_SESSION_KEPT_MS = 30 * SESSION_LIFETIME_MS;
/** A paid page's events are applied within a second or two; one still unapplied after this is finished by finishPaidPages. */
const FINISH_AFTER_MS = 60 * 1000;

let refSequence = 0;
/** A reference that sorts in the order it was made (saved cards are listed oldest first), then random. */
function newRef(prefix: string): string {
  refSequence = (refSequence + 1) % 1024;
  const ordered = (Date.now() * 1024 + refSequence).toString(16).padStart(14, '0').slice(-14);
  return `${prefix}_${ordered}${randomBytes(5).toString('hex')}`;
}

function sameToken(a: string, b: unknown): boolean {
  if (typeof b !== 'string' || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

function digitsOf(cardNumber: unknown): string {
  return typeof cardNumber === 'string' ? cardNumber.replace(/[\s-]/g, '') : '';
}

/** The end of one billing period that starts at `from`: calendar months, as Stripe counts them (January 31 + 1 month = February 28). */
function periodEnd(from: number, interval: 'month' | 'year', count: number): number {
  return addMonths(new Date(from), interval === 'month' ? count : count * 12).getTime();
}

/** The random part of a reference ("test_cs_<24 hex>"): the page's other references are made from it. */
function suffixOf(ref: string): string {
  return ref.slice(ref.lastIndexOf('_') + 1);
}

/** What is kept of a card: brand, last four and expiry (MM/YY checked before). */
function cardOf(number: string, expiry: string): Omit<ProviderPaymentMethod, 'isDefault' | 'ref'> {
  const [month = '12', year = '30'] = expiry.split('/').map((part) => part.trim());
  return { brand: brandOf(number), last4: number.slice(-4), expMonth: Number(month), expYear: Number(year) < 100 ? 2000 + Number(year) : Number(year) };
}

function brandOf(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^5[1-5]/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'card';
}

/** Checks the expiry (MM/YY, not past) and CVC fields; the message to show, or null. */
function cardFieldProblem(expiry: unknown, cvc: unknown, now: number): string | null {
  const match = typeof expiry === 'string' ? /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry) : null;
  if (!match) return CARD_MESSAGES.expiry;
  const month = Number(match[1]);
  const year = Number(match[2]) < 100 ? 2000 + Number(match[2]) : Number(match[2]);
  const today = new Date(now);
  if (month < 1 || month > 12 || year * 12 + month < today.getUTCFullYear() * 12 + today.getUTCMonth() + 1) return CARD_MESSAGES.expiry;
  if (typeof cvc !== 'string' || !/^\d{3,4}$/.test(cvc.trim())) return CARD_MESSAGES.cvc;
  return null;
}

/** `url` (absolute, or a path on the site) with `params` added; a path stays a path. */
function withQuery(url: string, params: Record<string, string>): string {
  const parsed = new URL(url, 'http://site.invalid');
  for (const [key, value] of Object.entries(params)) parsed.searchParams.set(key, value);
  return parsed.origin === 'http://site.invalid' ? `${parsed.pathname}${parsed.search}` : parsed.toString();
}

export class TestProvider implements PaymentProvider {
  readonly name = 'test' as const;
  constructor(private readonly options: TestProviderOptions) {}

  private event(): { eventId: string; occurredAt: number } {
    return { eventId: newRef('test_evt'), occurredAt: this.options.now() };
  }

  async createCustomer(_user: PaymentUser): Promise<string> {
    return newRef('test_cus');
  }

  async createCheckout(checkout: ProviderCheckout): Promise<{ ref: string; url: string }> {
    const ref = newRef('test_cs');
    const createdAt = this.options.now();
    await this.options.sessions.add({ ref, checkout, formToken: randomBytes(24).toString('base64url'), status: 'open', createdAt }, createdAt + SESSION_LIFETIME_MS);
    return { ref, url: `${this.options.baseUrl}/api/payments/test/checkout/${ref}` };
  }

  async pageStatus(ref: string): Promise<'open' | 'paid' | 'closed'> {
    const status = (await this.options.sessions.get(ref))?.status;
    return status === 'open' || status === 'paid' ? status : 'closed';
  }

  async closeCheckout(ref: string): Promise<'closed' | 'paid'> {
    // A declined page closes too: opened again, it says it can no longer be used, not "pay your order again" (its order was replaced or cancelled).
    if ((await this.options.sessions.move(ref, 'open', 'expired')) || (await this.options.sessions.move(ref, 'failed', 'expired'))) return 'closed';
    return (await this.options.sessions.get(ref))?.status === 'paid' ? 'paid' : 'closed';
  }

  /**
   * Finishes payments whose page was marked paid but whose events were not all applied (the process
   * stopped, or the database failed, in between): the same events again, with the same ids, so
   * each is applied once whoever sends it. At start and every 5 minutes (the payments plugin).
   */
  async finishPaidPages(): Promise<string[]> {
    const finished: string[] = [];
    for (const ref of await this.options.sessions.paidWithUnpaidCheckout(this.options.now() - FINISH_AFTER_MS, 100)) {
      const session = await this.options.sessions.get(ref);
      if (!session) continue;
      await this.applyPaid(session, this.options.now());
      finished.push(ref);
    }
    return finished;
  }

  /** The session `ref` of `userId` (its page says when it can no longer be paid), or undefined (unknown, another user's). */
  async openSession(ref: string, userId: string | undefined): Promise<TestSession | undefined> {
    const session = await this.options.sessions.get(ref);
    if (!session || session.checkout.user.id !== userId) return undefined;
    return session;
  }

  /**
   * Closes every open page left unpaid for 24 hours (by the bff's clock) as Stripe expires a
   * Checkout Session: the page is moved to expired once (so a payment at the same moment and a
   * second bff process cannot both act on it), then checkout.expired is applied with an event id
   * made from the page, so it is applied once whoever sends it. Answers the pages expired.
   */
  async expireOpenSessions(): Promise<string[]> {
    const expired: string[] = [];
    for (const { ref, checkoutId } of await this.options.sessions.openEndedBy(this.options.now(), 500)) {
      if (!(await this.options.sessions.move(ref, 'open', 'expired'))) continue;
      try {
        await this.options.emit({ eventId: `test_expired_${ref}`, occurredAt: this.options.now(), kind: 'checkout.expired', checkoutId, checkoutRef: ref, failureMessage: null });
      } catch (error) {
        // Not applied: open again, so the next run tries again.
        await this.options.sessions.move(ref, 'expired', 'open');
        throw error;
      }
      expired.push(ref);
    }
    // A used or expired page only says so; after 30 days it is forgotten (its checkout keeps the outcome).
    await this.options.sessions.forgetClosedEndedBefore(this.options.now() - CLOSED_SESSION_KEPT_MS);
    // An add-a-card page is forgotten at its end (it has no outcome to show).
    await this.options.setups.forgetEndedBy(this.options.now());
    return expired;
  }

  private sessionIsLive(session: TestSession): boolean {
    return session.status === 'open' && this.options.now() - session.createdAt < SESSION_LIFETIME_MS;
  }

  /** The hosted payment page. */
  checkoutPage(session: TestSession, message: string | null = null): string {
    const { checkout } = session;
    const total = checkout.lines.reduce((sum, line) => sum + line.amount, 0);
    const rows = checkout.lines
      .map(
        (line) => `<tr><td>${escapeHtml(line.description)}</td><td>${escapeHtml(renewalWords(line.interval, line.intervalCount))}</td><td class="amount">${formatUsd(line.amount)}</td></tr>`,
      )
      .join('');
    const live = this.sessionIsLive(session);
    const orders = checkout.lines.length === 1 && checkout.lines[0] ? `/account/orders/${encodeURIComponent(checkout.lines[0].orderId)}` : '/account/orders';
    const closed =
      session.status === 'paid'
        ? `<p role="status" class="done" id="page-state">${escapeHtml(CARD_MESSAGES.paid)}</p><p><a href="${escapeHtml(orders)}">View your order${checkout.lines.length === 1 ? '' : 's'}</a></p>`
        : session.status === 'failed'
          ? `<p role="alert" class="error" id="page-state">${escapeHtml(CARD_MESSAGES.failed)}</p><p><a href="${escapeHtml(orders)}">Go to your order${checkout.lines.length === 1 ? '' : 's'}</a></p>`
          : `<p role="alert" class="error" id="page-state">${escapeHtml(CARD_MESSAGES.expired)}</p><p><a href="/account/orders">Your orders</a> · <a href="/checkout">Checkout</a></p>`;
    const form = live
      ? `<form method="post" action="/api/payments/test/checkout/${escapeHtml(session.ref)}" novalidate>
  <input type="hidden" name="formToken" value="${escapeHtml(session.formToken)}">
  ${cardFields()}
  <button type="submit">Pay ${formatUsd(total)}</button>
</form>
<p><a href="${escapeHtml(checkout.cancelUrl)}">Cancel and go back</a></p>`
      : closed;
    return page(
      'Test payment',
      `<h1>Pay for your order</h1>
<table><caption>Your order</caption><thead><tr><th scope="col">Item</th><th scope="col">Renews</th><th scope="col" class="amount">Amount</th></tr></thead>
<tbody>${rows}</tbody><tfoot><tr><th scope="row" colspan="2">Due today</th><td class="amount">${formatUsd(total)}</td></tr></tfoot></table>
${message && live ? `<p role="alert" class="error" id="card-error">${escapeHtml(message)}</p>` : ''}
${form}`,
    );
  }

  /**
   * The card form's outcome: 4242… pays (events applied, then the success URL); the two decline
   * cards fail the checkout with Stripe's wording and go back to checkout with the reason; any
   * other number, or a bad expiry or CVC, is shown again on the page.
   */
  async pay(session: TestSession, form: Record<string, unknown>): Promise<CardOutcome> {
    if (!sameToken(session.formToken, form.formToken) || !this.sessionIsLive(session)) return { ok: false, message: CARD_MESSAGES.expired };
    const number = digitsOf(form.cardNumber);
    const fieldProblem = cardFieldProblem(form.expiry, form.cvc, this.options.now());
    if (fieldProblem) return { ok: false, message: fieldProblem };
    const { checkout } = session;
    if (number === TEST_CARDS.declined || number === TEST_CARDS.insufficientFunds) {
      const message = number === TEST_CARDS.declined ? CARD_MESSAGES.declined : CARD_MESSAGES.insufficientFunds;
      if (!(await this.options.sessions.move(session.ref, 'open', 'failed'))) return { ok: false, message: CARD_MESSAGES.expired };
      session.status = 'failed';
      try {
        await this.options.emit({ ...this.event(), kind: 'checkout.failed', checkoutId: checkout.checkoutId, checkoutRef: session.ref, failureMessage: message });
      } catch (error) {
        // Not recorded (the database failed): the page opens again, so the checkout and its page
        // agree and the buyer can try again on it, rather than being sent back to it closed.
        await this.options.sessions.move(session.ref, 'failed', 'open');
        session.status = 'open';
        throw error;
      }
      return { ok: false, message, redirect: withQuery(checkout.cancelUrl, { reason: message }) };
    }
    if (number !== TEST_CARDS.success) return { ok: false, message: CARD_MESSAGES.unknown };

    // Paid and its card saved in one transaction, before the events go out, so a second click (or a
    // second bff process) cannot pay twice; should the events not all be applied now, finishPaidPages does.
    if (!(await this.options.sessions.markPaid(session.ref, checkout.customerRef, { ref: `test_pm_${suffixOf(session.ref)}`, ...cardOf(number, String(form.expiry)) }))) {
      return { ok: false, message: CARD_MESSAGES.expired };
    }
    session.status = 'paid';
    await this.applyPaid(session, this.options.now());
    return { ok: true, redirect: checkout.successUrl };
  }

  /**
   * The events of a paid page, in Stripe's usual order (the first invoice is paid, then the session
   * completes). Their ids and references are made from the page's, so sending them again (finishPaidPages)
   * applies nothing twice.
   */
  private async applyPaid(session: TestSession, paidAt: number): Promise<void> {
    const { checkout } = session;
    const suffix = suffixOf(session.ref);
    const subscription: TestSubscription = {
      ref: `test_sub_${suffix}`,
      customerRef: checkout.customerRef,
      cancelAtPeriodEnd: false,
      items: checkout.lines.map((line, index) => ({
        itemRef: `test_si_${suffix}${index.toString(16).padStart(2, '0')}`,
        orderId: line.orderId,
        currentPeriodEnd: periodEnd(paidAt, line.interval, line.intervalCount),
        renews: true,
      })),
    };
    const total = checkout.lines.reduce((sum, line) => sum + line.amount, 0);
    await this.options.emit({
      eventId: `test_paid_${session.ref}`,
      occurredAt: paidAt,
      kind: 'invoice.paid',
      invoiceRef: `test_in_${suffix}`,
      subscriptionRef: subscription.ref,
      customerRef: checkout.customerRef,
      checkoutId: checkout.checkoutId,
      number: null,
      amountPaid: total,
      currency: 'usd',
      paidAt,
      lines: checkout.lines.map((line, index) => ({
        orderId: line.orderId,
        itemRef: subscription.items[index]?.itemRef ?? null,
        description: line.description,
        amount: line.amount,
        periodStart: paidAt,
        periodEnd: subscription.items[index]?.currentPeriodEnd ?? paidAt,
      })),
      // The bff renders the receipt PDF of a test payment itself.
      receipt: { pdfUrl: null, hostedUrl: null },
    });
    await this.options.emit({
      eventId: `test_completed_${session.ref}`,
      occurredAt: paidAt,
      kind: 'checkout.completed',
      checkoutId: checkout.checkoutId,
      checkoutRef: session.ref,
      customerRef: checkout.customerRef,
      subscriptionRef: subscription.ref,
      items: subscription.items.map((item) => ({ orderId: item.orderId, itemRef: item.itemRef })),
      paymentStatus: 'paid',
    });
  }

  private async saveCard(customerRef: string, number: string, expiry: string): Promise<void> {
    await this.options.cards.add(customerRef, { ref: newRef('test_pm'), ...cardOf(number, expiry) });
  }

  async setRenewal(target: { subscriptionRef: string; itemRef: string | null }, renew: boolean): Promise<void> {
    const subscription = await this.options.loadSubscription(target.subscriptionRef);
    if (!subscription) throw new Error(`test subscription ${target.subscriptionRef} is unknown`);
    const only = target.itemRef === null || subscription.items.length === 1;
    if (only) subscription.cancelAtPeriodEnd = !renew;
    for (const item of subscription.items) if (only || item.itemRef === target.itemRef) item.renews = renew;
    const changed: SubscriptionChanged = {
      ...this.event(),
      kind: 'subscription.updated',
      subscriptionRef: subscription.ref,
      customerRef: subscription.customerRef,
      status: 'active',
      items: subscription.items.map((item) => ({
        orderId: item.orderId,
        itemRef: item.itemRef,
        currentPeriodEnd: item.currentPeriodEnd,
        renews: item.renews && !subscription.cancelAtPeriodEnd,
      })),
    };
    await this.options.emit(changed);
  }

  async listPaymentMethods(customerRef: string): Promise<ProviderPaymentMethod[]> {
    return this.options.cards.list(customerRef);
  }

  async setDefaultPaymentMethod(customerRef: string, paymentMethodRef: string): Promise<void> {
    await this.options.cards.setDefault(customerRef, paymentMethodRef);
  }

  async removePaymentMethod(customerRef: string, paymentMethodRef: string): Promise<void> {
    await this.options.cards.remove(customerRef, paymentMethodRef);
  }

  async createPaymentMethodSetup(customerRef: string, returnUrl: string): Promise<{ url: string }> {
    const ref = newRef('test_seti');
    const createdAt = this.options.now();
    await this.options.setups.add({ ref, customerRef, returnUrl, formToken: randomBytes(24).toString('base64url') }, createdAt + SESSION_LIFETIME_MS);
    return { url: `${this.options.baseUrl}/api/payments/test/setup/${ref}` };
  }

  /** The add-a-card page `ref`, while it is unused and not past its end (the caller checks whose it is). */
  setupSession(ref: string): Promise<TestSetup | undefined> {
    return this.options.setups.get(ref, this.options.now());
  }

  setupPage(setup: TestSetup, message: string | null = null): string {
    return page(
      'Add a test card',
      `<h1>Add a card</h1>
${message ? `<p role="alert" class="error" id="card-error">${escapeHtml(message)}</p>` : ''}
<form method="post" action="/api/payments/test/setup/${escapeHtml(setup.ref)}" novalidate>
  <input type="hidden" name="formToken" value="${escapeHtml(setup.formToken)}">
  ${cardFields()}
  <button type="submit">Save card</button>
</form>
<p><a href="${escapeHtml(setup.returnUrl)}">Cancel</a></p>`,
    );
  }

  /** Saves a card from the add-a-card page: 4242… (and other test numbers that succeed) is kept; decline cards are refused. */
  async addCard(setup: TestSetup, form: Record<string, unknown>): Promise<CardOutcome> {
    if (!sameToken(setup.formToken, form.formToken)) return { ok: false, message: CARD_MESSAGES.expired };
    const number = digitsOf(form.cardNumber);
    const fieldProblem = cardFieldProblem(form.expiry, form.cvc, this.options.now());
    if (fieldProblem) return { ok: false, message: fieldProblem };
    if (number === TEST_CARDS.declined) return { ok: false, message: CARD_MESSAGES.declined };
    if (number === TEST_CARDS.insufficientFunds) return { ok: false, message: CARD_MESSAGES.insufficientFunds };
    if (number !== TEST_CARDS.success && number !== '5555555555554444') return { ok: false, message: CARD_MESSAGES.unknown };
    // Used up before the card is saved, so a second click (or a second bff process) cannot save it twice.
    if (!(await this.options.setups.take(setup.ref))) return { ok: false, message: CARD_MESSAGES.expired };
    await this.saveCard(setup.customerRef, number, String(form.expiry));
    return { ok: true, redirect: setup.returnUrl };
  }

  parseWebhook(): PaymentEvent[] {
    throw new WebhookSignatureError('Test payments send no webhooks: their events are applied as the test page is paid');
  }
}
