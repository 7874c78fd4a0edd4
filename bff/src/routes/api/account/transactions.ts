import { RecordId } from '@bimi/contracts/account';
import { ORDER_PATHS, TransactionList } from '@bimi/contracts/orders';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../../lib/http-error';
import { receiptNumber } from '../../../services/orders/order-rows';
import { renderReceiptPdf } from '../../../services/receipts/receipt-pdf';
import { currentUser } from './current-user';
import { readableGet } from './readable';

const TransactionParams = z.object({ id: RecordId });
const NOT_FOUND = 'Transaction not found';

/**
 * Billing history: every charge and refund of the user, and each one's receipt (the provider's
 * invoice PDF when it has one, else a PDF the bff renders). Another user's answers 404.
 */
const transactions: FastifyPluginAsyncZod = async (fastify) => {
  readableGet(fastify, { url: ORDER_PATHS.transactions, response: TransactionList, read: async (user) => ({ transactions: await fastify.transactions.list(user.id) }) });

  fastify.get(`${ORDER_PATHS.transactions}/:id/receipt`, { schema: { params: TransactionParams } }, async (request, reply) => {
    const user = currentUser(request);
    const receipt = await fastify.transactions.receipt(user.id, request.params.id);
    if (!receipt) throw new HttpError(404, NOT_FOUND);
    const { transaction, lines } = receipt;
    if (transaction.status !== 'paid' && transaction.status !== 'refunded') throw new HttpError(409, 'This payment did not go through, so it has no receipt');
    if (transaction.receipt_pdf_url) return reply.redirect(transaction.receipt_pdf_url, 302);
    const number = receiptNumber(transaction);
    const pdf = await renderReceiptPdf({
      receiptNumber: number,
      date: transaction.date,
      orderNumbers: lines.map((line) => line.orderNumber),
      lines: lines.length > 0 ? lines.map((line) => ({ description: line.description, amount: line.amount })) : [{ description: transaction.description, amount: transaction.amount }],
      amount: transaction.amount,
      status: transaction.status,
      // The built-in test payments accept one succeeding card, Stripe's 4242 4242 4242 4242.
      cardLast4: transaction.card_last4 ?? (transaction.test_payment === 1 ? '4242' : null),
      cardBrand: transaction.card_brand ?? (transaction.test_payment === 1 ? 'visa' : null),
      testPayment: transaction.test_payment === 1,
      billedTo: { name: user.name, email: user.email },
    });
    return reply.type('application/pdf').header('content-disposition', `inline; filename="receipt-${number}.pdf"`).header('cache-control', 'private, no-store').send(pdf);
  });
};

export default transactions;
