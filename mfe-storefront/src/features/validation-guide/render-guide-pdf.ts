import PDFDocument from 'pdfkit';
import type { Block, LongDocument, Section } from '../../lib/document';

/** Build-time only (Node): prints a LongDocument as an A4 PDF with bookmarks and page numbers. */

const MARGIN = 56;
const INK = '#111827';
const MUTED = '#4b5563';
const BRAND = '#0b5cad';

interface RenderOptions {
  /** The document's author and producer line; also printed in the footer. */
  publisher: string;
  /** Fixed dates make the file reproducible: two builds of the same text give the same bytes. */
  date: Date;
}

export function renderDocumentPdf(document: LongDocument, { publisher, date }: RenderOptions): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: document.title, Author: publisher, Subject: document.lead, CreationDate: date, ModDate: date },
    displayTitle: true,
    lang: 'en-US',
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  pdf.font('Helvetica').fontSize(10).fillColor(BRAND).text(publisher.toUpperCase(), { characterSpacing: 1.5 });
  pdf.moveDown(0.6);
  pdf.font('Helvetica-Bold').fontSize(26).fillColor(INK).text(document.title);
  const bookmarks = pdf.outline.addItem(document.title, { expanded: true });
  pdf.moveDown(0.5);
  pdf.font('Helvetica').fontSize(12.5).fillColor(MUTED).text(document.lead, { lineGap: 3 });
  pdf.moveDown(1.2);

  for (const section of document.sections) printSection(pdf, section, 1, bookmarks);

  // Footers last, once the page count is known.
  const range = pdf.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index += 1) {
    pdf.switchToPage(index);
    const bottom = pdf.page.height - MARGIN / 2 - 10;
    pdf.page.margins.bottom = 0;
    pdf.font('Helvetica').fontSize(8.5).fillColor(MUTED);
    pdf.text(`${publisher} - ${document.title}`, MARGIN, bottom, { lineBreak: false });
    pdf.text(`Page ${index + 1} of ${range.count}`, MARGIN, bottom, { width: pdf.page.width - 2 * MARGIN, align: 'right', lineBreak: false });
  }
  pdf.end();
  return done;
}

/** Each heading is also a bookmark, nested like the sections, so readers can jump to a step. */
function printSection(pdf: PDFKit.PDFDocument, section: Section, level: 1 | 2, parent: PDFKit.PDFOutline): void {
  // Keep a heading with the start of its text rather than alone at the foot of a page.
  if (pdf.y > pdf.page.height - MARGIN - 90) pdf.addPage();
  pdf.moveDown(level === 1 ? 0.8 : 0.5);
  pdf
    .font('Helvetica-Bold')
    .fontSize(level === 1 ? 17 : 13)
    .fillColor(level === 1 ? BRAND : INK)
    .text(section.heading);
  const bookmark = parent.addItem(section.heading);
  pdf.moveDown(0.35);
  for (const block of section.blocks) printBlock(pdf, block);
  for (const subsection of section.subsections ?? []) printSection(pdf, subsection, 2, bookmark);
}

function printBlock(pdf: PDFKit.PDFDocument, block: Block): void {
  const body = () => pdf.font('Helvetica').fontSize(11).fillColor(INK);
  switch (block.kind) {
    case 'p':
      body().text(block.text, { lineGap: 2.5, align: 'left' });
      break;
    case 'list':
      body().list([...block.items], { bulletRadius: 2, textIndent: 12, bulletIndent: 4, lineGap: 2.5, paragraphGap: 3 });
      break;
    case 'steps':
      body().list([...block.items], { listType: 'numbered', textIndent: 14, bulletIndent: 2, lineGap: 2.5, paragraphGap: 3 });
      break;
    case 'code':
      pdf.font('Courier').fontSize(9).fillColor(INK).text(block.text, { lineGap: 2 });
      break;
    case 'links':
      body().text(block.items.map((item) => `${item.label}: ${item.to}`).join('\n'), { lineGap: 2.5 });
      break;
  }
  pdf.moveDown(0.6);
}
