import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { quoteCart } from '@bimi/catalog/quote';
import type { CertificateDetails, CheckoutLine } from '@bimi/contracts/orders';
import { orderLinesFromQuote, type CreatedOrder } from '../src/services/orders/order-rows';
import type { CheckoutCompleted, InvoicePaid, PaymentEvent, SubscriptionChanged } from '../src/services/payments/provider';
import { GOOD_LOGO } from './fixtures/tools/logos';
import { GOOD_PASSWORD, signedInUser, type Browser, type IdentityStore } from './identity-fixtures';

export const DAY = 24 * 60 * 60 * 1000;
export const VMC_3_DOMAINS_1_YEAR: CheckoutLine = { productId: 'verified-mark-certificate', domains: 3, years: 1 };
export const DMARC_PLUS_MONTHLY: CheckoutLine = { productId: 'dmarc-plus', emailVolume: 1_000_000, billingPeriod: 'monthly' };

export interface Buyer {
  browser: Browser;
  userId: string;
  email: string;
}

export async function buyer(store: IdentityStore, name: string, email: string, ip?: string): Promise<Buyer> {
  const browser = await signedInUser(store, name, email, ip);
  const { id } = await store.app.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return { browser, userId: id, email };
}

/** A checkout with one order per line, stored as the payments plugin stores it (the repository, the catalog's quote). */
export async function placeCheckout(store: IdentityStore, userId: string, items: CheckoutLine[]): Promise<{ checkoutId: string; orders: CreatedOrder[] }> {
  const quote = quoteCart(items, {}, { error: () => undefined });
  const created = await store.app.orders.createCheckout({ userId, lines: orderLinesFromQuote(items, quote) });
  await store.app.orders.attachProviderSession(created.checkoutId, `cs_${randomBytes(6).toString('hex')}`, `http://store.test/pay/${created.checkoutId}`, 'test');
  return created;
}

let sequence = 0;
export function eventId(prefix = 'evt'): string {
  sequence += 1;
  return `${prefix}_${process.pid}_${sequence}_${randomBytes(4).toString('hex')}`;
}

/** What a provider says when the first invoice of a checkout is paid: invoice.paid and checkout.completed. */
export function paidEvents(
  checkout: { checkoutId: string; orders: CreatedOrder[] },
  at: number,
  periodEnds: number[],
): { invoicePaid: InvoicePaid; checkoutCompleted: CheckoutCompleted; subscriptionRef: string; itemRefs: string[] } {
  const subscriptionRef = `sub_${randomBytes(6).toString('hex')}`;
  const itemRefs = checkout.orders.map(() => `si_${randomBytes(6).toString('hex')}`);
  const invoicePaid: InvoicePaid = {
    eventId: eventId(),
    occurredAt: at,
    kind: 'invoice.paid',
    invoiceRef: `in_${randomBytes(6).toString('hex')}`,
    subscriptionRef,
    customerRef: 'cus_test',
    checkoutId: checkout.checkoutId,
    number: null,
    amountPaid: checkout.orders.reduce((sum, order) => sum + order.amount, 0),
    currency: 'usd',
    paidAt: at,
    lines: checkout.orders.map((order, index) => ({
      orderId: order.id,
      itemRef: itemRefs[index] ?? null,
      description: order.description,
      amount: order.amount,
      periodStart: at,
      periodEnd: periodEnds[index] ?? at,
    })),
    receipt: { pdfUrl: null, hostedUrl: null },
  };
  const checkoutCompleted: CheckoutCompleted = {
    eventId: eventId(),
    occurredAt: at + 1,
    kind: 'checkout.completed',
    checkoutId: checkout.checkoutId,
    checkoutRef: 'cs_test',
    customerRef: 'cus_test',
    subscriptionRef,
    items: checkout.orders.map((order, index) => ({ orderId: order.id, itemRef: itemRefs[index] ?? null })),
    paymentStatus: 'paid',
  };
  return { invoicePaid, checkoutCompleted, subscriptionRef, itemRefs };
}

export function subscriptionEvent(
  kind: 'subscription.updated' | 'subscription.deleted',
  at: number,
  subscriptionRef: string,
  items: { orderId: string; itemRef: string; currentPeriodEnd: number; renews: boolean }[],
  status = kind === 'subscription.deleted' ? 'canceled' : 'active',
): SubscriptionChanged {
  return { eventId: eventId(), occurredAt: at, kind, subscriptionRef, customerRef: 'cus_test', status, items };
}

export async function apply(store: IdentityStore, ...events: PaymentEvent[]): Promise<string[]> {
  const outcomes: string[] = [];
  for (const event of events) outcomes.push(await store.app.orders.applyPaymentEvent(event));
  // Mail and fulfilment go after the event, from the background sender: wait for it.
  await store.app.jobs.runNow('order-mail');
  return outcomes;
}

/** An organization and the three contacts of the buyer, through the account API. */
export async function detailsFor(customer: Buyer, domains: string[]): Promise<CertificateDetails> {
  const organization = await customer.browser.write('POST', '/api/account/organizations', { name: 'Example Inc' });
  if (organization.statusCode !== 201) throw new Error(`organization: ${organization.body}`);
  const contactIds: string[] = [];
  for (const kind of ['legal', 'technical', 'billing'] as const) {
    const contact = await customer.browser.write('POST', '/api/account/contacts', { kind, name: `Pat ${kind}`, email: `${kind}@example.com` });
    if (contact.statusCode !== 201) throw new Error(`contact: ${contact.body}`);
    contactIds.push(contact.json().id);
  }
  const [legal = '', technical = '', billing = ''] = contactIds;
  return { organizationId: organization.json().id, domains, logoSvg: GOOD_LOGO, trademarkStatus: 'Registered', contacts: { legal, technical, billing } };
}

export async function counts(customer: Buyer): Promise<Record<string, number>> {
  const response = await customer.browser.request({ url: '/api/account/orders' });
  if (response.statusCode !== 200) throw new Error(response.body);
  return response.json().counts;
}

export async function statusOf(customer: Buyer, orderId: string): Promise<string> {
  const response = await customer.browser.request({ url: `/api/account/orders/${orderId}` });
  if (response.statusCode !== 200) throw new Error(response.body);
  return response.json().status;
}

/**
 * The text of a PDF, read by pdf-parse (installed in the workspace for the e2e guide test) in a
 * child Node process: its pdf.js loads ES modules, which jest's CommonJS runtime cannot.
 */
export async function pdfText(bytes: Buffer): Promise<string> {
  const parser = createRequire(join(__dirname, '..', '..', 'e2e', 'package.json')).resolve('pdf-parse');
  const script = `const { PDFParse } = require(${JSON.stringify(parser)});
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', async () => {
  const pdf = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
  const { text } = await pdf.getText();
  await pdf.destroy();
  process.stdout.write(text);
});`;
  const text = await new Promise<string>((resolve, reject) => {
    const child = execFile(process.execPath, ['-e', script], { maxBuffer: 10 * 1024 * 1024 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
    child.stdin?.end(bytes);
  });
  return text.replace(/\s+/g, ' ');
}

/** Moves the clock; sessions have an absolute limit, so the buyers sign in again. */
export async function advance(store: IdentityStore, ms: number, ...customers: Buyer[]): Promise<void> {
  store.advance(ms);
  for (const customer of customers) {
    const response = await customer.browser.signIn(customer.email, GOOD_PASSWORD);
    if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.body}`);
  }
}
