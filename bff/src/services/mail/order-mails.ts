import { formatUsd } from '@bimi/catalog/prices';
import { SITE_NAME } from '@bimi/contracts/site';
import type { Selectable } from 'kysely';
import type { OrdersTable } from '../../db/schema';
import { isCertificateOrder } from '../orders/order-status';
import { orderNumber, productName } from '../orders/order-rows';
import type { MailMessage } from './message';
import { longDate } from '@bimi/contracts/dates';

/**
 * The texts of the mails orders and payments send (issue 11); each link is absolute, built on the
 * site's public URL. Kept apart from account-mails.ts.
 */

export interface MailOrder {
  id: string;
  /** "O-000123". */
  number: string;
  productName: string;
  /** "3 domains · 2 years". */
  description: string;
  amount: number;
  interval: 'month' | 'year';
  intervalCount: number;
  /** A certificate order still waiting for its validation details. */
  needsDetails: boolean;
}

const orderPage = (baseUrl: string, orderId: string) => `${baseUrl}/account/orders/${encodeURIComponent(orderId)}`;

/** "every 2 years", "every month". */
export function everyPeriod(interval: 'month' | 'year', count: number): string {
  return count === 1 ? `every ${interval}` : `every ${count} ${interval}s`;
}

export function orderConfirmationMail(to: string, name: string, baseUrl: string, orders: MailOrder[]): MailMessage {
  const lines = orders
    .map(
      (order) =>
        `- ${order.number}: ${order.productName}, ${order.description}: ${formatUsd(order.amount)} ${everyPeriod(order.interval, order.intervalCount)}\n  ${orderPage(baseUrl, order.id)}`,
    )
    .join('\n');
  const waiting = orders.filter((order) => order.needsDetails);
  const next =
    waiting.length > 0
      ? `\nTo start validation, add the details of ${waiting.length === 1 ? 'your certificate' : 'each certificate'} (organization, domains, logo and contacts) on ${waiting.length === 1 ? 'its order page' : 'their order pages'}:\n${waiting.map((order) => `${orderPage(baseUrl, order.id)}`).join('\n')}\n`
      : '';
  return {
    to,
    subject: orders.length === 1 ? `Your ${SITE_NAME} order ${orders[0]?.number} is confirmed` : `Your ${SITE_NAME} orders ${orders.map((order) => order.number).join(', ')} are confirmed`,
    text: `Hello ${name},

Thank you for your order. Your payment is confirmed.

${lines}
${next}
A receipt for the payment follows in a separate message. You can follow your orders at:
${baseUrl}/account/orders
`,
  };
}

export function paymentReceiptMail(
  to: string,
  name: string,
  baseUrl: string,
  receipt: { receiptNumber: string; date: string; amount: number; orderNumbers: string[]; lines: { description: string; amount: number }[]; testPayment: boolean },
): MailMessage {
  return {
    to,
    subject: `Your ${SITE_NAME} receipt ${receipt.receiptNumber}`,
    text: `Hello ${name},

We received your payment of ${formatUsd(receipt.amount)} on ${longDate(receipt.date)}${receipt.orderNumbers.length > 0 ? ` for ${receipt.orderNumbers.join(', ')}` : ''}.

${receipt.lines.map((line) => `- ${line.description}: ${formatUsd(line.amount)}`).join('\n')}
${receipt.testPayment ? "\nThis was a test payment with the store's built-in test payments: no money was charged.\n" : ''}
Your receipts (PDF) are at:
${baseUrl}/account/billing/transactions
`,
  };
}

export function paymentFailedMail(
  to: string,
  name: string,
  baseUrl: string,
  failure: { amount: number; failureMessage: string | null; orders: { id: string; number: string }[] },
): MailMessage {
  const first = failure.orders[0];
  return {
    to,
    subject: `Your ${SITE_NAME} payment did not go through`,
    text: `Hello ${name},

We could not take your payment of ${formatUsd(failure.amount)}${failure.orders.length > 0 ? ` for ${failure.orders.map((order) => order.number).join(', ')}` : ''}.${failure.failureMessage ? `\nThe card issuer said: ${failure.failureMessage}` : ''}

To fix it, add or choose another card here:

${baseUrl}/account/billing/payment-methods

${first ? `then check the order: ${orderPage(baseUrl, first.id)}\n\n` : ''}Until the payment goes through, the order stays on hold.
`,
  };
}

export function renewalReminderMail(to: string, name: string, baseUrl: string, reminder: { order: MailOrder; periodEnd: string; daysAhead: number; renews: boolean }): MailMessage {
  const { order } = reminder;
  const when = longDate(reminder.periodEnd);
  return reminder.renews
    ? {
        to,
        subject: `${order.productName} ${order.number} renews on ${when}`,
        text: `Hello ${name},

Your ${order.productName} (${order.description}), order ${order.number}, renews on ${when}, in ${reminder.daysAhead} days.
We will charge ${formatUsd(order.amount)} to your default card for the next ${order.intervalCount === 1 ? order.interval : `${order.intervalCount} ${order.interval}s`}.

To check your card: ${baseUrl}/account/billing/payment-methods
To turn renewal off: ${orderPage(baseUrl, order.id)}
`,
      }
    : {
        to,
        subject: `${order.productName} ${order.number} ends on ${when}`,
        text: `Hello ${name},

Your ${order.productName} (${order.description}), order ${order.number}, ends on ${when}, in ${reminder.daysAhead} days, and renewal is off.

To keep it, turn renewal back on before then: ${orderPage(baseUrl, order.id)}
`,
      };
}

/** An order as its mails show it. */
export function mailOrder(row: Selectable<OrdersTable>): MailOrder {
  return {
    id: row.id,
    number: orderNumber(row.number),
    productName: productName(row.product_id),
    description: row.description,
    amount: row.amount,
    interval: row.billing_interval,
    intervalCount: row.billing_interval_count,
    needsDetails: isCertificateOrder(row.product_id) && row.details === null,
  };
}
