import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { buildValidationGuidePdf } from './build-guide';
import { VALIDATION_GUIDE } from './guide';
import type { Section } from '../../lib/document';

function headings(sections: readonly Section[]): string[] {
  return sections.flatMap((section) => [section.heading, ...headings(section.subsections ?? [])]);
}

/** The bookmark titles of a parsed PDF, depth first, as a reader's sidebar lists them. */
function bookmarkTitles(pdf: PDFDocument): string[] {
  const titles: string[] = [];
  const visit = (item: PDFDict | undefined) => {
    for (let node = item; node; node = node.lookupMaybe(PDFName.of('Next'), PDFDict)) {
      titles.push(node.lookup(PDFName.of('Title'), PDFString, PDFHexString).decodeText());
      visit(node.lookupMaybe(PDFName.of('First'), PDFDict));
    }
  };
  visit(pdf.catalog.lookup(PDFName.of('Outlines'), PDFDict).lookupMaybe(PDFName.of('First'), PDFDict));
  return titles;
}

describe('the Mark Certificate Validation Guide PDF', () => {
  let bytes: Buffer;
  let pdf: PDFDocument;
  beforeAll(async () => {
    bytes = await buildValidationGuidePdf();
    pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  });

  it('is a PDF that a PDF library opens, several A4 pages long, titled and attributed', () => {
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.subarray(-6).toString('latin1')).toMatch(/%%EOF\s*$/);
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(3);
    const { width, height } = pdf.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);
    expect(pdf.getTitle()).toBe('Mark Certificate Validation Guide');
    expect(pdf.getAuthor()).toBe('BIMI Store');
  });

  it('has a bookmark for the title and every heading of the guide’s source text, in order', () => {
    const expected = [VALIDATION_GUIDE.title, ...headings(VALIDATION_GUIDE.sections)];
    expect(expected.length).toBeGreaterThan(10);
    expect(bookmarkTitles(pdf)).toEqual(expected);
  });

  it('is the same file every build of the same text', async () => {
    expect((await buildValidationGuidePdf()).equals(bytes)).toBe(true);
  });
});
