import { formatUsd } from '@bimi/catalog/prices';
import { SITE_NAME } from '@bimi/contracts/site';
import PDFDocument from 'pdfkit';
import { longDate } from '@bimi/contracts/dates';

export interface ReceiptContent {
  /** "R-1A2B3C4D" or the provider's invoice number. */
  receiptNumber: string;
  /** ISO 8601. */
  date: string;
  orderNumbers: string[];
  lines: { description: string; amount: number }[];
  amount: number;
  status: 'paid' | 'refunded';
  /** "Paid with card ending 4242"; null when the card is not known. */
  cardLast4: string | null;
  cardBrand: string | null;
  /** Charged by the built-in test payments: no money moved. */
  testPayment: boolean;
  billedTo: { name: string; email: string };
}

/**
 * The receipt of a charge the bff made itself (built-in test payments), as a PDF: the store's
 * name, the receipt number and date, the orders, each line and the total, and the card. Stripe's
 * charges have Stripe's own invoice PDF instead.
 */
export function renderReceiptPdf(receipt: ReceiptContent): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: `${SITE_NAME} receipt ${receipt.receiptNumber}`, Author: SITE_NAME } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  doc.font('Helvetica-Bold').fontSize(22).text(SITE_NAME);
  doc
    .moveDown(0.3)
    .font('Helvetica')
    .fontSize(14)
    .text(receipt.status === 'refunded' ? 'Receipt (refunded)' : 'Receipt');
  if (receipt.testPayment) {
    doc.moveDown(0.5).font('Helvetica-Bold').fontSize(11).fillColor('#b00020').text("TEST PAYMENT: made with the store's built-in test payments; no money was charged.").fillColor('black');
  }
  doc.moveDown(1).font('Helvetica').fontSize(11);
  const facts: [string, string][] = [
    ['Receipt number', receipt.receiptNumber],
    ['Date paid', longDate(receipt.date)],
    [receipt.orderNumbers.length === 1 ? 'Order' : 'Orders', receipt.orderNumbers.join(', ') || '-'],
    ['Billed to', `${receipt.billedTo.name} <${receipt.billedTo.email}>`],
  ];
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font('Helvetica-Bold').text(label, left, y, { width: 130 });
    doc.font('Helvetica').text(value, left + 140, y, { width: width - 140 });
    doc.moveDown(0.2);
  }

  doc.moveDown(1);
  const amountWidth = 100;
  const row = (description: string, amount: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    doc.text(description, left, y, { width: width - amountWidth - 10 });
    const after = doc.y;
    doc.text(amount, left + width - amountWidth, y, { width: amountWidth, align: 'right' });
    doc.y = Math.max(after, doc.y);
    doc.moveDown(0.3);
  };
  row('Description', 'Amount', true);
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.moveDown(0.3);
  for (const line of receipt.lines) row(line.description, formatUsd(line.amount));
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.moveDown(0.3);
  row(receipt.status === 'refunded' ? 'Total refunded' : 'Total paid', formatUsd(receipt.amount), true);

  doc.moveDown(1).font('Helvetica').fontSize(11);
  if (receipt.cardLast4)
    doc.text(
      `Paid with ${receipt.cardBrand ? `${receipt.cardBrand} ` : ''}card ending ${receipt.cardLast4}`.replace(
        /^Paid with (\w+) card/,
        (_m, brand: string) => `Paid with ${brand.charAt(0).toUpperCase()}${brand.slice(1)} card`,
      ),
      left,
    );
  doc
    .moveDown(2)
    .fontSize(9)
    .fillColor('#555555')
    .text(`Amounts in US dollars. Keep this receipt for your records. Questions: reply through ${SITE_NAME} support and quote the receipt number.`, left);
  doc.end();
  return done;
}
